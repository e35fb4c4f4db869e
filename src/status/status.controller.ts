import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { Auth } from '../http/auth/access.decorators.js';
import type { AuthContext } from '../http/auth/auth-context.js';
import { OptionalNotNull } from '../common/validation/validators.js';
import { StatusResponse } from './dto/status.responses.js';
import { SERVER_VERSION } from './version.js';

export class EchoDto {
  @ApiPropertyOptional({ description: 'Returned as given.' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(1000)
  echo?: string;
}

const START_TIME = Date.now();

@ApiTags('status')
@Controller('status')
export class StatusController {
  @Get()
  @ApiOkResponse({ type: StatusResponse })
  get(@Auth() auth: AuthContext, @Query() query: EchoDto): StatusResponse {
    return this.status(auth, query.echo);
  }

  @Post()
  @HttpCode(200)
  @ApiOkResponse({ type: StatusResponse })
  post(@Auth() auth: AuthContext, @Body() body: EchoDto): StatusResponse {
    return this.status(auth, body.echo);
  }

  private status(auth: AuthContext, echo: string | undefined): StatusResponse {
    return {
      serverTime: Date.now(),
      startTime: START_TIME,
      version: SERVER_VERSION,
      whoami: auth.user?.id ?? null,
      permissions: [...auth.permissions],
      ...(echo !== undefined ? { echo } : {}),
    };
  }
}

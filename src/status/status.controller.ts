import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { Auth } from '../http/auth/access.decorators.js';
import type { AuthContext } from '../http/auth/auth-context.js';
import { OptionalNotNull } from '../common/validation/validators.js';
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
  get(@Auth() auth: AuthContext, @Query() query: EchoDto) {
    return this.status(auth, query.echo);
  }

  @Post()
  @HttpCode(200)
  post(@Auth() auth: AuthContext, @Body() body: EchoDto) {
    return this.status(auth, body.echo);
  }

  private status(auth: AuthContext, echo: string | undefined) {
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

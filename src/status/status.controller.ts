import { Body, Controller, Get, HttpCode, Post, Query, ServiceUnavailableException } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiPropertyOptional, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { Auth } from '../http/auth/access.decorators.js';
import type { AuthContext } from '../http/auth/auth-context.js';
import { OptionalNotNull } from '../common/validation/validators.js';
import { ReadinessResponse, StatusResponse } from './dto/status.responses.js';
import { ReadinessService } from './readiness.service.js';
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
  constructor(private readonly readiness: ReadinessService) {}

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

  /** For load balancers and container healthchecks; /status itself stays a liveness answer that touches nothing. */
  @Get('ready')
  @ApiOperation({ summary: 'Readiness: 200 while the database and (with REDIS_URL) Redis answer, 503 naming the one that does not.' })
  @ApiOkResponse({ type: ReadinessResponse })
  @ApiServiceUnavailableResponse({ description: 'A dependency is unreachable; the message names it.' })
  async ready(): Promise<ReadinessResponse> {
    const result = await this.readiness.check();
    if (!result.ready) {
      const failed = [result.database !== 'ok' ? `database ${result.database}` : null, result.redis.startsWith('unreachable') ? `Redis ${result.redis}` : null];
      throw new ServiceUnavailableException(`Not ready: ${failed.filter(Boolean).join('; ')}.`);
    }
    return { database: result.database, redis: result.redis, ...(result.replicas ? { replicas: result.replicas } : {}) };
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

import { Module, type DynamicModule } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { ReadinessService, READINESS_REDIS } from './readiness.service.js';
import { StatusController } from './status.controller.js';

@Module({})
export class StatusModule {
  /** redis: the client the readiness check pings, or null when REDIS_URL is not set. */
  static register(redis: Redis | null): DynamicModule {
    return {
      module: StatusModule,
      controllers: [StatusController],
      providers: [{ provide: READINESS_REDIS, useValue: redis }, ReadinessService],
    };
  }
}

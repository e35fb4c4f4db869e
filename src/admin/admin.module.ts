import { Module, type DynamicModule } from '@nestjs/common';
import type { LogLevelChannel } from '../common/log-level-switch.js';
import { RepositoriesModule } from '../repositories/repositories.module.js';
import { NotificationsModule } from '../notifications/notifications.module.js';
import { ScoringModule } from '../scoring/scoring.module.js';
import { AdminController } from './admin.controller.js';
import { AdminService } from './admin.service.js';
import { LOG_LEVEL_CHANNEL, LogLevelService } from './log-level.service.js';

/** /admin (spec 4.14): the operations of administrators, also run by the CLI. */
@Module({})
export class AdminModule {
  /** channel: where log level changes are shared with the other processes (null: this process only). */
  static register(channel: LogLevelChannel | null): DynamicModule {
    return {
      module: AdminModule,
      imports: [RepositoriesModule, ScoringModule, NotificationsModule],
      controllers: [AdminController],
      providers: [AdminService, LogLevelService, { provide: LOG_LEVEL_CHANNEL, useValue: channel }],
      exports: [AdminService],
    };
  }
}

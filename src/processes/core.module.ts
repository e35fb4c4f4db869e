import { Module, type DynamicModule } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { EXTERNAL_LOGIN_SESSIONS, type ExternalLoginSessions } from '../scoring/removal/account-removal.service.js';
import { AppConfig } from '../config/app-config.js';
import { ConfigModule } from '../config/config.module.js';
import { Database } from '../database/database.js';
import { DatabaseModule } from '../database/database.module.js';
import type { ImportQueue } from '../imports/import-queue.js';
import { ImportQueueModule } from '../imports/import-queue.module.js';
import { MailModule } from '../mail/mail.module.js';
import { SecretsModule } from '../secrets/secrets.module.js';
import { StorageModule } from '../storage/storage.module.js';
import { PolledWebhookQueue, type WebhookQueue } from '../webhooks/webhook-queue.js';
import { WebhookQueueModule } from '../webhooks/webhook-queue.module.js';

export interface CoreOptions {
  config: AppConfig;
  /** Opened (and migrated) by the process. */
  database: Database;
  /** Close the database when the process's application closes (true when nothing else closes it). */
  ownsDatabase: boolean;
  /** Where imports run: in-process, or a BullMQ queue that workers consume. Closed with the application. */
  importQueue: ImportQueue;
  /** Login sessions kept in Redis, which deleting an account ends (none: they live in the database). */
  loginSessions?: ExternalLoginSessions | null;
  /** How webhook deliveries run: BullMQ jobs, or (the default) this process polling the deliveries table. Closed with the application. */
  webhookQueue?: WebhookQueue;
}

/** Global, so that the core's services can reach what the process provides. */
@Module({})
class ProcessResourcesModule {
  static register(options: CoreOptions): DynamicModule {
    const providers = [{ provide: EXTERNAL_LOGIN_SESSIONS, useValue: options.loginSessions ?? null }];
    return { module: ProcessResourcesModule, global: true, providers, exports: providers };
  }
}

/**
 * What every process (API, import worker, CLI) runs on, with no HTTP in it: the config, the
 * database, the import and webhook queues, mail and file storage, the secrets key (SecretsModule), and Nest's scheduler (ScheduleModule:
 * the services' periodic jobs, registered in its SchedulerRegistry and cleared when the application
 * closes, and the snapshot schedule's cron jobs). Each process's root module imports it with
 * the feature modules it needs.
 */
@Module({})
export class CoreModule {
  static register(options: CoreOptions): DynamicModule {
    return {
      module: CoreModule,
      imports: [
        ScheduleModule.forRoot(),
        ConfigModule.forConfig(options.config),
        DatabaseModule.forDatabase(options.database, { closeOnShutdown: options.ownsDatabase }),
        ImportQueueModule.forQueue(options.importQueue),
        WebhookQueueModule.forQueue(options.webhookQueue ?? new PolledWebhookQueue()),
        MailModule,
        StorageModule,
        SecretsModule,
        ProcessResourcesModule.register(options),
      ],
    };
  }
}

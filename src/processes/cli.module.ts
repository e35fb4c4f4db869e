import { Module, type DynamicModule } from '@nestjs/common';
import { AdminModule } from '../admin/admin.module.js';
import { InvitesModule } from '../auth/invites.module.js';
import { ImportsModule } from '../imports/imports.module.js';
import { NotificationsModule } from '../notifications/notifications.module.js';
import { ScoringModule } from '../scoring/scoring.module.js';
import { SecretsRotationModule } from '../secrets/secrets-rotation.module.js';
import { SeedsModule } from '../seeds/seeds.module.js';
import { UgptModule } from '../ugpt/ugpt.module.js';
import { UsersModule } from '../users/users.module.js';
import { CoreModule, type CoreOptions } from './core.module.js';

/**
 * `npm run cli`'s application: the core and the feature modules whose services its commands call
 * (the same services the API's routes use). The snapshot schedule stays off: `snapshot` takes it once.
 */
@Module({})
export class CliModule {
  static register(options: CoreOptions): DynamicModule {
    return {
      module: CliModule,
      imports: [
        CoreModule.register(options),
        UsersModule,
        InvitesModule,
        SeedsModule,
        SecretsRotationModule,
        ImportsModule,
        NotificationsModule,
        ScoringModule,
        UgptModule.register({ schedule: false }),
        AdminModule.register(null),
      ],
    };
  }
}

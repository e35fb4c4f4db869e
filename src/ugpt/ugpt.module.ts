import { Module, type DynamicModule } from '@nestjs/common';
import { RepositoriesModule } from '../repositories/repositories.module.js';
import { ScoringModule } from '../scoring/scoring.module.js';
import { ShowcaseController } from './showcase.controller.js';
import { ShowcaseService } from './showcase.service.js';
import { SnapshotScheduler } from './snapshot.scheduler.js';
import { SnapshotsService } from './snapshots.service.js';
import { UgptExportService } from './ugpt-export.service.js';
import { UgptFoldersController } from './ugpt-folders.controller.js';
import { UgptFoldersService } from './ugpt-folders.service.js';
import { UgptProfileController } from './ugpt-profile.controller.js';
import { UgptProfileService } from './ugpt-profile.service.js';
import { UgptRemovalService } from './ugpt-removal.service.js';
import { UgptSessionsController } from './ugpt-sessions.controller.js';
import { UgptSessionsService } from './ugpt-sessions.service.js';
import { UgptSettingsController } from './ugpt-settings.controller.js';
import { UgptSettingsService } from './ugpt-settings.service.js';
import { UgptStandingController } from './ugpt-standing.controller.js';
import { UgptStandingService } from './ugpt-standing.service.js';

/**
 * Every `/users/:userID/games/:game/:playtype` route: the profile, PBs, scores, sessions,
 * leaderboard neighbours, history, settings and showcase; and the daily snapshots. The snapshot schedule (with its catch-up after boot and hourly check) runs only when `schedule` is set; its cron jobs need ScheduleModule, which CoreModule imports.
 */
@Module({})
export class UgptModule {
  static register(options: { schedule: boolean }): DynamicModule {
    return {
      module: UgptModule,
      imports: [RepositoriesModule, ScoringModule],
      controllers: [UgptProfileController, UgptFoldersController, UgptSessionsController, UgptStandingController, UgptSettingsController, ShowcaseController],
      providers: [
        UgptProfileService,
        UgptExportService,
        UgptFoldersService,
        UgptRemovalService,
        UgptSessionsService,
        UgptStandingService,
        UgptSettingsService,
        ShowcaseService,
        SnapshotsService,
        ...(options.schedule ? [SnapshotScheduler] : []),
      ],
      exports: [SnapshotsService],
    };
  }
}

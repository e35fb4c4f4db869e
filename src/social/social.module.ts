import { Module } from '@nestjs/common';
import { NotificationsModule } from '../notifications/notifications.module.js';
import { RepositoriesModule } from '../repositories/repositories.module.js';
import { ActivityController } from './activity.controller.js';
import { FollowingController } from './following.controller.js';
import { RivalChartPbsController, RivalsController } from './rivals.controller.js';
import { SocialService } from './social.service.js';

/** Rivals, following and the activity feeds, served in both profiles. */
@Module({
  imports: [RepositoriesModule, NotificationsModule],
  controllers: [RivalsController, RivalChartPbsController, FollowingController, ActivityController],
  providers: [SocialService],
  exports: [SocialService],
})
export class SocialModule {}

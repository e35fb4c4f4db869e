import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { InvitesModule } from '../auth/invites.module.js';
import { RepositoriesModule } from '../repositories/repositories.module.js';
import { AccountSettingsService } from './account-settings.service.js';
import { CredentialsController } from './credentials.controller.js';
import { InvitesController } from './invites.controller.js';
import { SettingsController } from './settings.controller.js';

/** A user's account settings: site-wide preferences, password, username and email changes, and the invites they create. */
@Module({
  imports: [RepositoriesModule, AuthModule, InvitesModule],
  controllers: [SettingsController, CredentialsController, InvitesController],
  providers: [AccountSettingsService],
})
export class AccountSettingsModule {}

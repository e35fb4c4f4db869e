import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { OwnerOrAdmin, RequirePermissions, RequireUser, TargetUser } from '../http/auth/access.decorators.js';
import type { UserRow } from '../http/auth/auth-context.js';
import { UserSettingsDocument } from '../presenters/account.presenter.js';
import { AccountSettingsService } from './account-settings.service.js';
import { PatchUserSettingsDto } from './dto/account-settings.dto.js';

/** A user's site-wide settings (`/users/:userID/settings`): the user's own, or any user's for an administrator. */
@ApiTags('users')
@Controller('users/:userID/settings')
export class SettingsController {
  constructor(private readonly account: AccountSettingsService) {}

  @Get()
  @RequireUser()
  @OwnerOrAdmin()
  @ApiOperation({ summary: "The user's site-wide preferences (every one false until set)." })
  @ApiOkResponse({ type: UserSettingsDocument })
  get(@TargetUser() user: UserRow): Promise<UserSettingsDocument> {
    return this.account.getSettings(user);
  }

  @Patch()
  @RequirePermissions('customise_profile')
  @OwnerOrAdmin()
  @ApiOperation({ summary: 'Sets the given preferences; absent ones keep their values. An API token needs customise_profile.' })
  @ApiOkResponse({ type: UserSettingsDocument })
  patch(@TargetUser() user: UserRow, @Body() dto: PatchUserSettingsDto): Promise<UserSettingsDocument> {
    return this.account.patchSettings(user, dto);
  }
}

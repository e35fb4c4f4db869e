import { Body, Controller, Get, Patch, UseGuards } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { OwnerOnly, RequirePermissions } from '../http/auth/access.decorators.js';
import { PatchUgptSettingsDto } from './dto/ugpt.dto.js';
import { UgptSettingsDocument } from './dto/ugpt.responses.js';
import { Ugpt, UgptGuard, type UgptContext } from './ugpt.guard.js';
import { UgptSettingsService } from './ugpt-settings.service.js';

/** A user's preferences on a GPT (spec 4.8, UGPTSettingsDocument). */
@ApiTags('ugpt')
@ApiNotFoundResponse({ description: 'Unknown user, game or playtype, or the user has not played the GPT.' })
@Controller('users/:userID/games/:game/:playtype/settings')
@UseGuards(UgptGuard)
export class UgptSettingsController {
  constructor(private readonly settings: UgptSettingsService) {}

  @Get()
  @ApiOperation({ summary: 'UGPTSettingsDocument (defaults: null preferences, no stats). Public.' })
  @ApiOkResponse({ type: UgptSettingsDocument })
  get(@Ugpt() ugpt: UgptContext): Promise<UgptSettingsDocument> {
    return this.settings.get(ugpt.user.id, ugpt.gpt);
  }

  @Patch()
  @RequirePermissions('customise_profile')
  @OwnerOnly()
  @ApiOperation({
    summary:
      'Set preferred score, session and profile algorithms (each a GPT algorithm of its kind, or null). Absent ones stay; an empty body changes nothing. Returns UGPTSettingsDocument.',
  })
  @ApiOkResponse({ type: UgptSettingsDocument })
  patch(@Ugpt() ugpt: UgptContext, @Body() dto: PatchUgptSettingsDto): Promise<UgptSettingsDocument> {
    return this.settings.patch(ugpt.user.id, ugpt.gpt, dto);
  }
}

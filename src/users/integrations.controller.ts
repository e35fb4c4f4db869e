import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { OwnerOnly, SessionOnly, TargetUser } from '../http/auth/access.decorators.js';
import type { UserRow } from '../http/auth/auth-context.js';
import { FervidexSettingsDocument, PatchFervidexSettingsDto } from './dto/integrations.dto.js';
import { IntegrationsService } from './integrations.service.js';

/** A user's settings of the score hooks (Tachi's `/users/:userID/integrations/…`): session only, the user's own. */
@ApiTags('users')
@Controller('users/:userID/integrations')
export class IntegrationsController {
  constructor(private readonly integrations: IntegrationsService) {}

  @Get('fervidex/settings')
  @SessionOnly()
  @OwnerOnly()
  @ApiOperation({ summary: "The user's Fervidex settings: the card filter and forceStaticImport." })
  @ApiOkResponse({ type: FervidexSettingsDocument })
  fervidex(@TargetUser() user: UserRow): Promise<FervidexSettingsDocument> {
    return this.integrations.fervidex(user.id);
  }

  @Patch('fervidex/settings')
  @SessionOnly()
  @OwnerOnly()
  @ApiOperation({ summary: 'Sets the given Fervidex settings; absent ones are unchanged. An empty card list is stored as null (every card).' })
  @ApiOkResponse({ type: FervidexSettingsDocument })
  patchFervidex(@TargetUser() user: UserRow, @Body() dto: PatchFervidexSettingsDto): Promise<FervidexSettingsDocument> {
    return this.integrations.patchFervidex(user.id, dto);
  }
}

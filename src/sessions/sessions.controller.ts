import { Body, Controller, Get, Param, Patch } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, RequirePermissions } from '../http/auth/access.decorators.js';
import type { UserRow } from '../http/auth/auth-context.js';
import { SessionDocument, SessionFolderRaiseDocument } from '../presenters/session.presenter.js';
import { SessionWithRelatedResponse } from './dto/session.responses.js';
import { PatchSessionDto } from './dto/sessions.dto.js';
import { SessionsService } from './sessions.service.js';

@ApiTags('sessions')
@Controller('sessions/:sessionID')
export class SessionsController {
  constructor(private readonly sessionsService: SessionsService) {}

  @Get()
  @ApiOperation({ summary: '{session, scores, songs, charts, user}.' })
  @ApiOkResponse({ type: SessionWithRelatedResponse })
  get(@Param('sessionID') sessionID: string): Promise<SessionWithRelatedResponse> {
    return this.sessionsService.withRelated(sessionID);
  }

  @Get('folder-raises')
  @ApiOperation({
    summary:
      'SessionFolderRaiseDocument[]: per active folder holding charts the session played, each lamp (from the clear lamp up) and grade (from the clear grade up) some chart reached for the first time, with those charts and the count before.',
  })
  @ApiOkResponse({ type: SessionFolderRaiseDocument, isArray: true })
  folderRaises(@Param('sessionID') sessionID: string): Promise<SessionFolderRaiseDocument[]> {
    return this.sessionsService.folderRaises(sessionID);
  }

  @Patch()
  @RequirePermissions('customise_session')
  @ApiOperation({ summary: 'Set the name, desc and/or highlight of your own session. Returns the SessionDocument.' })
  @ApiOkResponse({ type: SessionDocument })
  patch(@CurrentUser() user: UserRow, @Param('sessionID') sessionID: string, @Body() dto: PatchSessionDto): Promise<SessionDocument> {
    return this.sessionsService.patch(user, sessionID, dto);
  }
}

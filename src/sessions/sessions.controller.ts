import { Body, Controller, Get, Param, Patch } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, RequirePermissions } from '../http/auth/access.decorators.js';
import type { UserRow } from '../http/auth/auth-context.js';
import { PatchSessionDto } from './dto/sessions.dto.js';
import { SessionsService } from './sessions.service.js';

@ApiTags('sessions')
@Controller('sessions/:sessionID')
export class SessionsController {
  constructor(private readonly sessionsService: SessionsService) {}

  @Get()
  @ApiOperation({ summary: '{session, scores, songs, charts, user}.' })
  get(@Param('sessionID') sessionID: string) {
    return this.sessionsService.withRelated(sessionID);
  }

  @Patch()
  @RequirePermissions('customise_session')
  @ApiOperation({ summary: 'Set the name, desc and/or highlight of your own session. Returns the SessionDocument.' })
  patch(@CurrentUser() user: UserRow, @Param('sessionID') sessionID: string, @Body() dto: PatchSessionDto) {
    return this.sessionsService.patch(user, sessionID, dto);
  }
}

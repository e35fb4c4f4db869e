import { Controller, Get } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { TargetUser } from '../http/auth/access.decorators.js';
import type { UserRow } from '../http/auth/auth-context.js';
import { SessionCalendarDocument } from '../presenters/session.presenter.js';
import { SessionsService } from './sessions.service.js';

/** A user's sessions across every game (the dashboard's calendar). Public. */
@ApiTags('sessions')
@ApiNotFoundResponse({ description: 'Unknown user.' })
@Controller('users/:userID/sessions')
export class UserSessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @Get('calendar')
  @ApiOperation({ summary: 'SessionCalendarDocument[]: every session of the user on every game, earliest first.' })
  @ApiOkResponse({ type: SessionCalendarDocument, isArray: true })
  calendar(@TargetUser() user: UserRow): Promise<SessionCalendarDocument[]> {
    return this.sessions.calendar(user);
  }
}

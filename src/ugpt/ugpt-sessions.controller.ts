import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { LastSessionDocument, SessionCalendarDocument, SessionDocument } from '../presenters/session.presenter.js';
import { SessionAlgQuery, SessionSearchQuery } from './dto/ugpt.dto.js';
import { Ugpt, UgptGuard, type UgptContext } from './ugpt.guard.js';
import { UgptSessionsService } from './ugpt-sessions.service.js';

/** A user's sessions on a GPT (spec 4.8). Public; 404 when the user has not played the GPT. */
@ApiTags('ugpt')
@ApiNotFoundResponse({ description: 'Unknown user, game or playtype, or the user has not played the GPT.' })
@Controller('users/:userID/games/:game/:playtype/sessions')
@UseGuards(UgptGuard)
export class UgptSessionsController {
  constructor(private readonly sessions: UgptSessionsService) {}

  @Get()
  @ApiOperation({ summary: 'SessionDocument[]: up to 100 sessions whose name matches the search, closest first.' })
  @ApiOkResponse({ type: SessionDocument, isArray: true })
  search(@Ugpt() ugpt: UgptContext, @Query() query: SessionSearchQuery): Promise<SessionDocument[]> {
    return this.sessions.search(ugpt, query.search);
  }

  @Get('best')
  @ApiOperation({ summary: 'SessionDocument[]: the 100 best sessions under a session rating algorithm (sessions without a value left out).' })
  @ApiOkResponse({ type: SessionDocument, isArray: true })
  best(@Ugpt() ugpt: UgptContext, @Query() query: SessionAlgQuery): Promise<SessionDocument[]> {
    return this.sessions.best(ugpt, query.alg);
  }

  @Get('recent')
  @ApiOperation({ summary: 'SessionDocument[]: the 100 latest sessions by timeEnded.' })
  @ApiOkResponse({ type: SessionDocument, isArray: true })
  recent(@Ugpt() ugpt: UgptContext): Promise<SessionDocument[]> {
    return this.sessions.recent(ugpt);
  }

  @Get('last')
  @ApiOperation({ summary: 'The latest session by timeEnded (spec: the SessionDocument; tachi: {session, scoreInfo}); 404 when the user has none.' })
  @ApiOkResponse({ type: LastSessionDocument })
  last(@Ugpt() ugpt: UgptContext): Promise<LastSessionDocument> {
    return this.sessions.last(ugpt);
  }

  @Get('highlighted')
  @ApiOperation({ summary: 'SessionDocument[]: the 100 latest highlighted sessions by timeEnded.' })
  @ApiOkResponse({ type: SessionDocument, isArray: true })
  highlighted(@Ugpt() ugpt: UgptContext): Promise<SessionDocument[]> {
    return this.sessions.recent(ugpt, true);
  }

  @Get('calendar')
  @ApiOperation({ summary: "SessionCalendarDocument[]: every session of the user on the GPT, earliest first (the sessions calendar's data)." })
  @ApiOkResponse({ type: SessionCalendarDocument, isArray: true })
  calendar(@Ugpt() ugpt: UgptContext): Promise<SessionCalendarDocument[]> {
    return this.sessions.calendar(ugpt);
  }
}

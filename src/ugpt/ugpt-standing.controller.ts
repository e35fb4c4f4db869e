import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CachedRead } from '../http/read-cache/cached-read.decorator.js';
import { standingScopes } from '../http/read-cache/read-scopes.js';
import { GameStatsSnapshotDocument } from '../presenters/game-stats.presenter.js';
import { ProfileAlgQuery } from './dto/ugpt.dto.js';
import { LeaderboardAdjacentResponse } from './dto/ugpt.responses.js';
import { Ugpt, UgptGuard, type UgptContext } from './ugpt.guard.js';
import { UgptStandingService } from './ugpt-standing.service.js';

/** Where a user stands on a GPT: leaderboard neighbours and daily history (spec 4.8). Public. */
@ApiTags('ugpt')
@ApiNotFoundResponse({ description: 'Unknown user, game or playtype, or the user has not played the GPT.' })
@Controller('users/:userID/games/:game/:playtype')
@UseGuards(UgptGuard)
export class UgptStandingController {
  constructor(private readonly standing: UgptStandingService) {}

  @Get('leaderboard-adjacent')
  @CachedRead(standingScopes)
  @ApiOperation({
    summary:
      '{above, below, users, thisUsersStats, thisUsersRanking}: up to 5 players strictly better and 5 rated the same or worse (ties go below), best first. A player without a rating ranks after every rated one.',
  })
  @ApiOkResponse({ type: LeaderboardAdjacentResponse })
  leaderboardAdjacent(@Ugpt() ugpt: UgptContext, @Query() query: ProfileAlgQuery): Promise<LeaderboardAdjacentResponse> {
    return this.standing.leaderboardAdjacent(ugpt, query.alg);
  }

  @Get('history')
  @ApiOperation({ summary: 'UserGameStatsSnapshot[]: up to 90 daily snapshots, newest first.' })
  @ApiOkResponse({ type: GameStatsSnapshotDocument, isArray: true })
  history(@Ugpt() ugpt: UgptContext): Promise<GameStatsSnapshotDocument[]> {
    return this.standing.history(ugpt);
  }
}

import { Controller, Get, Param, Query, UseGuards } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Ugpt, UgptGuard, type UgptContext } from './ugpt.guard.js';
import { BestPbsQuery, PbQuery, SongSearchQuery } from './dto/profile.dto.js';
import { UgptProfileService } from './ugpt-profile.service.js';

/** A user's profile, PBs and scores on one GPT (spec 4.8). Public; 404 when the user has not played the GPT. */
@ApiTags('ugpt')
@ApiNotFoundResponse({ description: 'Unknown user, game or playtype, or the user has not played this GPT.' })
@UseGuards(UgptGuard)
@Controller('users/:userID/games/:game/:playtype')
export class UgptProfileController {
  constructor(private readonly profile: UgptProfileService) {}

  @Get()
  @ApiOperation({ summary: '{gameStats, firstScore, mostRecentScore, totalScores, rankingData}.' })
  summary(@Ugpt() ugpt: UgptContext) {
    return this.profile.summary(ugpt);
  }

  @Get('pbs')
  @ApiOperation({ summary: '{songs, charts, pbs}: up to 30 PBs on songs matching the search, best matches first.' })
  searchPbs(@Ugpt() ugpt: UgptContext, @Query() query: SongSearchQuery) {
    return this.profile.searchPbs(ugpt, query.search);
  }

  @Get('pbs/best')
  @ApiOperation({ summary: '{songs, charts, pbs}: the 100 best PBs on primary charts under a score rating algorithm.' })
  bestPbs(@Ugpt() ugpt: UgptContext, @Query() query: BestPbsQuery) {
    return this.profile.bestPbs(ugpt, query.alg);
  }

  @Get('pbs/all')
  @ApiOperation({ summary: '{pbs, songs, charts}: every PB, most recent first.' })
  allPbs(@Ugpt() ugpt: UgptContext) {
    return this.profile.allPbs(ugpt);
  }

  // Declared after pbs/best and pbs/all, which it would otherwise capture.
  @Get('pbs/:chartID')
  @ApiOperation({ summary: '{pb, chart}, plus scores (those composing the PB) with getComposition.' })
  pb(@Ugpt() ugpt: UgptContext, @Param('chartID') chartID: string, @Query() query: PbQuery) {
    return this.profile.pb(ugpt, chartID, query.getComposition !== undefined);
  }

  @Get('scores')
  @ApiOperation({ summary: '{songs (with __textScore), charts, scores}: up to 30 scores on songs matching the search.' })
  searchScores(@Ugpt() ugpt: UgptContext, @Query() query: SongSearchQuery) {
    return this.profile.searchScores(ugpt, query.search);
  }

  @Get('scores/recent')
  @ApiOperation({ summary: '{songs, charts, scores}: the 100 latest scores by timeAchieved.' })
  recentScores(@Ugpt() ugpt: UgptContext) {
    return this.profile.recentScores(ugpt);
  }

  @Get('most-played')
  @ApiOperation({ summary: '{songs, charts, pbs with __playcount}: the 100 most played charts.' })
  mostPlayed(@Ugpt() ugpt: UgptContext) {
    return this.profile.mostPlayed(ugpt);
  }
}

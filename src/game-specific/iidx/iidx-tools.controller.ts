import { Controller, Get, Param } from '@nestjs/common';
import { ApiExtraModels, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { TargetUser } from '../../http/auth/access.decorators.js';
import type { UserRow } from '../../http/auth/auth-context.js';
import { resolveGpt } from '../../http/gpt.decorator.js';
import { RawResponse } from '../../http/response-shapes.js';
import { EamusementCsvDocument, IidxPlaylistDocument, PlaylistSetDocument } from '../dto/game-specific.responses.js';
import type { IidxPlaylist } from './playlists.js';
import { IidxToolsService } from './iidx-tools.service.js';

/** IIDX's own routes (Tachi's web client's IIDX tools): the e-amusement CSV export and the playlists. */
@ApiTags('game-specific')
@ApiNotFoundResponse({ description: 'Unknown user, or a playtype IIDX does not have (SP and DP).' })
@Controller()
export class IidxToolsController {
  constructor(private readonly tools: IidxToolsService) {}

  @Get('users/:userID/games/iidx/:iidxPlaytype/eamusement-csv')
  @ApiOperation({
    summary:
      "The user's PBs on primary charts as e-amusement's IIDX CSV (the 41-cell layout the file/eamusement-iidx-csv import reads, one row per song played): {csv}. Public.",
  })
  @ApiExtraModels(EamusementCsvDocument)
  @ApiOkResponse({
    description: 'spec: {csv}; API_PROFILE=tachi: the CSV text itself (a JSON string), as Tachi answers.',
    schema: { oneOf: [{ $ref: getSchemaPath(EamusementCsvDocument) }, { type: 'string' }] },
  })
  eamusementCsv(@TargetUser() user: UserRow, @Param('iidxPlaytype') playtype: string): Promise<EamusementCsvDocument> {
    return this.tools.eamusementCsv(user.id, resolveGpt('iidx', playtype));
  }

  @Get('games/iidx/:iidxPlaytype/playlists')
  @ApiOperation({ summary: 'The playlist sets this server builds from chart data (AAA BPIs). Public.' })
  @ApiOkResponse({ type: [PlaylistSetDocument] })
  playlistSets(@Param('iidxPlaytype') playtype: string): PlaylistSetDocument[] {
    resolveGpt('iidx', playtype);
    return this.tools.playlistSets();
  }

  @Get('games/iidx/:iidxPlaytype/playlists/:playlistID')
  @RawResponse()
  @ApiOperation({
    summary:
      "One set's playlists, built from the charts' data now: [{name, play_style, charts: [{entry_id, difficulty, bar_style?}]}], without the tachi envelope (as Tachi answers, for playlist tools). 404 for an unknown set. Public.",
  })
  @ApiOkResponse({ type: [IidxPlaylistDocument] })
  playlists(@Param('iidxPlaytype') playtype: string, @Param('playlistID') playlistID: string): Promise<IidxPlaylist[]> {
    return this.tools.playlists(resolveGpt('iidx', playtype), playlistID);
  }

  @Get('users/:userID/games/iidx/:iidxPlaytype/playlists/:playlistID')
  @RawResponse()
  @ApiOperation({
    summary:
      "One per-player set's playlists (aaa-bpi-to-go: the AAA BPI playlists without the charts the player has an AAA on), built now, without the tachi envelope. 404 for an unknown set or a site-wide one. Public.",
  })
  @ApiOkResponse({ type: [IidxPlaylistDocument] })
  userPlaylists(@TargetUser() user: UserRow, @Param('iidxPlaytype') playtype: string, @Param('playlistID') playlistID: string): Promise<IidxPlaylist[]> {
    return this.tools.userPlaylists(user.id, resolveGpt('iidx', playtype), playlistID);
  }
}

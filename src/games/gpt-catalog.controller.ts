import { Controller, Get, Param, Query, UnauthorizedException } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { Auth } from '../http/auth/access.decorators.js';
import type { AuthContext } from '../http/auth/auth-context.js';
import { Gpt } from '../http/gpt.decorator.js';
import { ParseIdPipe } from '../http/parse-id.pipe.js';
import { CachedRead } from '../http/read-cache/cached-read.decorator.js';
import { chartListScopes } from '../http/read-cache/read-scopes.js';
import type { GptSupport } from '../game-support/types.js';
import { FolderDocument } from '../presenters/catalog.presenter.js';
import { CatalogService } from './catalog.service.js';
import { ChartResolveQuery, ChartSearchQuery, FolderListQuery, FolderSearchQuery, TableListQuery } from './dto/catalog.dto.js';
import {
  ChartListResponse,
  FolderWithChartsResponse,
  PlaycountResponse,
  SongAndChartResponse,
  SongWithChartsResponse,
  TableListResponse,
  TableWithFoldersResponse,
} from './dto/catalog.responses.js';

/** Songs, charts, folders and tables of one GPT (spec 4.5). All public. */
@ApiTags('catalog')
@Controller('games/:game/:playtype')
export class GptCatalogController {
  constructor(private readonly catalog: CatalogService) {}

  @Get('songs/:songID')
  @ApiOkResponse({ type: SongWithChartsResponse })
  song(@Gpt() gpt: GptSupport, @Param('songID', new ParseIdPipe('songID', 0)) songID: number): Promise<SongWithChartsResponse> {
    return this.catalog.song(gpt, songID);
  }

  @Get('charts')
  @CachedRead(chartListScopes)
  @ApiOkResponse({ type: ChartListResponse })
  @ApiUnauthorizedResponse({ description: 'requesterHasPlayed without being logged in.' })
  charts(@Gpt() gpt: GptSupport, @Query() query: ChartSearchQuery, @Auth() auth: AuthContext): Promise<ChartListResponse> {
    if (query.requesterHasPlayed === undefined) return this.catalog.charts(gpt, query.search);
    if (!auth.user) throw new UnauthorizedException('requesterHasPlayed needs a logged-in requester.');
    return this.catalog.charts(gpt, query.search, auth.user.id);
  }

  // Declared before charts/:chartID, which would otherwise capture it.
  @Get('charts/resolve')
  @ApiOperation({
    summary: '{song, chart}: the chart a batch-manual score with this identifier, matchType and difficulty would be imported on (primary charts).',
  })
  @ApiOkResponse({ type: SongAndChartResponse })
  resolveChart(@Gpt() gpt: GptSupport, @Query() query: ChartResolveQuery): Promise<SongAndChartResponse> {
    return this.catalog.resolveChart(gpt, query);
  }

  @Get('charts/:chartID')
  @ApiOkResponse({ type: SongAndChartResponse })
  chart(@Gpt() gpt: GptSupport, @Param('chartID') chartID: string): Promise<SongAndChartResponse> {
    return this.catalog.chart(gpt, chartID);
  }

  @Get('charts/:chartID/playcount')
  @ApiOkResponse({ type: PlaycountResponse })
  playcount(@Gpt() gpt: GptSupport, @Param('chartID') chartID: string): Promise<PlaycountResponse> {
    return this.catalog.playcount(gpt, chartID);
  }

  @Get('charts/:chartID/folders')
  @ApiOperation({ summary: 'FolderDocument[]: the folders containing the chart, by title (active ones unless `inactive`).' })
  @ApiOkResponse({ type: FolderDocument, isArray: true })
  chartFolders(@Gpt() gpt: GptSupport, @Param('chartID') chartID: string, @Query() query: FolderListQuery): Promise<FolderDocument[]> {
    return this.catalog.chartFolders(gpt, chartID, query.inactive !== undefined);
  }

  @Get('folders')
  @ApiOkResponse({ type: FolderDocument, isArray: true })
  folders(@Gpt() gpt: GptSupport, @Query() query: FolderSearchQuery): Promise<FolderDocument[]> {
    return this.catalog.searchFolders(gpt, query.search, query.inactive !== undefined);
  }

  @Get('folders/:folderID')
  @ApiOkResponse({ type: FolderWithChartsResponse })
  folder(@Gpt() gpt: GptSupport, @Param('folderID') folderID: string): Promise<FolderWithChartsResponse> {
    return this.catalog.folder(gpt, folderID);
  }

  @Get('tables')
  @ApiOkResponse({ type: TableListResponse })
  tables(@Gpt() gpt: GptSupport, @Query() query: TableListQuery): Promise<TableListResponse> {
    return this.catalog.tables(gpt, query.showInactive !== undefined);
  }

  @Get('tables/:tableID')
  @ApiOkResponse({ type: TableWithFoldersResponse })
  table(@Gpt() gpt: GptSupport, @Param('tableID') tableID: string): Promise<TableWithFoldersResponse> {
    return this.catalog.table(gpt, tableID);
  }
}

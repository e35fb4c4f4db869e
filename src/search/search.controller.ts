import { Controller, Get, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../http/auth/access.decorators.js';
import type { AuthContext } from '../http/auth/auth-context.js';
import { ChartHashSearchDocument, SiteSearchDocument, TachiSearchHit } from '../presenters/search.presenter.js';
import { ChartHashQuery, SiteSearchQuery } from './dto/search.dto.js';
import { SearchService } from './search.service.js';

/** Site-wide search, as Tachi's web client's search box calls it. Public. */
@ApiTags('search')
@ApiExtraModels(TachiSearchHit)
@Controller('search')
export class SearchController {
  constructor(private readonly searchService: SearchService) {}

  @Get()
  @ApiOperation({
    summary:
      'Users (25, with __isRival), songs and their charts (10 songs per game, with __playcount) and folders (100) matching the text. spec: {users, songs, charts, folders}; tachi: {users, charts: {game:playtype: [{song, chart, playcount}]}, folders}.',
  })
  @ApiOkResponse({ type: SiteSearchDocument })
  search(@Auth() auth: AuthContext, @Query() query: SiteSearchQuery): Promise<SiteSearchDocument> {
    return this.searchService.search(auth.user?.id ?? null, query.search, query.hasPlayedGame !== undefined);
  }

  @Get('chart-hash')
  @ApiOperation({
    summary:
      'The charts (with their songs) holding this hash: BMS/PMS MD5 or SHA256, USC SHA1. spec: {songs, charts}; tachi: {charts: {game:playtype: [{song, chart, playcount: null}]}}.',
  })
  @ApiOkResponse({ type: ChartHashSearchDocument })
  chartHash(@Query() query: ChartHashQuery): Promise<ChartHashSearchDocument> {
    return this.searchService.chartHash(query.search);
  }
}

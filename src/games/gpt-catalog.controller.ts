import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Gpt } from '../http/gpt.decorator.js';
import { ParseIdPipe } from '../http/parse-id.pipe.js';
import type { GptSupport } from '../game-support/types.js';
import { CatalogService } from './catalog.service.js';
import { ChartSearchQuery, FolderSearchQuery, TableListQuery } from './dto/catalog.dto.js';

/** Songs, charts, folders and tables of one GPT (spec 4.5). All public. */
@ApiTags('catalog')
@Controller('games/:game/:playtype')
export class GptCatalogController {
  constructor(private readonly catalog: CatalogService) {}

  @Get('songs/:songID')
  song(@Gpt() gpt: GptSupport, @Param('songID', new ParseIdPipe('songID', 0)) songID: number) {
    return this.catalog.song(gpt, songID);
  }

  @Get('charts')
  charts(@Gpt() gpt: GptSupport, @Query() query: ChartSearchQuery) {
    return this.catalog.charts(gpt, query.search);
  }

  @Get('charts/:chartID')
  chart(@Gpt() gpt: GptSupport, @Param('chartID') chartID: string) {
    return this.catalog.chart(gpt, chartID);
  }

  @Get('charts/:chartID/playcount')
  playcount(@Gpt() gpt: GptSupport, @Param('chartID') chartID: string) {
    return this.catalog.playcount(gpt, chartID);
  }

  @Get('folders')
  folders(@Gpt() gpt: GptSupport, @Query() query: FolderSearchQuery) {
    return this.catalog.searchFolders(gpt, query.search, query.inactive !== undefined);
  }

  @Get('folders/:folderID')
  folder(@Gpt() gpt: GptSupport, @Param('folderID') folderID: string) {
    return this.catalog.folder(gpt, folderID);
  }

  @Get('tables')
  tables(@Gpt() gpt: GptSupport, @Query() query: TableListQuery) {
    return this.catalog.tables(gpt, query.showInactive !== undefined);
  }

  @Get('tables/:tableID')
  table(@Gpt() gpt: GptSupport, @Param('tableID') tableID: string) {
    return this.catalog.table(gpt, tableID);
  }
}

import { Controller, Get, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { resolveGpt } from '../../http/gpt.decorator.js';
import { RawResponse } from '../../http/response-shapes.js';
import { CustomBmsTableDocument, SongsAndChartsResponse } from '../dto/game-specific.responses.js';
import type { BmsTableEntry, BmsTableHeader } from './custom-tables.js';
import { BmsToolsService } from './bms-tools.service.js';

/** BMS's own routes (Tachi's web client's BMS tools): the custom tables and the Sieglinde charts. Public. */
@ApiTags('game-specific')
@ApiNotFoundResponse({ description: 'A playtype BMS does not have (7K and 14K), or an unknown custom table.' })
@Controller('games/bms/:bmsPlaytype')
export class BmsToolsController {
  constructor(private readonly tools: BmsToolsService) {}

  @Get('custom-tables')
  @ApiOperation({
    summary:
      'The BMS tables this server emits for the playtype (Sieglinde EC and HC on 7K), each when its seeds’ table (bms-7K-sgl-EC, bms-7K-sgl-HC) is loaded.',
  })
  @ApiOkResponse({ type: [CustomBmsTableDocument] })
  customTables(@Param('bmsPlaytype') playtype: string): Promise<CustomBmsTableDocument[]> {
    return this.tools.customTables(resolveGpt('bms', playtype));
  }

  @Get('custom-tables/:urlName')
  @RawResponse()
  @ApiProduces('text/html')
  @ApiOperation({ summary: "The table's page for BMS clients: its bmstable meta tag names header.json." })
  @ApiOkResponse({ schema: { type: 'string' } })
  async page(@Param('bmsPlaytype') playtype: string, @Param('urlName') urlName: string, @Res({ passthrough: true }) res: Response): Promise<string> {
    const page = await this.tools.page(resolveGpt('bms', playtype), urlName);
    // HTML only once the page exists: an error answers JSON as everywhere.
    res.type('text/html; charset=utf-8');
    return page;
  }

  @Get('custom-tables/:urlName/header.json')
  @RawResponse()
  @ApiOperation({ summary: "The table's header.json {name, symbol, data_url, level_order} (never enveloped: BMS clients read it)." })
  @ApiOkResponse({ schema: { type: 'object', additionalProperties: true } })
  header(@Param('bmsPlaytype') playtype: string, @Param('urlName') urlName: string): Promise<BmsTableHeader> {
    return this.tools.header(resolveGpt('bms', playtype), urlName);
  }

  @Get('custom-tables/:urlName/body.json')
  @RawResponse()
  @ApiOperation({ summary: "The table's body.json: [{level, md5, title, artist}] in the table's level order (never enveloped)." })
  @ApiOkResponse({ schema: { type: 'array', items: { type: 'object', additionalProperties: true } } })
  body(@Param('bmsPlaytype') playtype: string, @Param('urlName') urlName: string): Promise<BmsTableEntry[]> {
    return this.tools.body(resolveGpt('bms', playtype), urlName);
  }

  @Get('sieglinde-charts')
  @ApiOperation({ summary: '{songs, charts}: every chart of the playtype with a Sieglinde estimate (data.sglEC or data.sglHC above 0).' })
  @ApiOkResponse({ type: SongsAndChartsResponse })
  sieglindeCharts(@Param('bmsPlaytype') playtype: string): Promise<SongsAndChartsResponse> {
    return this.tools.sieglindeCharts(resolveGpt('bms', playtype));
  }
}

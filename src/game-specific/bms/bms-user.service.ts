import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import type { GptSupport } from '../../game-support/types.js';
import { toChartDocument, toSongDocument } from '../../presenters/catalog.presenter.js';
import { toPbDocument } from '../../presenters/pb.presenter.js';
import { CatalogRepository } from '../../repositories/catalog.repository.js';
import { ChartRecordsRepository } from '../../repositories/chart-records.repository.js';
import type { BmsBestScoreResponse } from '../dto/game-specific.responses.js';

/** A BMS chart's checksum: its MD5 (32 hex digits) or SHA-256 (64), as BMS clients name charts. */
const CHECKSUM = /^(?:[0-9a-f]{32}|[0-9a-f]{64})$/i;

/** BMS's per-player routes: a player's best score on a chart named by its checksum. */
@Injectable()
export class BmsUserService {
  constructor(
    private readonly records: ChartRecordsRepository,
    private readonly catalog: CatalogRepository,
  ) {}

  /** The player's PB on the playtype's chart with this MD5 or SHA-256, with the chart and its song; 404 when no such chart or no PB on it. */
  async bestScore(userID: number, gpt: GptSupport, checksum: string): Promise<BmsBestScoreResponse> {
    if (!CHECKSUM.test(checksum))
      throw new BadRequestException(`'${checksum}' is not a chart checksum: send the chart's MD5 (32 hex digits) or SHA-256 (64 hex digits).`);
    const chart = await this.records.chartByHash(gpt.game, gpt.playtype, checksum);
    if (!chart) throw new NotFoundException(`No ${gpt.playtype} BMS chart has the checksum '${checksum}'.`);
    const pb = await this.records.pbOf(userID, chart.chartID);
    if (!pb) throw new NotFoundException(`This user has not played the chart with the checksum '${checksum}'.`);
    const found = await this.catalog.chartWithSong(chart.chartID);
    if (!found) throw new NotFoundException(`No ${gpt.playtype} BMS chart has the checksum '${checksum}'.`);
    return { pb: toPbDocument(pb), chart: toChartDocument(found.chart), song: toSongDocument(found.song) };
  }
}

import { BadRequestException, Injectable, NotFoundException, UnauthorizedException } from '@nestjs/common';
import { toChartDocument, toFolderDocument, toSongDocument } from '../presenters/catalog.presenter.js';
import type { UserRow } from '../http/auth/auth-context.js';
import type { ChartRow, FolderRow, SongRow, StatDocument } from '../database/schema.js';
import type { GptSupport } from '../game-support/types.js';
import { CatalogRepository } from '../repositories/catalog.repository.js';
import { ShowcaseRepository } from '../repositories/showcase.repository.js';
import { UsersRepository } from '../repositories/users.repository.js';
import type { CustomStatQuery } from './dto/ugpt.dto.js';
import type { ChartStatRelated, CustomStatResponse, FolderStatRelated, StatShowcaseResult } from './dto/ugpt.responses.js';
import { gteProblem, parseStat } from './showcase-stats.js';
import type { UgptContext } from './ugpt.guard.js';
import { UgptSettingsService } from './ugpt-settings.service.js';
import { toStatDocument, type UgptSettingsDocument } from '../presenters/ugpt-settings.presenter.js';

/** A stat's result: a chart stat's value (null when unplayed), or a folder stat's count of charts reaching gte out of the folder's charts. */
export interface StatResult {
  value: number | null;
  outOf?: number;
}

type ChartStat = Extract<StatDocument, { mode: 'chart' }>;
type FolderStat = Extract<StatDocument, { mode: 'folder' }>;

interface StatCatalog {
  charts: Map<string, { chart: ChartRow; song: SongRow }>;
  folders: Map<string, FolderRow>;
}

/**
 * The stat showcase (spec StatDocument, StatShowcaseResults). Chart stats read the user's PB
 * (grade and lamp as indexes into the GPT's lists, as Tachi does) or, for playcount, count the
 * user's scores on the chart; a chart stat is null when the chart was never played. Folder stats
 * count the folder's charts whose PB reaches gte.
 */
@Injectable()
export class ShowcaseService {
  constructor(
    private readonly repository: ShowcaseRepository,
    private readonly catalog: CatalogRepository,
    private readonly users: UsersRepository,
    private readonly settings: UgptSettingsService,
  ) {}

  /**
   * The showcase evaluated against this user's scores: their own stats, or with projectUser
   * that user's stats. Stats whose chart or folder has left the catalog are left out.
   */
  async showcase(ugpt: UgptContext, projectUser: string | undefined, requester: UserRow | null): Promise<StatShowcaseResult[]> {
    const owner = projectUser === undefined ? ugpt.user : await this.findUser(projectUser, requester);
    const { stats } = await this.settings.get(owner.id, ugpt.gpt);
    const catalog = await this.catalogOf(ugpt.gpt, stats);
    const shown = stats.filter((s) => (s.mode === 'chart' ? catalog.charts.has(s.chartID) : catalog.folders.has(s.folderID)));
    return Promise.all(
      shown.map(async (stat) => ({ stat: toStatDocument(stat), value: await this.evaluate(ugpt.user.id, stat), related: this.related(stat, catalog) })),
    );
  }

  /** Replaces the user's showcase; every chart and folder must exist in this GPT and each gte must suit its property. */
  async replace(ugpt: UgptContext, stats: StatDocument[]): Promise<StatDocument[]> {
    await this.validate(ugpt.gpt, stats);
    return (await this.settings.setStats(ugpt.user.id, ugpt.gpt, stats)).map(toStatDocument);
  }

  /** Replaces the user's showcase as replace does, and answers their UGPT settings with it (PUT, as Tachi's client writes it). */
  async replaceAndGetSettings(ugpt: UgptContext, stats: StatDocument[]): Promise<UgptSettingsDocument> {
    await this.replace(ugpt, stats);
    return this.settings.get(ugpt.user.id, ugpt.gpt);
  }

  /** One stat given in the query, evaluated against this user: {stat, result, related}. */
  async custom(ugpt: UgptContext, query: CustomStatQuery): Promise<CustomStatResponse> {
    const stat = this.statFromQuery(query);
    const catalog = await this.validate(ugpt.gpt, [stat]);
    return { stat: toStatDocument(stat), result: await this.evaluate(ugpt.user.id, stat), related: this.related(stat, catalog) };
  }

  private statFromQuery(query: CustomStatQuery): StatDocument {
    if (query.mode === 'chart') {
      if (query.chartID === undefined) throw new BadRequestException('chartID is required in chart mode.');
      if (query.folderID !== undefined || query.gte !== undefined) throw new BadRequestException('folderID and gte are only for folder mode.');
      return parseStat({ mode: 'chart', chartID: query.chartID, property: query.property });
    }
    if (query.folderID === undefined || query.gte === undefined) throw new BadRequestException('folderID and gte are required in folder mode.');
    if (query.chartID !== undefined) throw new BadRequestException('chartID is only for chart mode.');
    return parseStat({ mode: 'folder', folderID: query.folderID, property: query.property, gte: Number(query.gte) });
  }

  private async validate(gpt: GptSupport, stats: readonly StatDocument[]): Promise<StatCatalog> {
    const catalog = await this.catalogOf(gpt, stats);
    stats.forEach((stat, i) => {
      const at = stats.length > 1 ? `stats[${i}]: ` : '';
      if (stat.mode === 'chart' && !catalog.charts.has(stat.chartID))
        throw new BadRequestException(`${at}The chart ${stat.chartID} does not exist in ${gpt.game} ${gpt.playtype}.`);
      if (stat.mode === 'folder') {
        if (!catalog.folders.has(stat.folderID))
          throw new BadRequestException(`${at}The folder ${stat.folderID} does not exist in ${gpt.game} ${gpt.playtype}.`);
        const problem = gteProblem(gpt, stat);
        if (problem) throw new BadRequestException(`${at}${problem}.`);
      }
    });
    return catalog;
  }

  /** The charts (with their songs) and folders the stats name that belong to this GPT. */
  private async catalogOf(gpt: GptSupport, stats: readonly StatDocument[]): Promise<StatCatalog> {
    const chartIDs = stats.filter((s): s is ChartStat => s.mode === 'chart').map((s) => s.chartID);
    const folderIDs = stats.filter((s): s is FolderStat => s.mode === 'folder').map((s) => s.folderID);
    const [chartRows, folderRows] = await Promise.all([
      this.catalog.chartsWithSongs(gpt.game, gpt.playtype, chartIDs),
      this.catalog.foldersOfGpt(gpt.game, gpt.playtype, folderIDs),
    ]);
    return { charts: new Map(chartRows.map((r) => [r.chart.chartID, r])), folders: new Map(folderRows.map((f) => [f.folderID, f])) };
  }

  private related(stat: StatDocument, catalog: StatCatalog): ChartStatRelated | FolderStatRelated {
    if (stat.mode === 'chart') {
      const { chart, song } = catalog.charts.get(stat.chartID)!;
      return { song: toSongDocument(song), chart: toChartDocument(chart) };
    }
    return { folders: [toFolderDocument(catalog.folders.get(stat.folderID)!)] };
  }

  private async evaluate(userID: number, stat: StatDocument): Promise<StatResult> {
    if (stat.mode === 'folder') return this.repository.folderReached(userID, stat.folderID, stat.property, stat.gte);
    if (stat.property !== 'playcount') return { value: await this.repository.pbValue(userID, stat.chartID, stat.property) };
    const plays = await this.repository.playcount(userID, stat.chartID);
    // Spec: null when the chart was never played, as for the PB properties.
    return { value: plays > 0 ? plays : null };
  }

  /** projectUser: an id, a username (case-insensitive) or `me`. */
  private async findUser(param: string, requester: UserRow | null): Promise<UserRow> {
    if (param === 'me') {
      if (!requester) throw new UnauthorizedException("Cannot use the 'me' projectUser without authentication.");
      return requester;
    }
    const row = /^[0-9]{1,10}$/.test(param)
      ? Number(param) <= 2147483647
        ? await this.users.findById(Number(param))
        : undefined
      : await this.users.findByUsername(param);
    if (!row) throw new NotFoundException(`The user ${param} (projectUser) does not exist.`);
    return row;
  }
}

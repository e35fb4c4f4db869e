import { BadRequestException, Injectable, NotFoundException, UnauthorizedException } from '@nestjs/common';
import { and, count, eq, gte, sql } from 'drizzle-orm';
import { toChartDocument, toFolderDocument, toSongDocument, type ChartRow, type FolderRow, type SongRow } from '../presenters/catalog.presenter.js';
import type { UserRow } from '../http/auth/auth-context.js';
import { anyOf } from '../database/bulk-write.js';
import { Database } from '../database/database.js';
import { charts, folderCharts, folders, personalBests, scores, songs, users, type StatDocument } from '../database/schema.js';
import type { GptSupport } from '../game-support/types.js';
import type { CustomStatQuery } from './dto/ugpt.dto.js';
import type { ChartStatRelated, CustomStatResponse, FolderStatRelated, StatShowcaseResult } from './dto/ugpt.responses.js';
import { gteProblem, parseStat } from './showcase-stats.js';
import type { UgptContext } from './ugpt.guard.js';
import { UgptSettingsService } from './ugpt-settings.service.js';

/** A stat's result: a chart stat's value (null when unplayed), or a folder stat's count of charts reaching gte out of the folder's charts. */
export interface StatResult {
  value: number | null;
  outOf?: number;
}

type ChartStat = Extract<StatDocument, { mode: 'chart' }>;
type FolderStat = Extract<StatDocument, { mode: 'folder' }>;

/** The PB column each property compares on: grade and lamp by their index in the GPT's lists. */
const PB_COLUMNS = {
  score: personalBests.score,
  percent: personalBests.percent,
  grade: personalBests.gradeIndex,
  lamp: personalBests.lampIndex,
} as const;

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
    private readonly database: Database,
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
    return Promise.all(shown.map(async (stat) => ({ stat, value: await this.evaluate(ugpt.user.id, stat), related: this.related(stat, catalog) })));
  }

  /** Replaces the user's showcase; every chart and folder must exist in this GPT and each gte must suit its property. */
  async replace(ugpt: UgptContext, stats: StatDocument[]): Promise<StatDocument[]> {
    await this.validate(ugpt.gpt, stats);
    return this.settings.setStats(ugpt.user.id, ugpt.gpt, stats);
  }

  /** One stat given in the query, evaluated against this user: {stat, result, related}. */
  async custom(ugpt: UgptContext, query: CustomStatQuery): Promise<CustomStatResponse> {
    const stat = this.statFromQuery(query);
    const catalog = await this.validate(ugpt.gpt, [stat]);
    return { stat, result: await this.evaluate(ugpt.user.id, stat), related: this.related(stat, catalog) };
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
    const db = this.database.db;
    const [chartRows, folderRows] = await Promise.all([
      chartIDs.length
        ? db
            .select({ chart: charts, song: songs })
            .from(charts)
            .innerJoin(songs, and(eq(songs.game, charts.game), eq(songs.id, charts.songID)))
            .where(and(anyOf(charts.chartID, chartIDs), eq(charts.game, gpt.game), eq(charts.playtype, gpt.playtype)))
        : [],
      folderIDs.length
        ? db
            .select()
            .from(folders)
            .where(and(anyOf(folders.folderID, folderIDs), eq(folders.game, gpt.game), eq(folders.playtype, gpt.playtype)))
        : [],
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
    const db = this.database.db;
    if (stat.mode === 'chart') {
      if (stat.property === 'playcount') {
        const [row] = await db
          .select({ n: count() })
          .from(scores)
          .where(and(eq(scores.chartID, stat.chartID), eq(scores.userID, userID)));
        // Spec: null when the chart was never played, as for the PB properties.
        return { value: row.n > 0 ? row.n : null };
      }
      const [pb] = await db
        .select({ value: PB_COLUMNS[stat.property] })
        .from(personalBests)
        .where(and(eq(personalBests.userID, userID), eq(personalBests.chartID, stat.chartID)));
      return { value: pb ? pb.value : null };
    }
    const [row] = await db
      .select({
        value: sql<number>`count(${personalBests.chartID})`.mapWith(Number),
        outOf: count(),
      })
      .from(folderCharts)
      .leftJoin(personalBests, and(eq(personalBests.chartID, folderCharts.chartID), eq(personalBests.userID, userID), gte(PB_COLUMNS[stat.property], stat.gte)))
      .where(eq(folderCharts.folderID, stat.folderID));
    return { value: row.value, outOf: row.outOf };
  }

  /** projectUser: an id, a username (case-insensitive) or `me`. */
  private async findUser(param: string, requester: UserRow | null): Promise<UserRow> {
    if (param === 'me') {
      if (!requester) throw new UnauthorizedException("Cannot use the 'me' projectUser without authentication.");
      return requester;
    }
    const where = /^[0-9]{1,10}$/.test(param)
      ? Number(param) <= 2147483647
        ? eq(users.id, Number(param))
        : undefined
      : eq(users.usernameLowercase, param.toLowerCase());
    const [row] = where ? await this.database.db.select().from(users).where(where).limit(1) : [];
    if (!row) throw new NotFoundException(`The user ${param} (projectUser) does not exist.`);
    return row;
  }
}

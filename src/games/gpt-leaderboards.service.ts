import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { CatalogCache } from '../repositories/catalog-cache.js';
import type { GptSupport } from '../game-support/types.js';
import { toPbDocument } from '../presenters/pb.presenter.js';
import { toScoreDocument } from '../presenters/score.presenter.js';
import { toGameStatsDocument } from '../presenters/game-stats.presenter.js';
import { toUserDocument, type UserDocument } from '../presenters/user.presenter.js';
import type { ChartPbsQuery, HighlightedScoresQuery, LeaderboardQuery, PbLeaderboardQuery, PlayerDistributionQuery } from './dto/leaderboards.dto.js';
import { pickAlg } from '../http/algorithms.js';
import { HIGHLIGHTED_SCORES_LIMIT, LEADERBOARD_LIMIT, PB_LEADERBOARD_LIMIT, RECENT_CLASSES_LIMIT } from './dto/leaderboards.dto.js';
import { GptLeaderboardsRepository } from '../repositories/gpt-leaderboards.repository.js';
import { RelatedDocuments } from '../repositories/related-documents.js';
import type {
  ChartPbsResponse,
  ClassAchievementDocument,
  ClassDistribution,
  GptLeaderboardResponse,
  HighlightedScoresResponse,
  PbLeaderboardResponse,
  RecentClassesResponse,
} from './dto/leaderboards.responses.js';
import type { ClassAchievementRow } from '../database/schema.js';

export const CHART_PBS_PAGE = 100;
export const CHART_PB_SEARCH_LIMIT = 25;
/** As Tachi: a player search finds 25 players. */
export const PLAYER_SEARCH_LIMIT = 25;
/**
 * How long a class distribution is reused. It counts every profile of the GPT, so each process
 * keeps each (GPT, class set) answer this long: a class change shows up to a minute late.
 */
export const CLASS_DISTRIBUTION_TTL_MS = 60_000;

/** Spec ClassAchievementDocument. */
function toClassAchievementDocument(a: ClassAchievementRow): ClassAchievementDocument {
  return {
    userID: a.userID,
    game: a.game,
    playtype: a.playtype,
    classSet: a.classSet,
    classOldValue: a.classOldValue,
    classValue: a.classValue,
    timeAchieved: a.timeAchieved,
  };
}

/** GPT leaderboards and activity (spec 4.5). All public. */
@Injectable()
export class GptLeaderboardsService {
  /** Per process: `game:playtype:classSet` → the counts and when they expire. */
  private readonly distributions = new Map<string, { expires: number; counts: Promise<Map<string, number>> }>();

  constructor(
    private readonly repository: GptLeaderboardsRepository,
    private readonly catalogCache: CatalogCache,
    private readonly related: RelatedDocuments,
  ) {}

  async leaderboard(gpt: GptSupport, query: LeaderboardQuery): Promise<GptLeaderboardResponse> {
    const alg = pickAlg(gpt, 'profile', query.alg);
    const rows = await this.repository.leaderboard(gpt, alg, query.limit ?? LEADERBOARD_LIMIT.default);
    return { gameStats: rows.map(toGameStatsDocument), users: await this.related.users(rows.map((r) => r.userID)) };
  }

  async chartPbs(gpt: GptSupport, chartID: string, query: ChartPbsQuery): Promise<ChartPbsResponse> {
    await this.findChart(gpt, chartID);
    const page = await this.repository.chartPbs(chartID, query.startRanking ?? 1, CHART_PBS_PAGE);
    // One PB per player on a chart: the owners are the page's users, in its order.
    return { pbs: page.map((e) => toPbDocument(e.pb)), users: page.map((e) => toUserDocument(e.owner)) };
  }

  async searchChartPbs(gpt: GptSupport, chartID: string, search: string): Promise<ChartPbsResponse> {
    await this.findChart(gpt, chartID);
    const pbs = await this.repository.chartPbsByUsername(chartID, search, CHART_PB_SEARCH_LIMIT);
    return { pbs: pbs.map(toPbDocument), users: await this.related.users(pbs.map((p) => p.userID)) };
  }

  /** Up to 25 players of the GPT whose username contains the text, the exact username first. */
  async players(gpt: GptSupport, search: string): Promise<UserDocument[]> {
    return (await this.repository.playersByUsername(gpt, search, PLAYER_SEARCH_LIMIT)).map(toUserDocument);
  }

  async pbLeaderboard(gpt: GptSupport, query: PbLeaderboardQuery): Promise<PbLeaderboardResponse> {
    const alg = pickAlg(gpt, 'score', query.alg);
    const pbs = await this.repository.bestPbs(gpt, alg, query.limit ?? PB_LEADERBOARD_LIMIT.default);
    const [{ songs, charts }, users] = await Promise.all([this.related.songsAndCharts(gpt.game, pbs), this.related.users(pbs.map((p) => p.userID))]);
    return { pbs: pbs.map(toPbDocument), songs, charts, users };
  }

  /** With `class`: players per value of that class set. Otherwise: the latest class achievements. */
  async playerDistribution(gpt: GptSupport, query: PlayerDistributionQuery): Promise<ClassDistribution | RecentClassesResponse> {
    if (query.class === undefined) return this.recentClasses(gpt, query.limit ?? RECENT_CLASSES_LIMIT.default);
    if (query.limit !== undefined) throw new BadRequestException('Give either class (a distribution) or limit (recent class updates), not both.');
    const classSet = query.class;
    if (!Object.hasOwn(gpt.classes, classSet)) {
      throw new BadRequestException(
        `Invalid class '${classSet}' for ${gpt.game} ${gpt.playtype}. Expected one of: ${Object.keys(gpt.classes).join(', ') || '(none)'}.`,
      );
    }
    const counts = await this.classDistribution(gpt, classSet);
    // In the class set's own order, lowest first.
    return Object.fromEntries(gpt.classes[classSet].values.flatMap((v) => (counts.has(v.id) ? [[v.id, counts.get(v.id)!]] : [])));
  }

  async highlightedScores(gpt: GptSupport, query: HighlightedScoresQuery): Promise<HighlightedScoresResponse> {
    const rows = await this.repository.highlightedScores(gpt, query.limit ?? HIGHLIGHTED_SCORES_LIMIT.default);
    const [{ songs, charts }, users] = await Promise.all([this.related.songsAndCharts(gpt.game, rows), this.related.users(rows.map((s) => s.userID))]);
    return { scores: rows.map(toScoreDocument), users, songs, charts };
  }

  /** The distribution, from this process's cache when it is under CLASS_DISTRIBUTION_TTL_MS old; concurrent misses share one query. */
  private classDistribution(gpt: GptSupport, classSet: string): Promise<Map<string, number>> {
    const key = `${gpt.game}:${gpt.playtype}:${classSet}`;
    const now = Date.now();
    const cached = this.distributions.get(key);
    if (cached && cached.expires > now) return cached.counts;
    const counts = this.repository.classDistribution(gpt, classSet);
    this.distributions.set(key, { expires: now + CLASS_DISTRIBUTION_TTL_MS, counts });
    // A failed read is not kept.
    counts.catch(() => {
      if (this.distributions.get(key)?.counts === counts) this.distributions.delete(key);
    });
    return counts;
  }

  private async recentClasses(gpt: GptSupport, limit: number): Promise<RecentClassesResponse> {
    const rows = await this.repository.recentClassAchievements(gpt, limit);
    return { users: await this.related.users(rows.map((r) => r.userID)), classes: rows.map(toClassAchievementDocument) };
  }

  /** A chart's pages answer 404 for a chart of no GPT or of another (the check is served from the catalog cache once seen). */
  private async findChart(gpt: GptSupport, chartID: string): Promise<void> {
    if (!(await this.catalogCache.chartOnGpt(gpt.game, gpt.playtype, chartID)))
      throw new NotFoundException(`The chart ${chartID} does not exist for ${gpt.game} ${gpt.playtype}.`);
  }
}

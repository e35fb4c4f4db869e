import { Injectable, NotFoundException } from '@nestjs/common';
import { toChartDocument } from '../presenters/catalog.presenter.js';
import { toUserDocument } from '../presenters/user.presenter.js';
import { CatalogRepository } from '../repositories/catalog.repository.js';
import { toPbDocument, toPlayedPbDocument } from '../presenters/pb.presenter.js';
import { toScoreDocument } from '../presenters/score.presenter.js';
import { toGameStatsDocument } from '../presenters/game-stats.presenter.js';
import { toUgptSummaryResponse } from '../presenters/ugpt-summary.presenter.js';
import { GameStatsRepository } from '../repositories/game-stats.repository.js';
import type { UgptContext } from './ugpt.guard.js';
import type {
  ChartNeighboursResponse,
  MostPlayedResponse,
  PbListResponse,
  PbWithChartResponse,
  ScoreListResponse,
  ScoreSearchResponse,
  UgptSummaryResponse,
} from './dto/profile.responses.js';
import { pickAlg } from '../http/algorithms.js';
import { RelatedDocuments } from '../repositories/related-documents.js';
import { UgptProfileRepository } from '../repositories/ugpt-profile.repository.js';
import { GptLeaderboardsRepository } from '../repositories/gpt-leaderboards.repository.js';
import type { ScoreDocument } from '../presenters/score.presenter.js';

export const UGPT_SEARCH_LIMIT = 30;
export const UGPT_LIST_LIMIT = 100;
/** As Tachi: a chart's leaderboard neighbours are the 5 PBs above and the 5 below. */
export const CHART_NEIGHBOURS = 5;

/** One user's profile, PBs and scores on a GPT (spec 4.8). Public; UgptGuard has checked the user played it. */
@Injectable()
export class UgptProfileService {
  constructor(
    private readonly repository: UgptProfileRepository,
    private readonly gameStats: GameStatsRepository,
    private readonly catalog: CatalogRepository,
    private readonly related: RelatedDocuments,
    private readonly leaderboards: GptLeaderboardsRepository,
  ) {}

  async summary({ user, gpt, stats }: UgptContext): Promise<UgptSummaryResponse> {
    const [firstScore, mostRecentScore, totalScores, rankings, playtime] = await Promise.all([
      this.repository.edgeScore(user.id, gpt, 'first'),
      this.repository.edgeScore(user.id, gpt, 'last'),
      this.repository.scoreCount(user.id, gpt),
      this.gameStats.rankingsForUser(user.id, gpt),
      this.repository.playtime(user.id, gpt),
    ]);
    return toUgptSummaryResponse({
      gameStats: toGameStatsDocument(stats),
      firstScore: firstScore && toScoreDocument(firstScore),
      mostRecentScore: mostRecentScore && toScoreDocument(mostRecentScore),
      totalScores,
      rankingData: rankings.get(`${gpt.game}:${gpt.playtype}`) ?? {},
      playtime,
    });
  }

  async searchPbs({ user, gpt }: UgptContext, search: string): Promise<PbListResponse> {
    const pbs = await this.repository.pbsMatching(user.id, gpt, search, UGPT_SEARCH_LIMIT);
    return { ...(await this.related.songsAndCharts(gpt.game, pbs)), pbs: pbs.map(toPbDocument) };
  }

  async bestPbs({ user, gpt }: UgptContext, requestedAlg: string | undefined): Promise<PbListResponse> {
    const alg = pickAlg(gpt, 'score', requestedAlg);
    const pbs = await this.repository.bestPbs(user.id, gpt, alg, UGPT_LIST_LIMIT);
    return { ...(await this.related.songsAndCharts(gpt.game, pbs)), pbs: pbs.map(toPbDocument) };
  }

  async allPbs({ user, gpt }: UgptContext): Promise<PbListResponse> {
    const pbs = await this.repository.allPbs(user.id, gpt);
    return { pbs: pbs.map(toPbDocument), ...(await this.related.songsAndCharts(gpt.game, pbs)) };
  }

  /** {pb, chart}, plus the scores the PB is composed from (each once, in composedFrom order) with getComposition. */
  async pb(ugpt: UgptContext, chartID: string, getComposition: boolean): Promise<PbWithChartResponse> {
    const { chart, pb } = await this.chartAndPb(ugpt, chartID);
    const result = { pb: toPbDocument(pb), chart: toChartDocument(chart) };
    if (!getComposition) return result;
    const ids = [...new Set(pb.composedFrom.map((c) => c.scoreID))];
    const byID = new Map((await this.repository.scoresByIds(ids)).map((s) => [s.scoreID, s]));
    return { ...result, scores: ids.flatMap((id) => (byID.has(id) ? [toScoreDocument(byID.get(id)!)] : [])) };
  }

  /** {pb, chart, adjacentAbove, adjacentBelow, users}: the player's PB on the chart and the 5 PBs ranked on either side of it. */
  async chartNeighbours(ugpt: UgptContext, chartID: string): Promise<ChartNeighboursResponse> {
    const { chart, pb } = await this.chartAndPb(ugpt, chartID);
    const firstAbove = Math.max(1, pb.rank - CHART_NEIGHBOURS);
    const [above, below] = await Promise.all([
      pb.rank > 1 ? this.leaderboards.chartPbs(chartID, firstAbove, pb.rank - firstAbove) : [],
      this.leaderboards.chartPbs(chartID, pb.rank + 1, CHART_NEIGHBOURS),
    ]);
    const adjacentAbove = above.filter((e) => e.pb.userID !== pb.userID).reverse();
    const adjacentBelow = below.filter((e) => e.pb.userID !== pb.userID);
    return {
      pb: toPbDocument(pb),
      chart: toChartDocument(chart),
      adjacentAbove: adjacentAbove.map((e) => toPbDocument(e.pb)),
      adjacentBelow: adjacentBelow.map((e) => toPbDocument(e.pb)),
      // One PB per player on a chart: the owners read with the pages are the users, in this order.
      users: [...adjacentAbove, ...adjacentBelow].map((e) => toUserDocument(e.owner)),
    };
  }

  /** The player's scores on the chart, the latest first (404 when the chart is not the GPT's, or the player has no score on it). */
  async scoresOnChart(ugpt: UgptContext, chartID: string): Promise<ScoreDocument[]> {
    await this.chartAndPb(ugpt, chartID);
    return (await this.repository.scoresOnChart(ugpt.user.id, chartID)).map(toScoreDocument);
  }

  /** The GPT's chart and the player's PB on it: 404 for a chart of no GPT or of another one, and for a chart the player has not played. */
  private async chartAndPb({ user, gpt }: UgptContext, chartID: string) {
    const chart = await this.catalog.chart(gpt.game, gpt.playtype, chartID);
    if (!chart) throw new NotFoundException(`The chart ${chartID} does not exist for ${gpt.game} ${gpt.playtype}.`);
    const pb = await this.repository.pb(user.id, chartID);
    if (!pb) throw new NotFoundException(`${user.username} has no PB on the chart ${chartID}.`);
    return { chart, pb };
  }

  async searchScores({ user, gpt }: UgptContext, search: string): Promise<ScoreSearchResponse> {
    const rows = await this.repository.scoresMatching(user.id, gpt, search, UGPT_SEARCH_LIMIT);
    const closeness = new Map(rows.map((r) => [r.score.songID, r.closeness]));
    const { songs, charts } = await this.related.songsAndCharts(
      gpt.game,
      rows.map((r) => r.score),
    );
    return { songs: songs.map((s) => ({ ...s, __textScore: closeness.get(s.id)! })), charts, scores: rows.map((r) => toScoreDocument(r.score)) };
  }

  async recentScores({ user, gpt }: UgptContext): Promise<ScoreListResponse> {
    const rows = await this.repository.recentScores(user.id, gpt, UGPT_LIST_LIMIT);
    return { ...(await this.related.songsAndCharts(gpt.game, rows)), scores: rows.map(toScoreDocument) };
  }

  async mostPlayed({ user, gpt }: UgptContext): Promise<MostPlayedResponse> {
    const rows = await this.repository.mostPlayed(user.id, gpt, UGPT_LIST_LIMIT);
    return { ...(await this.related.songsAndCharts(gpt.game, rows)), pbs: rows.map(toPlayedPbDocument) };
  }
}

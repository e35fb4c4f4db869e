import { Injectable, NotFoundException } from '@nestjs/common';
import { toChartDocument } from '../presenters/catalog.presenter.js';
import { CatalogRepository } from '../repositories/catalog.repository.js';
import { toPbDocument, toPlayedPbDocument } from '../presenters/pb.presenter.js';
import { toScoreDocument } from '../presenters/score.presenter.js';
import { toGameStatsDocument } from '../presenters/game-stats.presenter.js';
import { toUgptSummaryResponse } from '../presenters/ugpt-summary.presenter.js';
import { GameStatsRepository } from '../repositories/game-stats.repository.js';
import type { UgptContext } from './ugpt.guard.js';
import type {
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

export const UGPT_SEARCH_LIMIT = 30;
export const UGPT_LIST_LIMIT = 100;

/** One user's profile, PBs and scores on a GPT (spec 4.8). Public; UgptGuard has checked the user played it. */
@Injectable()
export class UgptProfileService {
  constructor(
    private readonly repository: UgptProfileRepository,
    private readonly gameStats: GameStatsRepository,
    private readonly catalog: CatalogRepository,
    private readonly related: RelatedDocuments,
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
  async pb({ user, gpt }: UgptContext, chartID: string, getComposition: boolean): Promise<PbWithChartResponse> {
    const chart = await this.catalog.chart(gpt.game, gpt.playtype, chartID);
    if (!chart) throw new NotFoundException(`The chart ${chartID} does not exist for ${gpt.game} ${gpt.playtype}.`);
    const pb = await this.repository.pb(user.id, chartID);
    if (!pb) throw new NotFoundException(`${user.username} has no PB on the chart ${chartID}.`);
    const result = { pb: toPbDocument(pb), chart: toChartDocument(chart) };
    if (!getComposition) return result;
    const ids = [...new Set(pb.composedFrom.map((c) => c.scoreID))];
    const byID = new Map((await this.repository.scoresByIds(ids)).map((s) => [s.scoreID, s]));
    return { ...result, scores: ids.flatMap((id) => (byID.has(id) ? [toScoreDocument(byID.get(id)!)] : [])) };
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

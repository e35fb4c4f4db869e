import { Injectable } from '@nestjs/common';
import { pickAlg } from '../http/algorithms.js';
import { toGameStatsDocument, toGameStatsHistory, type GameStatsSnapshotDocument } from '../presenters/game-stats.presenter.js';
import { GameStatsRepository } from '../repositories/game-stats.repository.js';
import { GptLeaderboardsRepository } from '../repositories/gpt-leaderboards.repository.js';
import { RelatedDocuments } from '../repositories/related-documents.js';
import { SnapshotsRepository } from '../repositories/snapshots.repository.js';
import { UgptProfileRepository } from '../repositories/ugpt-profile.repository.js';
import type { LeaderboardAdjacentResponse } from './dto/ugpt.responses.js';
import type { UgptContext } from './ugpt.guard.js';

/** Spec part 8: up to 5 players above and 5 below. */
export const ADJACENT_LIMIT = 5;
/** Spec part 8: snapshot history holds up to 90. */
export const HISTORY_LIMIT = 90;

/**
 * Where a user stands among the GPT's players: the neighbours on the leaderboard and the daily
 * history. The leaderboard order is the GPT leaderboard's: rating descending, players without a
 * rating last (a null rating counts as below every value), ties by user id.
 */
@Injectable()
export class UgptStandingService {
  constructor(
    private readonly leaderboards: GptLeaderboardsRepository,
    private readonly snapshots: SnapshotsRepository,
    private readonly related: RelatedDocuments,
    private readonly gameStats: GameStatsRepository,
    private readonly profiles: UgptProfileRepository,
  ) {}

  /**
   * above: up to 5 players strictly better, the closest 5, best first. below: up to 5 players
   * rated the same or worse (ties go below), best first. ranking = 1 + the players strictly
   * better (ties share it), outOf = every player of the GPT.
   */
  async leaderboardAdjacent({ user, gpt, stats }: UgptContext, alg: string | undefined): Promise<LeaderboardAdjacentResponse> {
    const name = pickAlg(gpt, 'profile', alg);
    const mine = stats.ratings[name] ?? null;
    const [above, below, ranking] = await Promise.all([
      this.leaderboards.above(gpt, name, mine, ADJACENT_LIMIT),
      this.leaderboards.below(gpt, name, mine, user.id, ADJACENT_LIMIT),
      this.leaderboards.standing(gpt, name, mine),
    ]);
    return {
      above: above.map(toGameStatsDocument),
      below: below.map(toGameStatsDocument),
      users: await this.related.users([...above, ...below].map((s) => s.userID).concat(user.id)),
      thisUsersStats: toGameStatsDocument(stats),
      thisUsersRanking: ranking,
    };
  }

  /**
   * The daily snapshots, newest first (spec UserGameStatsSnapshot), with the profile as it is now
   * (its ratings, classes, playcount and rankings at this moment), which the tachi profile puts first.
   */
  async history({ user, gpt, stats }: UgptContext): Promise<GameStatsSnapshotDocument[]> {
    const [stored, playcount, rankings] = await Promise.all([
      this.snapshots.history(user.id, gpt.game, gpt.playtype, HISTORY_LIMIT),
      this.profiles.scoreCount(user.id, gpt),
      this.gameStats.rankingsForUser(user.id, gpt),
    ]);
    const now = rankings.get(`${gpt.game}:${gpt.playtype}`) ?? {};
    const live = {
      userID: user.id,
      game: gpt.game,
      playtype: gpt.playtype,
      timestamp: Date.now(),
      classes: stats.classes,
      ratings: stats.ratings,
      playcount,
      ranking: now[gpt.defaultProfileRatingAlg]?.ranking ?? 0,
      rankings: now,
    };
    return toGameStatsHistory({ live, stored });
  }
}

import { Injectable } from '@nestjs/common';
import { and, asc, count, desc, eq, getTableColumns, isNotNull, sql, type SQL } from 'drizzle-orm';
import { textMatches } from './catalog.repository.js';
import { anyOf } from '../database/bulk-write.js';
import { CHART_RANKING_JOIN, RANKED_PB_SELECT, rankedPbColumns } from '../database/pb-rank.js';
import { aliasedColumns, Database, readStatement } from '../database/database.js';
import { pbRatings, personalBests, scores, sessions, songs, type PbReadRow, type ScoreRow } from '../database/schema.js';
import type { GptSupport } from '../game-support/types.js';

/** How close a song is to a search: word similarity, where a title containing the whole search scores 1. */
const closeness = (search: string) => sql<number>`word_similarity(${search}, ${songs.searchText})`;

/**
 * Closest songs first: an exact title or alternate title, then word similarity, then similarity
 * of the whole text (so of two titles containing the search, the shorter), then song id.
 */
function closestSongsFirst(search: string): SQL[] {
  return [
    desc(sql`${songs.matchTitles} @> ARRAY[${search.toLowerCase()}]::text[]`),
    desc(closeness(search)),
    desc(sql`similarity(${search}, ${songs.searchText})`),
    asc(songs.id),
  ];
}

/** $1 user, $2 game, $3 playtype, $4 score rating algorithm, $5 limit. NULLS LAST as in the index (value is never null), so that it gives the order. */
const BEST_PBS = readStatement<PbReadRow>(
  'ugpt_best_pbs',
  sql`SELECT ${RANKED_PB_SELECT} FROM ${pbRatings}
    JOIN ${personalBests} ON ${personalBests.userID} = ${pbRatings.userID} AND ${personalBests.chartID} = ${pbRatings.chartID}
    LEFT JOIN ${CHART_RANKING_JOIN[0]} ON ${CHART_RANKING_JOIN[1]}
    WHERE ${pbRatings.userID} = $1 AND ${pbRatings.game} = $2 AND ${pbRatings.playtype} = $3 AND ${pbRatings.alg} = $4 AND ${pbRatings.isPrimary}
    ORDER BY ${pbRatings.value} DESC NULLS LAST, ${pbRatings.chartID} LIMIT $5`,
);

const SCORE_SELECT = aliasedColumns(getTableColumns(scores));
const OWN_SCORES = sql`${scores.userID} = $1 AND ${scores.game} = $2 AND ${scores.playtype} = $3`;

/** $1 user, $2 game, $3 playtype, $4 limit: the latest timed scores (scores_user_gpt_time_idx). */
const RECENT_TIMED_SCORES = readStatement<ScoreRow>(
  'ugpt_recent_timed_scores',
  sql`SELECT ${SCORE_SELECT} FROM ${scores} WHERE ${OWN_SCORES} AND ${scores.timeAchieved} IS NOT NULL
    ORDER BY ${scores.timeAchieved} DESC, ${scores.scoreID} DESC LIMIT $4`,
);

/** $1 user, $2 game, $3 playtype, $4 limit: the scores without a time, latest import first (scores_user_gpt_untimed_idx). */
const RECENT_UNTIMED_SCORES = readStatement<ScoreRow>(
  'ugpt_recent_untimed_scores',
  sql`SELECT ${SCORE_SELECT} FROM ${scores} WHERE ${OWN_SCORES} AND ${scores.timeAchieved} IS NULL
    ORDER BY ${scores.timeAdded} DESC, ${scores.scoreID} DESC LIMIT $4`,
);

/** One user's reads on one GPT (spec 4.8): profile summary, PBs and scores. */
@Injectable()
export class UgptProfileRepository {
  constructor(private readonly database: Database) {}

  private ownScores(userID: number, gpt: GptSupport) {
    return and(eq(scores.userID, userID), eq(scores.game, gpt.game), eq(scores.playtype, gpt.playtype));
  }

  private ownPbs(userID: number, gpt: GptSupport) {
    return and(eq(personalBests.userID, userID), eq(personalBests.game, gpt.game), eq(personalBests.playtype, gpt.playtype));
  }

  /** The earliest or latest score by timeAchieved; scores without a time are not considered. */
  async edgeScore(userID: number, gpt: GptSupport, which: 'first' | 'last') {
    const order = which === 'first' ? [asc(scores.timeAchieved), asc(scores.scoreID)] : [desc(scores.timeAchieved), desc(scores.scoreID)];
    const [row] = await this.database.db
      .select()
      .from(scores)
      .where(and(this.ownScores(userID, gpt), isNotNull(scores.timeAchieved)))
      .orderBy(...order)
      .limit(1);
    return row ?? null;
  }

  /** The time the user played the GPT: the sum of their sessions' lengths (ms). */
  async playtime(userID: number, gpt: GptSupport): Promise<number> {
    const [row] = await this.database.db
      .select({ ms: sql<string>`coalesce(sum(${sessions.timeEnded} - ${sessions.timeStarted}), 0)` })
      .from(sessions)
      .where(and(eq(sessions.userID, userID), eq(sessions.game, gpt.game), eq(sessions.playtype, gpt.playtype)));
    return Number(row.ms);
  }

  async scoreCount(userID: number, gpt: GptSupport): Promise<number> {
    const [row] = await this.database.db.select({ n: count() }).from(scores).where(this.ownScores(userID, gpt));
    return row.n;
  }

  /** The user's PBs on charts of songs matching the search, closest songs first (see closestSongsFirst), then the most recent PB. */
  pbsMatching(userID: number, gpt: GptSupport, search: string, limit: number) {
    return this.database.db
      .select(rankedPbColumns)
      .from(personalBests)
      .innerJoin(songs, and(eq(songs.game, personalBests.game), eq(songs.id, personalBests.songID)))
      .leftJoin(...CHART_RANKING_JOIN)
      .where(and(this.ownPbs(userID, gpt), textMatches(songs.searchText, search)))
      .orderBy(...closestSongsFirst(search), sql`${personalBests.timeAchieved} DESC NULLS LAST`, asc(personalBests.chartID))
      .limit(limit);
  }

  /**
   * The user's scores on songs matching the search, closest songs first, then the most recent.
   * Reached through the user's PBs (one per played chart), so only their charts' scores are read.
   */
  scoresMatching(userID: number, gpt: GptSupport, search: string, limit: number) {
    return this.database.db
      .select({ score: getTableColumns(scores), closeness: closeness(search) })
      .from(personalBests)
      .innerJoin(songs, and(eq(songs.game, personalBests.game), eq(songs.id, personalBests.songID)))
      .innerJoin(scores, and(eq(scores.chartID, personalBests.chartID), eq(scores.userID, personalBests.userID)))
      .where(and(this.ownPbs(userID, gpt), textMatches(songs.searchText, search)))
      .orderBy(...closestSongsFirst(search), sql`${scores.timeAchieved} DESC NULLS LAST`, asc(scores.scoreID))
      .limit(limit);
  }

  /** The user's best PBs on primary charts by a score rating, read from pb_ratings' per-user index. */
  bestPbs(userID: number, gpt: GptSupport, alg: string, limit: number): Promise<PbReadRow[]> {
    return this.database.read(BEST_PBS, [userID, gpt.game, gpt.playtype, alg, limit]);
  }

  /** Every PB of the user on the GPT, most recent first. */
  allPbs(userID: number, gpt: GptSupport) {
    return this.database.db
      .select(rankedPbColumns)
      .from(personalBests)
      .leftJoin(...CHART_RANKING_JOIN)
      .where(this.ownPbs(userID, gpt))
      .orderBy(sql`${personalBests.timeAchieved} DESC NULLS LAST`, asc(personalBests.chartID));
  }

  async pb(userID: number, chartID: string) {
    const [row] = await this.database.db
      .select(rankedPbColumns)
      .from(personalBests)
      .leftJoin(...CHART_RANKING_JOIN)
      .where(and(eq(personalBests.userID, userID), eq(personalBests.chartID, chartID)));
    return row;
  }

  /** The user's scores on the chart: the latest timeAchieved first, those without a time last (latest added first), then by scoreID. */
  scoresOnChart(userID: number, chartID: string): Promise<ScoreRow[]> {
    return this.database.db
      .select()
      .from(scores)
      .where(and(eq(scores.userID, userID), eq(scores.chartID, chartID)))
      .orderBy(sql`${scores.timeAchieved} DESC NULLS LAST`, desc(scores.timeAdded), asc(scores.scoreID));
  }

  scoresByIds(ids: readonly string[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return this.database.db.select().from(scores).where(anyOf(scores.scoreID, ids));
  }

  /**
   * The latest scores: by timeAchieved, newest first; then, while there is room, the scores
   * without a time, latest import first. Two reads, each in the order of an index
   * (scores_user_gpt_time_idx, and the partial scores_user_gpt_untimed_idx).
   */
  async recentScores(userID: number, gpt: GptSupport, limit: number): Promise<ScoreRow[]> {
    const timed = await this.database.read(RECENT_TIMED_SCORES, [userID, gpt.game, gpt.playtype, limit]);
    if (timed.length === limit) return timed;
    const untimed = await this.database.read(RECENT_UNTIMED_SCORES, [userID, gpt.game, gpt.playtype, limit - timed.length]);
    return [...timed, ...untimed];
  }

  /**
   * The user's PBs with how many scores they have on each chart, most played first, then the most
   * recent PB. One GROUP BY over the user's scores counts the plays per chart; only the charts
   * ranked within the limit by count (ties at the edge included, as rank() keeps them) are joined
   * to their PBs, which then break the ties.
   */
  async mostPlayed(userID: number, gpt: GptSupport, limit: number) {
    const db = this.database.db;
    const plays = db
      .select({
        chartID: scores.chartID,
        playcount: sql<number>`count(*)::int`.as('playcount'),
        place: sql<number>`rank() OVER (ORDER BY count(*) DESC)`.as('place'),
      })
      .from(scores)
      .where(this.ownScores(userID, gpt))
      .groupBy(scores.chartID)
      .as('plays');
    const rows = await db
      .select({ pb: rankedPbColumns, playcount: plays.playcount })
      .from(plays)
      .innerJoin(personalBests, and(eq(personalBests.userID, userID), eq(personalBests.chartID, plays.chartID)))
      .leftJoin(...CHART_RANKING_JOIN)
      .where(sql`${plays.place} <= ${limit}`)
      .orderBy(desc(plays.playcount), sql`${personalBests.timeAchieved} DESC NULLS LAST`, asc(personalBests.chartID))
      .limit(limit);
    return rows.map((r) => ({ ...r.pb, playcount: Number(r.playcount) }));
  }
}

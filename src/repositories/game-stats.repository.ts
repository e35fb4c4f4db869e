import { Injectable } from '@nestjs/common';
import { asc, eq, getTableColumns, sql } from 'drizzle-orm';
import { aliasedColumns, Database, queryRows, readStatement } from '../database/database.js';
import { profileRanking } from '../database/ranking.js';
import { profileRatings, userGameStats, type GameStatsRow } from '../database/schema.js';
import { allGpts } from '../game-support/registry.js';
import type { GptSupport } from '../game-support/types.js';

export type RankingData = Record<string, { ranking: number; outOf: number }>;

/** $1 user, $2 game, $3 playtype (every UGPT route reads it: a prepared statement). */
const GAME_STATS = readStatement<GameStatsRow>(
  'user_game_stats_of_gpt',
  sql`SELECT ${aliasedColumns(getTableColumns(userGameStats))} FROM ${userGameStats}
    WHERE ${userGameStats.userID} = $1 AND ${userGameStats.game} = $2 AND ${userGameStats.playtype} = $3`,
);

@Injectable()
export class GameStatsRepository {
  constructor(private readonly database: Database) {}

  /** The user's profile on a GPT; undefined when they have not played it. */
  async find(userID: number, game: string, playtype: string): Promise<GameStatsRow | undefined> {
    return (await this.database.read(GAME_STATS, [userID, game, playtype]))[0];
  }

  async listForUser(userID: number): Promise<GameStatsRow[]> {
    return this.database.db.select().from(userGameStats).where(eq(userGameStats.userID, userID)).orderBy(asc(userGameStats.game), asc(userGameStats.playtype));
  }

  /**
   * For each of the user's GPTs (or only `gpt`) and every profile rating algorithm of it: the
   * ranking (see database/ranking.ts), and outOf = every player of the GPT, rated or not, as the
   * GPT leaderboard lists them.
   */
  async rankingsForUser(userID: number, gpt?: GptSupport): Promise<Map<string, RankingData>> {
    const algs = (gpt ? [gpt] : allGpts())
      .flatMap((g) => Object.keys(g.profileRatingAlgs).map((alg) => ({ game: g.game, playtype: g.playtype, alg })))
      .map((a, ord) => ({ ...a, ord }));
    // Each count is a range of profile_ratings' (game, playtype, alg, value) index.
    const rows = await queryRows<{ game: string; playtype: string; alg: string; ranking: number; out_of: string }>(
      this.database.db,
      sql`
      SELECT a.game, a.playtype, a.alg,
        ${profileRanking({ game: sql`a.game`, playtype: sql`a.playtype`, alg: sql`a.alg` }, sql`m.value`)} AS ranking,
        (SELECT count(*) FROM ${userGameStats} u WHERE u.game = a.game AND u.playtype = a.playtype) AS out_of
      FROM jsonb_to_recordset(${JSON.stringify(algs)}::jsonb) AS a(game text, playtype text, alg text, ord int)
      JOIN ${userGameStats} s ON s.user_id = ${userID} AND s.game = a.game AND s.playtype = a.playtype
      LEFT JOIN ${profileRatings} m ON m.user_id = ${userID} AND m.game = a.game AND m.playtype = a.playtype AND m.alg = a.alg
      ORDER BY a.ord`,
    );
    const map = new Map<string, RankingData>();
    for (const row of rows) {
      const key = `${row.game}:${row.playtype}`;
      const data = map.get(key) ?? {};
      data[row.alg] = { ranking: Number(row.ranking), outOf: Number(row.out_of) };
      map.set(key, data);
    }
    return map;
  }
}

import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { profileRatings } from './schema.js';

/*
 * The profile ranking rule, for every reader (profile rankings, leaderboard neighbours, daily
 * snapshots): under a profile rating algorithm, a player's ranking is 1 + the players strictly
 * better, so ties share a rank, and a player without a rating ranks after every rated one
 * (1 + the rated players). profile_ratings holds only values: a player is rated when it has a row.
 */

/** Best rating first, players without one last: the order rankings count in and leaderboards list by. */
export function bestRatingFirst(rating: SQLWrapper): SQL {
  return sql`${rating} DESC NULLS LAST`;
}

/** A GPT's profile rating algorithm, as values or as SQL (e.g. columns of an outer query). */
export interface RatingField {
  game: SQLWrapper | string;
  playtype: SQLWrapper | string;
  alg: SQLWrapper | string;
}

/**
 * Whether a rating (of a profile_ratings row, so never null) is strictly better than `mine`: a
 * number, null (unrated: every rating is better), or SQL that may be null.
 */
export function betterThan(rating: SQLWrapper, mine: SQLWrapper | number | null): SQL {
  if (mine === null) return sql`TRUE`;
  // A rating is finite, so above -Infinity: one range of the index, also in a prepared statement's generic plan.
  return typeof mine === 'number' ? sql`${rating} > ${mine}` : sql`${rating} > coalesce(${mine}, '-Infinity'::float8)`;
}

/** One player's ranking, whose rating is `mine` (see betterThan): a count over a range of profile_ratings' (game, playtype, alg, value) index. */
export function profileRanking(field: RatingField, mine: SQLWrapper | number | null): SQL<number> {
  return sql<number>`(1 + (SELECT count(*) FROM ${profileRatings} o
    WHERE o.game = ${field.game} AND o.playtype = ${field.playtype} AND o.alg = ${field.alg} AND ${betterThan(sql`o.value`, mine)}))::int`;
}

/**
 * Every player's ranking at once, by the same rule: rank() over the players (with a null rating
 * when unrated) in bestRatingFirst order counts exactly the players strictly better.
 */
export function profileRankingWindow(partitionBy: SQL, rating: SQLWrapper): SQL<number> {
  return sql<number>`rank() OVER (PARTITION BY ${partitionBy} ORDER BY ${bestRatingFirst(rating)})::int`;
}

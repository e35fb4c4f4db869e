import type { userGameStats } from '../database/schema.js';

export type GameStatsRecord = typeof userGameStats.$inferSelect;

/** Spec UserGameStatsDocument. */
export function toGameStatsDocument(s: GameStatsRecord) {
  return { userID: s.userID, game: s.game, playtype: s.playtype, ratings: s.ratings, classes: s.classes };
}

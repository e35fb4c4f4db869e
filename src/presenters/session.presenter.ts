import type { sessions } from '../database/schema.js';

export type SessionRecord = typeof sessions.$inferSelect;

/** Spec SessionDocument; `scores` are the session's score ids in play order. */
export function toSessionDocument(s: SessionRecord, scoreIDs: readonly string[]) {
  return {
    sessionID: s.sessionID,
    name: s.name,
    desc: s.desc,
    userID: s.userID,
    game: s.game,
    playtype: s.playtype,
    scores: scoreIDs,
    calculatedData: s.calculatedData,
    highlighted: s.highlighted,
    timeInserted: s.timeInserted,
    timeStarted: s.timeStarted,
    timeEnded: s.timeEnded,
  };
}

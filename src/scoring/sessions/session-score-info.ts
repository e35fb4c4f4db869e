import type { SessionScoreInfo } from '../../presenters/session.presenter.js';

export type { SessionScoreInfo };

/** A score's comparable values: score, percent, and its lamp and grade as indexes into the GPT's order. */
export interface ScoreValues {
  score: number;
  percent: number;
  lampIndex: number;
  gradeIndex: number;
}

/** A score of a session, in play order. */
export interface SessionMember extends ScoreValues {
  sessionID: string;
  scoreID: string;
  chartID: string;
}

/** The best of each value the player had on a chart before a session started (each from any of their earlier scores). */
export interface BestBefore extends ScoreValues {
  sessionID: string;
  chartID: string;
}

/**
 * Each session's score info, in its scores' order: a score on a chart the player had no earlier
 * score on is new; otherwise its deltas from the best values before the session. Sessions without
 * members get an empty list.
 */
export function sessionScoreInfo(
  sessionIDs: readonly string[],
  members: readonly SessionMember[],
  before: readonly BestBefore[],
): Map<string, SessionScoreInfo[]> {
  const best = new Map(before.map((b) => [`${b.sessionID}\u0000${b.chartID}`, b]));
  const info = new Map<string, SessionScoreInfo[]>(sessionIDs.map((id) => [id, []]));
  for (const m of members) {
    const b = best.get(`${m.sessionID}\u0000${m.chartID}`);
    const list = info.get(m.sessionID) ?? [];
    info.set(m.sessionID, list);
    if (!b) list.push({ scoreID: m.scoreID, isNewScore: true });
    else
      list.push({
        scoreID: m.scoreID,
        isNewScore: false,
        deltas: { score: m.score - b.score, percent: m.percent - b.percent, lamp: m.lampIndex - b.lampIndex, grade: m.gradeIndex - b.gradeIndex },
      });
  }
  return info;
}

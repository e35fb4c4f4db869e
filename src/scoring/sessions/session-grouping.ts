/** Scores less than two hours apart (strictly) belong to the same session. */
export const SESSION_GAP_MS = 2 * 60 * 60 * 1000;

export interface Timed {
  timeAchieved: number;
}

/** Splits scores into runs where each score is within SESSION_GAP_MS of the previous one, in time order. */
export function groupIntoSessions<T extends Timed>(scores: readonly T[]): T[][] {
  const sorted = [...scores].sort((a, b) => a.timeAchieved - b.timeAchieved);
  const groups: T[][] = [];
  for (const score of sorted) {
    const current = groups.at(-1);
    if (current && score.timeAchieved < current[current.length - 1].timeAchieved + SESSION_GAP_MS) current.push(score);
    else groups.push([score]);
  }
  return groups;
}

/** Whether a group [start, end] belongs with an existing session: it lies within the gap of the session's span. */
export function extendsSession(session: { timeStarted: number; timeEnded: number }, start: number, end: number): boolean {
  return start < session.timeEnded + SESSION_GAP_MS && end > session.timeStarted - SESSION_GAP_MS;
}

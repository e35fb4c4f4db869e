import type { GptSupport } from '../../game-support/types.js';

/** A lamp and grade, as indexes into the GPT's order. */
export interface EnumIndexes {
  lampIndex: number;
  gradeIndex: number;
}

/** What a session raised on one folder: the charts that reached a lamp or grade (or better) for the first time. */
export interface FolderRaise<F> {
  folder: F;
  type: 'lamp' | 'grade';
  /** The lamp or grade reached. */
  value: string;
  /** The folder's charts at this value or better before the session. */
  previousCount: number;
  /** The charts the session brought to this value or better. */
  raisedCharts: string[];
  totalCharts: number;
}

export interface FolderRaiseInput<F extends { folderID: string }> {
  /** The folders holding charts the session played, in the order to report them. */
  folders: readonly F[];
  chartCounts: ReadonlyMap<string, number>;
  /** Which of the session's charts each folder holds. */
  sessionCharts: readonly { folderID: string; chartID: string }[];
  /** The player's best lamp and grade on each chart of these folders before the session (charts never played before: no entry). */
  before: readonly ({ folderID: string; chartID: string } & EnumIndexes)[];
  /** The player's best lamp and grade in the session, per chart. */
  inSession: ReadonlyMap<string, EnumIndexes>;
}

const METRICS = [
  { type: 'lamp', key: 'lampIndex' },
  { type: 'grade', key: 'gradeIndex' },
] as const;

/**
 * The session's raises on each folder: for the lamps from the GPT's clear lamp up and the grades
 * from its clear grade up (lower ones are not worth reporting), each value a chart reached in the
 * session above what it had before counts that chart as raised to the value (an EXCESSIVE CLEAR
 * over an earlier CLEAR raises EXCESSIVE CLEAR only; over no play, CLEAR and EXCESSIVE CLEAR).
 * Folders in the given order, lamps before grades, values from lowest; values nothing reached are left out.
 */
export function folderRaises<F extends { folderID: string }>(gpt: GptSupport, input: FolderRaiseInput<F>): FolderRaise<F>[] {
  const values = { lamp: gpt.lamps, grade: gpt.grades };
  const lowest = { lamp: gpt.lamps.indexOf(gpt.clearLamp), grade: gpt.grades.indexOf(gpt.clearGrade) };
  const raises: FolderRaise<F>[] = [];
  for (const folder of input.folders) {
    const before = new Map(input.before.filter((b) => b.folderID === folder.folderID).map((b) => [b.chartID, b]));
    const played = input.sessionCharts.filter((c) => c.folderID === folder.folderID).map((c) => c.chartID);
    for (const { type, key } of METRICS) {
      const raised = new Map<number, string[]>();
      for (const chartID of played) {
        const now = input.inSession.get(chartID)?.[key];
        if (now === undefined) continue;
        const had = before.get(chartID)?.[key] ?? -1;
        for (let v = Math.max(lowest[type], had + 1); v <= now; v++) raised.set(v, [...(raised.get(v) ?? []), chartID]);
      }
      for (const v of [...raised.keys()].sort((a, b) => a - b)) {
        raises.push({
          folder,
          type,
          value: values[type][v],
          previousCount: [...before.values()].filter((b) => b[key] >= v).length,
          raisedCharts: raised.get(v)!,
          totalCharts: input.chartCounts.get(folder.folderID) ?? 0,
        });
      }
    }
  }
  return raises;
}

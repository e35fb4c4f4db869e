import type { GptSupport } from '../game-support/types.js';
import type { FolderStatsSource } from '../presenters/folder-stats.presenter.js';
import type { FolderEnumCount } from '../repositories/ugpt-folders.repository.js';

/** Every value of an ordered enum with its count (0 when none), in the enum's order. */
function distribution(values: readonly string[], counts: ReadonlyMap<number, number>): Record<string, number> {
  return Object.fromEntries(values.map((value, index) => [value, counts.get(index) ?? 0]));
}

/**
 * A player's lamp and grade distributions on a folder, from the counts of their PBs per lamp index
 * and per grade index (the GPT's lamps and grades give the names and the order). Counts of an index
 * the GPT does not have are dropped.
 */
export function folderStats(gpt: GptSupport, folderID: string, chartCount: number, counts: readonly FolderEnumCount[]): FolderStatsSource {
  const lamps = new Map<number, number>();
  const grades = new Map<number, number>();
  for (const c of counts) {
    if (c.folderID !== folderID) continue;
    const into = c.metric === 'lamp' ? lamps : grades;
    into.set(c.index, (into.get(c.index) ?? 0) + c.count);
  }
  return { folderID, chartCount, lamps: distribution(gpt.lamps, lamps), grades: distribution(gpt.grades, grades) };
}

/**
 * The index of a lamp or grade named in a query: its name (Tachi's current form, e.g. `HARD CLEAR`),
 * or its index as a non-negative integer (Tachi's older form). Undefined when it is neither.
 */
export function enumIndex(values: readonly string[], value: string): number | undefined {
  const byName = values.indexOf(value);
  if (byName !== -1) return byName;
  if (/^\d+$/.test(value) && Number(value) < values.length) return Number(value);
  return undefined;
}

import type { Tx } from '../../database/database.js';
import { upsertRows } from '../../database/bulk-write.js';
import { bmsCourses } from '../../database/schema.js';
import { findGpt } from '../../game-support/registry.js';
import { bmsCourseRecord, type BmsCourseRecord } from '../seed-records.js';
import type { SeedSource } from '../seed-source.js';
import { diffWithStored, isSupportedGpt, readArray, validate, type Collection, type Diff, type SeedLoad } from './collections.js';

/** BMS courses (bms-course-lookup.json): the class a cleared course gives. Read only when bms is loaded. */

export async function readCourses(load: SeedLoad, source: SeedSource, selected: ReadonlySet<string>): Promise<Collection<BmsCourseRecord>> {
  const file = 'bms-course-lookup.json';
  const raw = selected.size === 0 || selected.has('bms') ? ((await readArray(load, source, file)) ?? []) : [];
  // one course per (set, playtype, value): the class a clear gives must name one course
  const courses = new Map<string, string>();
  return validate(
    load,
    file,
    raw,
    bmsCourseRecord,
    (c) => c.md5sums,
    (c) => {
      if (!isSupportedGpt('bms', c.playtype)) return `unsupported game/playtype bms:${c.playtype}`;
      const classes = findGpt('bms', c.playtype)!.classes;
      const set = Object.hasOwn(classes, c.set) ? classes[c.set] : undefined;
      if (!set) return `bms ${c.playtype} has no class set ${c.set}`;
      const valueID = typeof c.value === 'number' ? set.values[c.value]?.id : c.value;
      if (!valueID || !set.values.some((v) => v.id === valueID)) return `${c.set} has no value ${c.value}`;
      const key = `${c.set}|${c.playtype}|${valueID}`;
      if (courses.has(key)) return `duplicate course for ${c.playtype} ${c.set} ${valueID}: '${courses.get(key)}' already is`;
      courses.set(key, c.title);
      return undefined;
    },
  );
}

export function diffCourses(load: SeedLoad, collection: Collection<BmsCourseRecord>): Promise<Diff<BmsCourseRecord>> {
  return diffWithStored(load, collection, bmsCourses, bmsCourses.md5sums, bmsCourses.seedHash, (r) => r.md5sums);
}

export async function writeCourses(tx: Tx, diff: Diff<BmsCourseRecord>, tick: (n: number) => void) {
  await upsertRows(
    tx,
    bmsCourses,
    ['md5sums'],
    diff.write.map((a) => courseRow(a.record, a.hash)),
    tick,
  );
}

function courseRow(c: BmsCourseRecord, hash: string): typeof bmsCourses.$inferInsert {
  const set = findGpt('bms', c.playtype)!.classes[c.set];
  const value = typeof c.value === 'number' ? set.values[c.value].id : c.value;
  return { md5sums: c.md5sums, title: c.title, set: c.set, playtype: c.playtype, value, seedHash: hash };
}

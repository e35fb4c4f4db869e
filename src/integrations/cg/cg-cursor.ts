import { createHash } from 'node:crypto';
import { cgPlayTime } from '../../imports/import-types/api-cg/cg-common.js';

/** How far before the newest synced play a play CG lists late (a cabinet that uploads after an outage) is still caught. */
export const CG_LOOKBACK_MS = 14 * 24 * 60 * 60 * 1000;

/**
 * Where the last successful sync of one CG import type stopped. CG has no paging and no cursor of its
 * own: it sends every play each time, so the sync keeps only the plays it has not handed over before.
 * - `newest`: the newest play time seen (ISO). A play after it is new.
 * - `seen`: fingerprints of the plays CG listed with a time from `newest` minus CG_LOOKBACK_MS on. A play
 *   in that window is new unless its fingerprint is listed: this keeps a second play at the same time as
 *   the newest one (CG's times have whole seconds) and a play CG lists only later with an older time.
 *   A play older than the window counts as synced.
 * - `undated`: fingerprints of plays whose time cannot be read (each is that play's error once, not on
 *   every sync).
 * A fingerprint is a hash of the play's canonical JSON. A cursor that cannot be read counts as none:
 * every play is sent again, which the import's dedupe makes harmless.
 */
export interface CgCursor {
  v: 1;
  newest: string | null;
  seen: string[];
  undated: string[];
}

/** JSON with object keys sorted, so that the same play always has the same text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function fingerprint(item: unknown): string {
  return createHash('sha256').update(canonical(item)).digest('base64url').slice(0, 16);
}

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

/** The stored cursor, or null (first sync, or a cursor of another shape). */
export function readCgCursor(cursor: unknown): CgCursor | null {
  if (typeof cursor !== 'object' || cursor === null) return null;
  const c = cursor as Partial<CgCursor>;
  if (c.v !== 1 || !isStrings(c.seen) || !isStrings(c.undated)) return null;
  if (c.newest !== null && (typeof c.newest !== 'string' || Number.isNaN(Date.parse(c.newest)))) return null;
  return { v: 1, newest: c.newest ?? null, seen: c.seen, undated: c.undated };
}

/** The plays of CG's answer that the last sync (`previous`) did not hand over, and the cursor to store after this one. */
export function selectNewPlays(items: readonly unknown[], previous: CgCursor | null): { fresh: unknown[]; cursor: CgCursor } {
  const prevNewest = previous?.newest ? Date.parse(previous.newest) : null;
  const prevSeen = new Set(previous?.seen ?? []);
  const prevUndated = new Set(previous?.undated ?? []);
  const plays = items.map((item) => {
    const time = typeof item === 'object' && item !== null ? cgPlayTime((item as { dateTime?: unknown }).dateTime) : undefined;
    return { item, time, fp: fingerprint(item) };
  });

  const fresh = plays
    .filter(({ time, fp }) => {
      if (previous === null) return true;
      if (time === undefined) return !prevUndated.has(fp);
      if (prevNewest === null || time > prevNewest) return true;
      return time >= prevNewest - CG_LOOKBACK_MS && !prevSeen.has(fp);
    })
    .map((p) => p.item);

  let newest = prevNewest;
  for (const { time } of plays) if (time !== undefined && (newest === null || time > newest)) newest = time;
  const seen = new Set<string>();
  if (newest !== null) for (const { time, fp } of plays) if (time !== undefined && time >= newest - CG_LOOKBACK_MS) seen.add(fp);
  const undated = new Set(plays.filter((p) => p.time === undefined).map((p) => p.fp));

  return { fresh, cursor: { v: 1, newest: newest === null ? null : new Date(newest).toISOString(), seen: [...seen], undated: [...undated] } };
}

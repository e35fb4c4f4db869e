import { createHash } from 'node:crypto';

/**
 * Canonical JSON as Tachi hashes it: object keys sorted by JavaScript's default string order, no
 * whitespace, strings JSON-escaped with non-ASCII left raw, numbers in JavaScript's default form,
 * arrays in order. `undefined` is not representable and throws.
 */
export function canonicalJson(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
    case 'boolean':
      return String(value);
    case 'object': {
      if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
      const entries = Object.keys(value as object)
        .sort()
        .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
      return `{${entries.join(',')}}`;
    }
    default:
      throw new Error(`canonicalJson cannot represent a value of type ${typeof value}`);
  }
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** folderID = "F" + sha256 of {game, playtype, ...data}, where data's own game/playtype win and an array's indexes become keys. */
export function computeFolderID(folder: { game: string; playtype: string; data: unknown }): string {
  const data = Array.isArray(folder.data) ? Object.fromEntries(folder.data.map((v, i) => [String(i), v])) : (folder.data as Record<string, unknown>);
  return `F${sha256Hex(canonicalJson({ game: folder.game, playtype: folder.playtype, ...data }))}`;
}

/** goalID = "G" + sha256 of {charts, criteria, game, playtype}. */
export function computeGoalID(goal: { charts: unknown; criteria: unknown; game: string; playtype: string }): string {
  return `G${sha256Hex(canonicalJson({ charts: goal.charts, criteria: goal.criteria, game: goal.game, playtype: goal.playtype }))}`;
}

/** Identifies a seed record's content, so a reload can tell changed records from unchanged ones. */
export function seedHash(record: unknown): string {
  return createHash('sha1').update(canonicalJson(record)).digest('hex');
}

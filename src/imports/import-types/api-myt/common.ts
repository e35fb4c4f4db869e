import { HttpStatus } from '@nestjs/common';
import { z } from 'zod';
import type { GptSupport } from '../../../game-support/types.js';
import { ImportRejectedError } from '../../import-errors.js';
import type { ConvertedItem, ParsedImport } from '../types.js';

/** The service every MYT score names. */
export const MYT_SERVICE = 'MYT';

/** A count or score MYT sends as an int32: here a non-negative integer. */
export const count = () => z.number().int().nonnegative();
/** An enum as read from the wire: its name, or its number when the .proto does not know it. */
export const wireEnum = () => z.union([z.string(), z.number()]);

/** A sync's stored input: the items MYT streamed and the classes it reported (see src/integrations/myt). */
const INPUT = z.looseObject({ items: z.array(z.unknown()), classes: z.record(z.string(), z.string()).optional() });

/** The stored input of an `api/myt-*` import, as a whole: its items, and its classes checked against the GPT's. */
export function parseMytInput(input: unknown, gpt: GptSupport, maxScores: number): ParsedImport {
  const parsed = INPUT.safeParse(input);
  if (!parsed.success) throw new ImportRejectedError('The plays fetched from MYT could not be read: expected {items, classes?}.');
  const { items, classes = {} } = parsed.data;
  for (const [set, value] of Object.entries(classes)) {
    const known = Object.hasOwn(gpt.classes, set) ? gpt.classes[set] : undefined;
    if (!known || !known.values.some((v) => v.id === value)) {
      throw new ImportRejectedError(`MYT reported the class ${set} = '${value}', which ${gpt.game} ${gpt.playtype} does not have.`);
    }
  }
  if (items.length > maxScores) {
    throw new ImportRejectedError(`MYT sent ${items.length} plays; the limit is ${maxScores} per import.`, HttpStatus.PAYLOAD_TOO_LARGE);
  }
  return { gpt, context: { service: MYT_SERVICE, version: null }, classes, items };
}

/** An item's name in its messages: its playlog id, when it has one. */
export function itemName(item: unknown): string {
  const id = (item as { playlog_api_id?: unknown } | null)?.playlog_api_id;
  return typeof id === 'string' && id !== '' ? `playlog ${id}` : 'a playlog without an id';
}

export const problem = (item: unknown, message: string): ConvertedItem => ({ kind: 'error', message: `${itemName(item)}: ${message}` });

/** The item read with its game's schema, or that item's error naming every field that is wrong. */
export function readItem<T>(schema: z.ZodType<T>, item: unknown): { ok: true; value: T } | { ok: false; error: ConvertedItem } {
  const parsed = schema.safeParse(item);
  if (parsed.success) return { ok: true, value: parsed.data };
  const fields = parsed.error.issues.map((i) => `${i.path.length ? i.path.join('.') : 'item'}: ${i.message}`).join('; ');
  return { ok: false, error: problem(item, `malformed item (${fields}).`) };
}

/** Marks an enum value that is a play to skip (WORLD'S END, Utage). */
export const SKIP = Symbol('skip');

/**
 * An enum value of the item mapped through `table` (keyed by the name without its prefix). UNSPECIFIED, a number the
 * .proto does not know, or a name outside the table is the item's error (a string); SKIP passes through.
 */
export function mapEnum<V>(
  field: string,
  raw: string | number,
  prefix: string,
  table: Readonly<Record<string, V | typeof SKIP>>,
): V | typeof SKIP | { error: string } {
  if (raw === `${prefix}UNSPECIFIED` || raw === 0) return { error: `${field} is UNSPECIFIED.` };
  const name = typeof raw === 'string' && raw.startsWith(prefix) ? raw.slice(prefix.length) : undefined;
  if (name === undefined || !Object.hasOwn(table, name)) return { error: `${field} has the unknown value ${JSON.stringify(raw)}.` };
  return table[name];
}

export const isError = (value: unknown): value is { error: string } => typeof value === 'object' && value !== null && 'error' in value;

/** A play date's time in ms, or the item's error: MYT's dates are ISO 8601 with an offset. */
export function playTime(date: string): number | { error: string } {
  const time = Date.parse(date);
  return date === '' || Number.isNaN(time) ? { error: `its play date ${JSON.stringify(date)} is not a date.` } : time;
}

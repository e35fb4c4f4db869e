import { HttpStatus } from '@nestjs/common';
import { z } from 'zod';
import type { GptSupport } from '../../../game-support/types.js';
import { ImportRejectedError } from '../../import-errors.js';
import type { ConvertedItem, ParsedImport } from '../types.js';

/** CG's three deployments, each its own linked service (`cg-dev`, `cg-nag`, `cg-gan`). */
export const CG_SERVICES = ['dev', 'nag', 'gan'] as const;
export type CgService = (typeof CG_SERVICES)[number];

/** A score's `service`, as Tachi names it: the development deployment is "CG Dev", the others "CG". */
export function cgServiceName(service: CgService): string {
  return service === 'dev' ? 'CG Dev' : 'CG';
}

const NO_ZONE = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,3})?$/;

/**
 * A CG `dateTime` in Unix milliseconds, or undefined when it cannot be read. CG writes
 * `2019-06-06 08:14:22` with no zone; it is read as UTC (not the server's local time, as Tachi's
 * Date.parse would), so the result does not depend on where the server runs. A string with a zone
 * is read with it. Impossible dates (2023-02-30) are refused rather than rolled over.
 */
export function cgPlayTime(dateTime: unknown): number | undefined {
  if (typeof dateTime !== 'string' || dateTime.length > 64) return undefined;
  if (NO_ZONE.test(dateTime)) {
    const iso = `${dateTime.replace(' ', 'T')}Z`;
    const ms = Date.parse(iso);
    if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 19) !== iso.slice(0, 19)) return undefined;
    return ms;
  }
  const ms = Date.parse(dateTime);
  return Number.isNaN(ms) ? undefined : ms;
}

/** The message of an item whose dateTime cannot be read. */
export function badTime(dateTime: string): ConvertedItem {
  return { kind: 'error', message: `Invalid dateTime '${dateTime.slice(0, 64)}': expected a date such as 2024-05-01 18:30:00.` };
}

/** What an `api/cg-*` import keeps: the fetched plays (FromApiFetchResult's items). */
export interface CgImportInput {
  items: unknown[];
}

/** Checks the stored input as a whole: an object with the list of plays, within the import's limit. */
export function parseCgInput(input: unknown, gpt: GptSupport, service: CgService, maxScores: number): ParsedImport {
  if (typeof input !== 'object' || input === null || !Array.isArray((input as { items?: unknown }).items)) {
    throw new ImportRejectedError('A CG import needs the plays fetched from CG: an object with an items array.');
  }
  const { items } = input as CgImportInput;
  if (items.length > maxScores) {
    throw new ImportRejectedError(
      `CG sent ${items.length} plays; the limit is ${maxScores} per import. Ask the administrator to raise IMPORT_MAX_SCORES.`,
      HttpStatus.PAYLOAD_TOO_LARGE,
    );
  }
  return { gpt, context: { service: cgServiceName(service), version: null }, classes: {}, items };
}

/** A count CG sends: an integer of 0 or more. */
export const count = () => z.number().int().nonnegative();

/** Checks one item against its game's schema (keys beyond it are dropped); a failure is that item's error only. */
export function readItem<T>(schema: z.ZodType<T>, item: unknown, game: string): { ok: true; item: T } | { ok: false; error: ConvertedItem } {
  const parsed = schema.safeParse(item);
  if (parsed.success) return { ok: true, item: parsed.data };
  const why = parsed.error.issues.map((i) => `${i.path.length ? i.path.join('.') : 'score'}: ${i.message}`).join('; ');
  return { ok: false, error: { kind: 'error', message: `Invalid CG ${game} score: ${why}.` } };
}

/** An error for a value outside a CG enum. */
export function unknownValue(field: string, value: unknown, expected: string): ConvertedItem {
  return { kind: 'error', message: `Unknown ${field} ${JSON.stringify(value)}: expected ${expected}.` };
}

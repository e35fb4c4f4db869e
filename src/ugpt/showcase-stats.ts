import { BadRequestException, Injectable, type PipeTransform } from '@nestjs/common';
import { z } from 'zod';
import type { StatDocument } from '../database/schema.js';
import type { GptSupport } from '../game-support/types.js';
import { CHART_STAT_PROPERTIES, FOLDER_STAT_PROPERTIES } from '../presenters/ugpt-settings.presenter.js';

export { CHART_STAT_PROPERTIES, FOLDER_STAT_PROPERTIES };

export const STAT_MODES = ['chart', 'folder'] as const;
/** Spec part 8: a showcase holds up to 6 stats. */
export const SHOWCASE_MAX_STATS = 6;

const id = z.string().min(1).max(100);

/** Spec StatDocument, strictly: no keys beyond those of its mode. */
export const statSchema = z.discriminatedUnion('mode', [
  z.strictObject({ mode: z.literal('chart'), chartID: id, property: z.enum(CHART_STAT_PROPERTIES) }),
  z.strictObject({ mode: z.literal('folder'), folderID: id, property: z.enum(FOLDER_STAT_PROPERTIES), gte: z.number() }),
]);

const statListSchema = z.array(statSchema).max(SHOWCASE_MAX_STATS, `A showcase holds at most ${SHOWCASE_MAX_STATS} stats.`);

function describe(error: z.ZodError): string {
  const issue = error.issues[0];
  const at = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
  return at ? `stats${at}: ${issue.message}` : issue.message;
}

/**
 * A stat of a PUT/PATCH body (a JSON array, which no DTO describes): Tachi's name of the measured
 * value, `metric` (what Tachi's web client and today's Tachi documents use), read as `property` (the
 * spec's). Either name is taken in both profiles; both at once is a 400. (A query's stat is a DTO,
 * whose `property` TachiName renames.)
 */
function withProperty(raw: unknown, at: string): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || !('metric' in raw)) return raw;
  const { metric, ...rest } = raw as Record<string, unknown>;
  if ('property' in rest) throw new BadRequestException(`${at}give property or metric (Tachi's name of it), not both.`);
  return { ...rest, property: metric };
}

/** Parses one stat (e.g. built from a query) strictly; 400 with the first problem otherwise. */
export function parseStat(raw: unknown): StatDocument {
  const parsed = statSchema.safeParse(raw);
  if (!parsed.success) throw new BadRequestException(describe(parsed.error).replace(/^stats\./, ''));
  return parsed.data;
}

/** The PATCH /showcase body: a JSON array of at most 6 StatDocuments. */
@Injectable()
export class StatListPipe implements PipeTransform<unknown, StatDocument[]> {
  transform(value: unknown): StatDocument[] {
    if (!Array.isArray(value)) throw new BadRequestException('The body must be a JSON array of stats.');
    const parsed = statListSchema.safeParse(value.map((stat, i) => withProperty(stat, `stats[${i}]: `)));
    if (!parsed.success) throw new BadRequestException(describe(parsed.error));
    return parsed.data;
  }
}

/**
 * Why a folder stat's gte cannot be reached by the property, or undefined when it is valid:
 * grade and lamp need an index into the GPT's grades or lamps, score at least 0, percent 0 to percentMax.
 */
export function gteProblem(gpt: GptSupport, stat: Extract<StatDocument, { mode: 'folder' }>): string | undefined {
  const { property, gte } = stat;
  if (property === 'grade' || property === 'lamp') {
    const list = property === 'grade' ? gpt.grades : gpt.lamps;
    if (!Number.isInteger(gte) || gte < 0 || gte >= list.length) return `gte must be the index of a ${property} (0 to ${list.length - 1}: ${list.join(', ')})`;
  }
  if (property === 'score' && gte < 0) return 'gte must be at least 0 for score';
  if (property === 'percent' && (gte < 0 || gte > gpt.percentMax)) return `gte must be from 0 to ${gpt.percentMax} for percent`;
  return undefined;
}

import { z } from 'zod';
import type { GptSupport, HeadMetric, HeadNames, RawScoreElement, ScoreData } from '../types.js';

/**
 * Today's Tachi (HEAD) names of a GPT's score. A GPT whose HEAD metrics are this service's (provided score and lamp,
 * derived grade, and percent where grades go by percent) has no `head`: headNamesOf builds it from the GPT.
 */

export const enumMetric = (values: readonly string[], description: string, minimumRelevantValue?: string): HeadMetric => ({
  type: 'ENUM',
  description,
  values,
  ...(minimumRelevantValue === undefined ? {} : { minimumRelevantValue }),
});

export const integerMetric = (description: string): HeadMetric => ({ type: 'INTEGER', description });
export const decimalMetric = (description: string): HeadMetric => ({ type: 'DECIMAL', description });

export const lampMetric = (gpt: Pick<GptSupport, 'lamps' | 'clearLamp'>): HeadMetric => enumMetric(gpt.lamps, 'The lamp.', gpt.clearLamp);
export const gradeMetric = (gpt: Pick<GptSupport, 'grades' | 'clearGrade'>): HeadMetric =>
  enumMetric(gpt.grades, 'The grade, derived from the score.', gpt.clearGrade);

/** A metric's place in its values; -1 when it is not one of them. */
export const indexIn = (values: readonly string[], value: unknown): number => (typeof value === 'string' ? values.indexOf(value) : -1);

/** The enum indexes every scoreData has (HEAD's, where the names are shared). */
const sharedIndexes = (scoreData: ScoreData) => ({ lamp: scoreData.lampIndex, grade: scoreData.gradeIndex });

/** The HEAD names of a GPT with none of its own: the service's metrics under their own names. */
function plainHead(gpt: GptSupport): HeadNames {
  return {
    providedMetrics: { score: integerMetric('The score.'), lamp: lampMetric(gpt) },
    derivedMetrics: {
      ...(gpt.gradeMetric === 'percent' ? { percent: decimalMetric('The percent, derived from the score.') } : {}),
      grade: gradeMetric(gpt),
    },
    defaultMetric: gpt.gradeMetric,
    preferredDefaultEnum: gpt.preferredDefaultEnum ?? 'grade',
    fromHead: (element) => element,
    toHead: (scoreData) => ({ metrics: {}, enumIndexes: sharedIndexes(scoreData) }),
  };
}

export function headNamesOf(gpt: GptSupport): HeadNames {
  return gpt.head ?? plainHead(gpt);
}

/** A scoreData's HEAD metrics, and every enum index: the service's (lamp, grade) and HEAD's own. */
export function toHeadScoreData(gpt: GptSupport, scoreData: ScoreData): { metrics: Record<string, unknown>; enumIndexes: Record<string, number> } {
  const { metrics, enumIndexes } = headNamesOf(gpt).toHead(scoreData);
  return { metrics, enumIndexes: { ...sharedIndexes(scoreData), ...enumIndexes } };
}

/** Whether the element names any of these fields (HEAD's). */
export const namesAny = (element: RawScoreElement, fields: readonly string[]): boolean => fields.some((f) => element[f] !== undefined);

/**
 * Moves top-level HEAD metrics into the element's optional metrics (`optional`, or `hitMeta` when only that is
 * sent). A value the optional metrics already hold differently is an error.
 */
export function intoOptional(element: RawScoreElement, fields: Readonly<Record<string, unknown>>): RawScoreElement | string {
  const given = (value: unknown) => value !== undefined && value !== null;
  const key = !given(element.optional) && given(element.hitMeta) ? 'hitMeta' : 'optional';
  const current = element[key] ?? {};
  if (typeof current !== 'object' || Array.isArray(current)) return element;
  const merged: Record<string, unknown> = { ...(current as Record<string, unknown>) };
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if (given(merged[name]) && merged[name] !== value)
      return `${name} is given twice, differently: ${JSON.stringify(value)} and ${key}.${name} ${JSON.stringify(merged[name])}.`;
    merged[name] = value;
  }
  return { ...element, [key]: merged };
}

/** The element without these fields. */
export function without(element: RawScoreElement, fields: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(element).filter(([k]) => !fields.includes(k)));
}

/**
 * A HEAD metric that is one of this service's fields under another name (jubeat's musicRate is `percent`, ITG's
 * scorePercent is `score`): renamed; both given must agree.
 */
export function renamed(element: RawScoreElement, head: string, own: string): RawScoreElement | string {
  if (element[head] === undefined) return element;
  if (element[own] !== undefined && element[own] !== element[head]) return `Give ${own} or its HEAD name ${head}, not both with different values.`;
  return { ...without(element, [head]), [own]: element[head] };
}

/** Whether an element's field, when given, is one of these values; the message says what was expected. */
export function oneOfProblem(element: RawScoreElement, field: string, values: readonly string[]): string | undefined {
  const value = element[field];
  if (value === undefined || (typeof value === 'string' && values.includes(value))) return undefined;
  return `Invalid ${field} ${JSON.stringify(value)}: expected one of ${values.join(', ')}.`;
}

/**
 * The HEAD names of a GPT whose score is its percent (maimai, maimai DX, GITADORA): HEAD provides `percent`, which is
 * this service's `score` (percent is derived from it, so never sent).
 */
export function percentScoreHead(gpt: Pick<GptSupport, 'lamps' | 'clearLamp' | 'grades' | 'clearGrade'>): HeadNames {
  return {
    providedMetrics: { percent: decimalMetric('The percent (the score).'), lamp: lampMetric(gpt) },
    derivedMetrics: { grade: gradeMetric(gpt) },
    defaultMetric: 'percent',
    preferredDefaultEnum: 'grade',
    fromHead: (element) => (element.score === undefined || element.score === element.percent ? renamed(element, 'percent', 'score') : element),
    toHead: () => ({ metrics: {}, enumIndexes: {} }),
  };
}

type JsonSchema = { type?: string; enum?: unknown[]; anyOf?: JsonSchema[]; items?: JsonSchema };

/** A zod schema as JSON Schema (its input side), for the config documents; what JSON Schema cannot say is left open. */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _draft, ...rest } = z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' }) as Record<string, unknown>;
  return rest;
}

/** The schema without its `null` alternative (optional metrics are nullable), and whether it had one. */
function withoutNull(schema: JsonSchema): { schema: JsonSchema; nullable: boolean } {
  const options = schema.anyOf?.filter((s) => s.type !== 'null');
  if (!schema.anyOf || !options || options.length !== 1) return { schema, nullable: false };
  return { schema: options[0], nullable: options.length < schema.anyOf.length };
}

/** One optional metric's HEAD kind, from its schema; undefined when it is none of HEAD's kinds. */
function optionalMetricOf(schema: JsonSchema): Omit<HeadMetric, 'description'> | undefined {
  const { schema: value } = withoutNull(schema);
  if (value.enum) return { type: 'ENUM', values: value.enum.map(String) };
  if (value.type === 'integer') return { type: 'INTEGER' };
  if (value.type === 'number') return { type: 'DECIMAL' };
  if (value.type === 'array' && value.items) return { type: withoutNull(value.items).nullable ? 'NULLABLE_GRAPH' : 'GRAPH' };
  return undefined;
}

/**
 * HEAD's optionalMetrics of a GPT: its optional metrics, each with its kind (and an enum's values), except those HEAD
 * provides or derives (CHUNITHM's clearLamp, pop'n's clearMedal, ...), which are in providedMetrics or derivedMetrics.
 */
export function headOptionalMetricsOf(gpt: GptSupport): Record<string, Omit<HeadMetric, 'description'>> {
  const head = headNamesOf(gpt);
  const properties = (jsonSchemaOf(gpt.optionalMetrics).properties ?? {}) as Record<string, JsonSchema>;
  const metrics: Record<string, Omit<HeadMetric, 'description'>> = {};
  for (const [name, schema] of Object.entries(properties)) {
    if (name in head.providedMetrics || name in head.derivedMetrics) continue;
    const metric = optionalMetricOf(schema);
    if (metric) metrics[name] = metric;
  }
  return metrics;
}

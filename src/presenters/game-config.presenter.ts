import { ApiProperty, type SchemaObject } from '@nestjs/swagger';
import { z } from 'zod';
import { headNamesOf, headOptionalMetricsOf, jsonSchemaOf } from '../game-support/common/head-names.js';
import { headMatchTypeName } from '../game-support/match-types.js';
import type { Difficulties, GameSupport, GptSupport, HeadMetric } from '../game-support/types.js';
import { ApiMapProperty } from './api-schema.js';
import { definePresenter } from './profile.js';

/** Spec GameConfig. */
export class GameConfigDocument {
  @ApiProperty() name!: string;
  @ApiProperty({ type: [String] }) validPlaytypes!: readonly string[];
  @ApiProperty() defaultPlaytype!: string;
}

/** Tachi's (HEAD) GameConfig: `playtypes`, no default playtype, and the game's song `data` as a JSON Schema. */
export class TachiGameConfigDocument {
  @ApiProperty() name!: string;
  @ApiProperty({ type: [String] }) playtypes!: readonly string[];
  @ApiMapProperty(true, "JSON Schema of the game's song data.") songData!: Record<string, unknown>;
}

/** JSON Schemas of the config's zod schemas, built once each. */
const SCHEMAS = new WeakMap<z.ZodType, Record<string, unknown>>();
function schemaOf(schema: z.ZodType): Record<string, unknown> {
  let json = SCHEMAS.get(schema);
  if (!json) SCHEMAS.set(schema, (json = jsonSchemaOf(schema)));
  return json;
}

export const toGameConfig = definePresenter('gameConfig', {
  spec: (game: GameSupport): GameConfigDocument => ({ name: game.name, validPlaytypes: game.playtypes, defaultPlaytype: game.defaultPlaytype }),
  tachi: (game): TachiGameConfigDocument => ({ name: game.name, playtypes: game.playtypes, songData: schemaOf(game.songData) }),
  schemas: { spec: GameConfigDocument, tachi: TachiGameConfigDocument },
});

const NO_PREFERENCES = z.strictObject({});

const DESCRIBED: SchemaObject = { type: 'object', required: ['description'], properties: { description: { type: 'string' } } };

export interface ClassSetDocument {
  type: 'PROVIDED' | 'DERIVED';
  downgradable: boolean;
  /** Lowest first; index is the value's place. */
  values: { index: number; id: string; display: string; hoverText?: string }[];
}

const CLASS_SET: SchemaObject = {
  type: 'object',
  required: ['type', 'downgradable', 'values'],
  properties: {
    type: { enum: ['PROVIDED', 'DERIVED'] },
    downgradable: { type: 'boolean' },
    values: {
      type: 'array',
      description: 'Lowest first.',
      items: {
        type: 'object',
        required: ['index', 'id', 'display'],
        properties: { index: { type: 'integer' }, id: { type: 'string' }, display: { type: 'string' }, hoverText: { type: 'string' } },
      },
    },
  },
};

const DIFFICULTIES: SchemaObject[] = [
  {
    type: 'object',
    required: ['type', 'order', 'shorthand', 'default'],
    properties: {
      type: { enum: ['FIXED'] },
      order: { type: 'array', items: { type: 'string' } },
      shorthand: { type: 'object', additionalProperties: { type: 'string' } },
      default: { type: 'string' },
    },
  },
  { type: 'object', required: ['type'], properties: { type: { enum: ['DYNAMIC'] } } },
];

/**
 * Spec GamePTConfig (idString, percentMax, default rating algorithms, classes with their
 * humanised values) plus the rest of what clients need to render and submit scores.
 */
export class GptConfigDocument {
  @ApiProperty({ description: 'game:playtype' }) idString!: string;
  @ApiProperty() percentMax!: number;
  @ApiProperty() defaultScoreRatingAlg!: string;
  @ApiProperty() defaultSessionRatingAlg!: string;
  @ApiProperty() defaultProfileRatingAlg!: string;
  @ApiMapProperty(DESCRIBED, 'Score rating algorithm → {description}.') scoreRatingAlgs!: Record<string, { description: string }>;
  @ApiMapProperty(DESCRIBED, 'Session rating algorithm → {description}.') sessionRatingAlgs!: Record<string, { description: string }>;
  @ApiMapProperty(DESCRIBED, 'Profile rating algorithm → {description}.') profileRatingAlgs!: Record<string, { description: string }>;
  @ApiMapProperty(CLASS_SET, 'Class set → its values.') classes!: Record<string, ClassSetDocument>;
  @ApiProperty({ oneOf: DIFFICULTIES }) difficulties!: Difficulties;
  @ApiProperty({ type: [String], description: 'Ascending.' }) lamps!: readonly string[];
  @ApiProperty() clearLamp!: string;
  @ApiProperty({ type: [String], description: 'Ascending.' }) grades!: readonly string[];
  @ApiProperty({
    type: 'array',
    items: { type: 'number', nullable: true },
    description: "Each grade's inclusive lower bound; null for a grade only a fail gets.",
  })
  gradeBoundaries!: (number | null)[];
  @ApiProperty({ enum: ['score', 'percent'] }) gradeMetric!: 'score' | 'percent';
  @ApiProperty() clearGrade!: string;
  @ApiProperty({ type: [String] }) judgements!: readonly string[];
  @ApiMapProperty({ type: 'string' }, 'Version id → display name.') versions!: Readonly<Record<string, string>>;
  @ApiProperty({ type: [String], description: 'batch-manual match types this GPT accepts.' }) supportedMatchTypes!: readonly string[];
  @ApiProperty({ enum: ['required', 'forbidden'], description: 'Whether batch-manual scores carry percent.' }) percentInput!: 'required' | 'forbidden';
}

const describeAlgs = (algs: Readonly<Record<string, { description: string }>>) =>
  Object.fromEntries(Object.entries(algs).map(([name, alg]) => [name, { description: alg.description }]));

/** A non-finite boundary (a grade only a fail can get) has no JSON number; it is shown as null. */
const jsonNumber = (n: number) => (Number.isFinite(n) ? n : null);

const toClassSets = (gpt: GptSupport, withDowngradable: boolean) =>
  Object.fromEntries(
    Object.entries(gpt.classes).map(([name, set]) => [
      name,
      {
        type: set.type,
        ...(withDowngradable ? { downgradable: set.downgradable } : {}),
        values: set.values.map((v, index) => ({ index, ...v })),
      },
    ]),
  );

/** One metric of Tachi's (HEAD) config: its kind, and an enum's values (ascending). */
const HEAD_METRIC: SchemaObject = {
  type: 'object',
  required: ['type'],
  properties: {
    type: { enum: ['INTEGER', 'DECIMAL', 'ENUM', 'GRAPH', 'NULLABLE_GRAPH'] },
    description: { type: 'string' },
    values: { type: 'array', items: { type: 'string' }, description: "An enum's values, ascending." },
    minimumRelevantValue: { type: 'string', description: "An enum's lowest value worth showing." },
  },
};

const TACHI_CLASS_SET: SchemaObject = {
  type: 'object',
  required: ['type', 'values'],
  properties: { type: CLASS_SET.properties!.type, values: CLASS_SET.properties!.values },
};

/**
 * Tachi's (HEAD) GamePTConfig: its provided, derived and optional metrics under HEAD's names (CHUNITHM's noteLamp and
 * clearLamp, pop'n's clearMedal, ...: src/game-support/<game>/head-names.ts), `defaultMetric`, `preferredDefaultEnum`,
 * `orderedJudgements`, class sets without `downgradable` (HEAD's PROVIDED/DERIVED says it), and chart data, score meta
 * and preferences as JSON Schemas (HEAD's are zod schemas). No `gradeBoundaries`: HEAD's config has none, and the
 * spec's are in another unit than the percent bounds older Tachi clients know. No spec-only keys (idString,
 * percentMax, lamps, grades, clear lamp and grade, percentInput). Match types by HEAD's names (tachiSongID).
 */
export class TachiGptConfigDocument {
  @ApiMapProperty(HEAD_METRIC, 'Metrics an import supplies, by name.') providedMetrics!: Readonly<Record<string, HeadMetric>>;
  @ApiMapProperty(HEAD_METRIC, 'Metrics the service derives, by name.') derivedMetrics!: Readonly<Record<string, HeadMetric>>;
  @ApiMapProperty(HEAD_METRIC, 'Metrics an import may supply, by name.') optionalMetrics!: Readonly<Record<string, Omit<HeadMetric, 'description'>>>;
  @ApiProperty({ description: 'The metric leaderboards go by (a provided or derived metric).' }) defaultMetric!: string;
  @ApiProperty({ description: 'The enum metric scores are grouped by (a provided or derived metric).' }) preferredDefaultEnum!: string;
  @ApiProperty({ oneOf: DIFFICULTIES }) difficulties!: Difficulties;
  @ApiMapProperty(DESCRIBED, 'Score rating algorithm → {description}.') scoreRatingAlgs!: Record<string, { description: string }>;
  @ApiMapProperty(DESCRIBED, 'Session rating algorithm → {description}.') sessionRatingAlgs!: Record<string, { description: string }>;
  @ApiMapProperty(DESCRIBED, 'Profile rating algorithm → {description}.') profileRatingAlgs!: Record<string, { description: string }>;
  @ApiProperty() defaultScoreRatingAlg!: string;
  @ApiProperty() defaultSessionRatingAlg!: string;
  @ApiProperty() defaultProfileRatingAlg!: string;
  @ApiMapProperty(TACHI_CLASS_SET, 'Class set → its values.') classes!: Record<string, Omit<ClassSetDocument, 'downgradable'>>;
  @ApiProperty({ type: [String] }) orderedJudgements!: readonly string[];
  @ApiMapProperty({ type: 'string' }, 'Version id → display name.') versions!: Readonly<Record<string, string>>;
  @ApiProperty({ type: [String], description: "batch-manual match types this GPT accepts, by HEAD's names." }) supportedMatchTypes!: readonly string[];
  @ApiMapProperty(true, 'JSON Schema of chart data.') chartData!: Record<string, unknown>;
  @ApiMapProperty(true, 'JSON Schema of score meta.') scoreMeta!: Record<string, unknown>;
  @ApiMapProperty(true, 'JSON Schema of the game-specific preferences.') preferences!: Record<string, unknown>;
}

export const toGptConfig = definePresenter('gptConfig', {
  spec: (gpt: GptSupport): GptConfigDocument => ({
    idString: `${gpt.game}:${gpt.playtype}`,
    percentMax: gpt.percentMax,
    defaultScoreRatingAlg: gpt.defaultScoreRatingAlg,
    defaultSessionRatingAlg: gpt.defaultSessionRatingAlg,
    defaultProfileRatingAlg: gpt.defaultProfileRatingAlg,
    scoreRatingAlgs: describeAlgs(gpt.scoreRatingAlgs),
    sessionRatingAlgs: describeAlgs(gpt.sessionRatingAlgs),
    profileRatingAlgs: describeAlgs(gpt.profileRatingAlgs),
    classes: toClassSets(gpt, true) as Record<string, ClassSetDocument>,
    difficulties: gpt.difficulties,
    lamps: gpt.lamps,
    clearLamp: gpt.clearLamp,
    grades: gpt.grades,
    gradeBoundaries: gpt.gradeBoundaries.map(jsonNumber),
    gradeMetric: gpt.gradeMetric,
    clearGrade: gpt.clearGrade,
    judgements: gpt.judgements,
    versions: gpt.versions,
    supportedMatchTypes: gpt.supportedMatchTypes,
    percentInput: gpt.percentInput,
  }),
  tachi: (gpt, spec): TachiGptConfigDocument => tachiGptConfig(gpt, spec),
  schemas: { spec: GptConfigDocument, tachi: TachiGptConfigDocument },
});

function tachiGptConfig(gpt: GptSupport, spec: GptConfigDocument): TachiGptConfigDocument {
  const head = headNamesOf(gpt);
  return {
    providedMetrics: head.providedMetrics,
    derivedMetrics: head.derivedMetrics,
    optionalMetrics: headOptionalMetricsOf(gpt),
    defaultMetric: head.defaultMetric,
    preferredDefaultEnum: head.preferredDefaultEnum,
    difficulties: gpt.difficulties,
    scoreRatingAlgs: spec.scoreRatingAlgs,
    sessionRatingAlgs: spec.sessionRatingAlgs,
    profileRatingAlgs: spec.profileRatingAlgs,
    defaultScoreRatingAlg: gpt.defaultScoreRatingAlg,
    defaultSessionRatingAlg: gpt.defaultSessionRatingAlg,
    defaultProfileRatingAlg: gpt.defaultProfileRatingAlg,
    classes: toClassSets(gpt, false) as Record<string, Omit<ClassSetDocument, 'downgradable'>>,
    orderedJudgements: gpt.judgements,
    versions: gpt.versions,
    supportedMatchTypes: gpt.supportedMatchTypes.map(headMatchTypeName),
    chartData: schemaOf(gpt.chartData),
    scoreMeta: schemaOf(gpt.scoreMeta),
    preferences: schemaOf(gpt.preferences?.schema ?? NO_PREFERENCES),
  };
}

/** GET /games/:game/:playtype. */
export class GptConfigResponse {
  @ApiProperty({ type: GptConfigDocument }) config!: GptConfigDocument;
}

/** Tachi's GET /games/:game/:playtype: the config with the GPT's counts. */
export class TachiGptConfigResponse extends GptConfigResponse {
  @ApiProperty({ type: 'integer', description: 'Scores on the GPT (counted at most once an hour).' }) scoreCount!: number;
  @ApiProperty({ type: 'integer', description: 'Players of the GPT (counted at most once an hour).' }) playerCount!: number;
  @ApiProperty({ type: 'integer', description: 'Charts of the GPT (counted at most once an hour).' }) chartCount!: number;
}

export const toGptConfigResponse = definePresenter('gptConfigResponse', {
  spec: ({ gpt }: { gpt: GptSupport; counts: { scoreCount: number; playerCount: number; chartCount: number } }): GptConfigResponse => ({
    config: toGptConfig(gpt),
  }),
  tachi: ({ counts }, { config }): TachiGptConfigResponse => ({ config, ...counts }),
  schemas: { spec: GptConfigResponse, tachi: TachiGptConfigResponse },
});

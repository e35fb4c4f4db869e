import { ApiProperty, type SchemaObject } from '@nestjs/swagger';
import type { Difficulties, GameSupport, GptSupport } from '../game-support/types.js';
import { ApiMapProperty } from './api-schema.js';

/** Spec GameConfig. */
export class GameConfigDocument {
  @ApiProperty() name!: string;
  @ApiProperty({ type: [String] }) validPlaytypes!: readonly string[];
  @ApiProperty() defaultPlaytype!: string;
}

export function toGameConfig(game: GameSupport): GameConfigDocument {
  return { name: game.name, validPlaytypes: game.playtypes, defaultPlaytype: game.defaultPlaytype };
}

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

export function toGptConfig(gpt: GptSupport): GptConfigDocument {
  return {
    idString: `${gpt.game}:${gpt.playtype}`,
    percentMax: gpt.percentMax,
    defaultScoreRatingAlg: gpt.defaultScoreRatingAlg,
    defaultSessionRatingAlg: gpt.defaultSessionRatingAlg,
    defaultProfileRatingAlg: gpt.defaultProfileRatingAlg,
    scoreRatingAlgs: describeAlgs(gpt.scoreRatingAlgs),
    sessionRatingAlgs: describeAlgs(gpt.sessionRatingAlgs),
    profileRatingAlgs: describeAlgs(gpt.profileRatingAlgs),
    classes: Object.fromEntries(
      Object.entries(gpt.classes).map(([name, set]) => [
        name,
        { type: set.type, downgradable: set.downgradable, values: set.values.map((v, index) => ({ index, ...v })) },
      ]),
    ),
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
  };
}

import { ApiProperty, type SchemaObject } from '@nestjs/swagger';
import type { StatDocument, UgptSettingsRow } from '../database/schema.js';
import { findGpt } from '../game-support/registry.js';
import { definePresenter } from './profile.js';

export const CHART_STAT_PROPERTIES = ['grade', 'lamp', 'score', 'percent', 'playcount'] as const;
export const FOLDER_STAT_PROPERTIES = ['grade', 'lamp', 'score', 'percent'] as const;

/** Spec StatDocument: a chart stat or a folder stat. */
export const STAT_VARIANTS: SchemaObject[] = [
  {
    type: 'object',
    required: ['mode', 'chartID', 'property'],
    properties: { mode: { enum: ['chart'] }, chartID: { type: 'string' }, property: { enum: [...CHART_STAT_PROPERTIES] } },
  },
  {
    type: 'object',
    required: ['mode', 'folderID', 'property', 'gte'],
    properties: {
      mode: { enum: ['folder'] },
      folderID: { type: 'string' },
      property: { enum: [...FOLDER_STAT_PROPERTIES] },
      gte: { type: 'number' },
    },
  },
];

/** Tachi's ShowcaseStatDetails: the same, with `property` named `metric`. */
export const TACHI_STAT_VARIANTS: SchemaObject[] = STAT_VARIANTS.map((variant) => ({
  ...variant,
  required: variant.required!.map((key) => (key === 'property' ? 'metric' : key)),
  properties: Object.fromEntries(Object.entries(variant.properties!).map(([key, value]) => [key === 'property' ? 'metric' : key, value])),
}));

/** A stat in a request (either name, in both profiles) or an answer (`metric` under API_PROFILE=tachi). */
export const STAT_SCHEMA: SchemaObject = {
  oneOf: [...STAT_VARIANTS, ...TACHI_STAT_VARIANTS],
  description: 'Under API_PROFILE=tachi answers name `property` `metric`, as Tachi does; requests may use either name in both profiles.',
};

/** A showcase stat: the spec's StatDocument, or Tachi's ShowcaseStatDetails, whose `property` is named `metric`. */
export const toStatDocument = definePresenter('stat', {
  spec: (stat: StatDocument): StatDocument => ({ ...stat }),
  tachi: (_stat, spec: StatDocument) =>
    spec.mode === 'chart'
      ? { mode: spec.mode, chartID: spec.chartID, metric: spec.property }
      : { mode: spec.mode, folderID: spec.folderID, metric: spec.property, gte: spec.gte },
});

/**
 * Spec UGPTSettingsDocument, with the preferences Tachi's web client keeps beside the spec's (the
 * default enum metric, table and ranking, and the GPT's own preferences).
 */
export class UgptSettingsDocument {
  @ApiProperty({ type: String, nullable: true }) preferredScoreAlg!: string | null;
  @ApiProperty({ type: String, nullable: true }) preferredSessionAlg!: string | null;
  @ApiProperty({ type: String, nullable: true }) preferredProfileAlg!: string | null;
  @ApiProperty({ type: 'array', items: STAT_SCHEMA, description: 'The stat showcase.' }) stats!: StatDocument[];
  @ApiProperty({ type: String, nullable: true, enum: ['grade', 'lamp'], description: 'The enum metric shown by default.' })
  preferredDefaultEnum!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'A tableID of this GPT shown by default.' }) defaultTable!: string | null;
  @ApiProperty({ type: String, nullable: true, enum: ['global', 'rival'], description: 'Which chart ranking is shown.' })
  preferredRanking!: 'global' | 'rival' | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      "The GPT's own preferences, each at its default until set: iidx {display2DXTra: false, bpiTarget: 0}, bms {displayTables: []}, sdvx and usc {vf6Target?}, jubeat {jubilityTarget?}; others {}.",
  })
  gameSpecific!: Record<string, unknown>;
}

/** The preferences of Tachi's UGPTSettings. */
export class TachiUgptPreferencesDocument extends UgptSettingsDocument {}

/** Tachi's UGPTSettings: whose settings they are, with the preferences in `preferences`. */
export class TachiUgptSettingsDocument {
  @ApiProperty({ type: 'integer' }) userID!: number;
  @ApiProperty() game!: string;
  @ApiProperty() playtype!: string;
  @ApiProperty({ type: TachiUgptPreferencesDocument }) preferences!: TachiUgptPreferencesDocument;
  @ApiProperty({ type: 'integer', isArray: true, description: "The user's rivals on the GPT." }) rivals!: number[];
}

/** The GPT's own preferences as a user has them: the GPT's defaults (GptSupport.preferences), overlaid with those they set. */
export function gameSpecificOf(game: string, playtype: string, stored: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return { ...findGpt(game, playtype)?.preferences?.defaults, ...stored };
}

type Preferences = Omit<UgptSettingsRow, 'userID' | 'game' | 'playtype'>;

/** A user's settings on a GPT: `settings` are the stored row, or the defaults for a user who never saved any. */
export const toUgptSettingsDocument = definePresenter('ugptSettings', {
  spec: ({
    game,
    playtype,
    settings: s,
  }: {
    userID: number;
    game: string;
    playtype: string;
    settings: Preferences;
    rivals: number[];
  }): UgptSettingsDocument => ({
    preferredScoreAlg: s.preferredScoreAlg,
    preferredSessionAlg: s.preferredSessionAlg,
    preferredProfileAlg: s.preferredProfileAlg,
    stats: s.stats.map(toStatDocument),
    preferredDefaultEnum: s.preferredDefaultEnum,
    defaultTable: s.defaultTable,
    preferredRanking: s.preferredRanking,
    gameSpecific: gameSpecificOf(game, playtype, s.gameSpecific),
  }),
  // A copy: the spec document itself would be presented again (as this document) inside its own tachi variant.
  tachi: ({ userID, game, playtype, rivals }, preferences): TachiUgptSettingsDocument => ({
    userID,
    game,
    playtype,
    preferences: { ...preferences },
    rivals: [...rivals],
  }),
  schemas: { spec: UgptSettingsDocument, tachi: TachiUgptSettingsDocument },
});

import { ApiProperty, type SchemaObject } from '@nestjs/swagger';
import type { StatDocument, UgptSettingsRow } from '../database/schema.js';
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

export const STAT_SCHEMA: SchemaObject = { oneOf: STAT_VARIANTS };

/** Spec UGPTSettingsDocument. */
export class UgptSettingsDocument {
  @ApiProperty({ type: String, nullable: true }) preferredScoreAlg!: string | null;
  @ApiProperty({ type: String, nullable: true }) preferredSessionAlg!: string | null;
  @ApiProperty({ type: String, nullable: true }) preferredProfileAlg!: string | null;
  @ApiProperty({ type: 'array', items: STAT_SCHEMA, description: 'The stat showcase.' }) stats!: StatDocument[];
}

/** The preferences of Tachi's UGPTSettings: the ones this service keeps. */
export class TachiUgptPreferencesDocument extends UgptSettingsDocument {}

/** Tachi's UGPTSettings: whose settings they are, with the preferences in `preferences`. */
export class TachiUgptSettingsDocument {
  @ApiProperty({ type: 'integer' }) userID!: number;
  @ApiProperty() game!: string;
  @ApiProperty() playtype!: string;
  @ApiProperty({ type: TachiUgptPreferencesDocument }) preferences!: TachiUgptPreferencesDocument;
}

type Preferences = Pick<UgptSettingsRow, 'preferredScoreAlg' | 'preferredSessionAlg' | 'preferredProfileAlg' | 'stats'>;

/** A user's settings on a GPT: `settings` are the stored row, or the defaults for a user who never saved any. */
export const toUgptSettingsDocument = definePresenter('ugptSettings', {
  spec: ({ settings: s }: { userID: number; game: string; playtype: string; settings: Preferences }): UgptSettingsDocument => ({
    preferredScoreAlg: s.preferredScoreAlg,
    preferredSessionAlg: s.preferredSessionAlg,
    preferredProfileAlg: s.preferredProfileAlg,
    stats: s.stats,
  }),
  tachi: ({ userID, game, playtype }, preferences): TachiUgptSettingsDocument => ({ userID, game, playtype, preferences: { ...preferences } }),
  schemas: { spec: UgptSettingsDocument, tachi: TachiUgptSettingsDocument },
});

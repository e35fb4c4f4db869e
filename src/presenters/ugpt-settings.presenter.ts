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

/** The preferences of Tachi's UGPTSettings: the ones this service keeps, and the GPT's game-specific ones. */
export class TachiUgptPreferencesDocument extends UgptSettingsDocument {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: "Tachi's per-GPT preferences, at their defaults (iidx: display2DXTra, bpiTarget; bms: displayTables; others: none).",
  })
  gameSpecific!: Record<string, unknown>;
}

/** Tachi's UGPTSettings: whose settings they are, with the preferences in `preferences`. */
export class TachiUgptSettingsDocument {
  @ApiProperty({ type: 'integer' }) userID!: number;
  @ApiProperty() game!: string;
  @ApiProperty() playtype!: string;
  @ApiProperty({ type: TachiUgptPreferencesDocument }) preferences!: TachiUgptPreferencesDocument;
  @ApiProperty({ type: 'integer', isArray: true, description: "The user's rivals on the GPT." }) rivals!: number[];
}

/**
 * Tachi's game-specific preferences of a GPT, at the defaults Tachi gives a new profile (tachi-common's
 * UGPTSpecificPreferences): IIDX's 2dxtra display and BPI target, BMS's displayed tables; the other
 * GPTs have none. The targets Tachi leaves optional (SDVX and USC's vf6Target, jubeat's
 * jubilityTarget) are absent until set, and this service does not set them.
 */
export function defaultGameSpecific(game: string): Record<string, unknown> {
  if (game === 'iidx') return { display2DXTra: false, bpiTarget: 0 };
  if (game === 'bms') return { displayTables: [] };
  return {};
}

type Preferences = Pick<UgptSettingsRow, 'preferredScoreAlg' | 'preferredSessionAlg' | 'preferredProfileAlg' | 'stats'>;

/** A user's settings on a GPT: `settings` are the stored row, or the defaults for a user who never saved any. */
export const toUgptSettingsDocument = definePresenter('ugptSettings', {
  spec: ({ settings: s }: { userID: number; game: string; playtype: string; settings: Preferences; rivals: number[] }): UgptSettingsDocument => ({
    preferredScoreAlg: s.preferredScoreAlg,
    preferredSessionAlg: s.preferredSessionAlg,
    preferredProfileAlg: s.preferredProfileAlg,
    stats: s.stats,
  }),
  tachi: ({ userID, game, playtype, rivals }, preferences): TachiUgptSettingsDocument => ({
    userID,
    game,
    playtype,
    preferences: { ...preferences, gameSpecific: defaultGameSpecific(game) },
    rivals: [...rivals],
  }),
  schemas: { spec: UgptSettingsDocument, tachi: TachiUgptSettingsDocument },
});

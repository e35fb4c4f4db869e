import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { ClassDelta, CreatedSession, ImportError, ImportRow } from '../database/schema.js';
import { definePresenter } from './profile.js';

export class ImportErrorDocument implements ImportError {
  @ApiProperty({ description: 'What kind of failure.' }) type!: string;
  @ApiProperty() message!: string;
}

export class CreatedSessionDocument implements CreatedSession {
  @ApiProperty() sessionID!: string;
  @ApiProperty({ enum: ['Created', 'Appended'] }) type!: CreatedSession['type'];
}

export class ClassDeltaDocument implements ClassDelta {
  @ApiProperty() game!: string;
  @ApiProperty() playtype!: string;
  @ApiProperty({ description: 'Class set.' }) set!: string;
  @ApiProperty({ type: String, nullable: true }) old!: string | null;
  @ApiProperty() new!: string;
}

/** Spec ImportDocument. */
export class ImportDocument {
  @ApiProperty() importID!: string;
  @ApiProperty() importType!: string;
  @ApiProperty({ type: 'integer' }) userID!: number;
  @ApiProperty({ type: String, nullable: true }) game!: string | null;
  @ApiProperty({ type: [String], description: 'game:playtype of each GPT the import touched.' }) idStrings!: string[];
  @ApiProperty({ type: [String] }) scoreIDs!: string[];
  @ApiProperty({ type: [ImportErrorDocument] }) errors!: ImportError[];
  @ApiProperty({ type: [CreatedSessionDocument] }) createdSessions!: CreatedSession[];
  @ApiProperty({ type: [ClassDeltaDocument] }) classDeltas!: ClassDelta[];
  @ApiProperty({ type: 'array', items: {} }) goalInfo!: unknown[];
  @ApiProperty({ type: 'array', items: {} }) questInfo!: unknown[];
  @ApiProperty({ description: "True when X-User-Intent was 'true'." }) userIntent!: boolean;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Unix ms.' }) timeStarted!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Unix ms.' }) timeFinished!: number | null;
  @ApiPropertyOptional({
    description: 'Present when the import brought no new score: why (nothing new since the last sync, an empty profile, every item skipped and why).',
  })
  emptyReason?: string;
}

/**
 * Tachi's ImportDocument: adds `playtypes` (the playtypes the import wrote to) and HEAD's
 * `gptStrings` (its name for idStrings), keeping `idStrings` for clients of either era.
 */
export class TachiImportDocument {
  @ApiProperty() importID!: string;
  @ApiProperty() importType!: string;
  @ApiProperty({ type: 'integer' }) userID!: number;
  @ApiProperty({ type: String, nullable: true }) game!: string | null;
  @ApiProperty({ type: [String], description: 'The playtype of each GPT the import touched.' }) playtypes!: string[];
  @ApiProperty({ type: [String], description: 'game:playtype of each GPT the import touched.' }) idStrings!: string[];
  @ApiProperty({ type: [String], description: "idStrings under Tachi's current name." }) gptStrings!: string[];
  @ApiProperty({ type: [String] }) scoreIDs!: string[];
  @ApiProperty({ type: [ImportErrorDocument] }) errors!: ImportError[];
  @ApiProperty({ type: [CreatedSessionDocument] }) createdSessions!: CreatedSession[];
  @ApiProperty({ type: [ClassDeltaDocument] }) classDeltas!: ClassDelta[];
  @ApiProperty({ type: 'array', items: {} }) goalInfo!: unknown[];
  @ApiProperty({ type: 'array', items: {} }) questInfo!: unknown[];
  @ApiProperty({ description: "True when X-User-Intent was 'true'." }) userIntent!: boolean;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Unix ms.' }) timeStarted!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Unix ms.' }) timeFinished!: number | null;
  @ApiPropertyOptional({
    description: 'Present when the import brought no new score: why (nothing new since the last sync, an empty profile, every item skipped and why).',
  })
  emptyReason?: string;
}

export const toImportDocument = definePresenter('import', {
  spec: (row: ImportRow): ImportDocument => ({
    importID: row.importID,
    importType: row.importType,
    userID: row.userID,
    game: row.game,
    idStrings: row.idStrings,
    scoreIDs: row.scoreIDs,
    errors: row.errors,
    createdSessions: row.createdSessions,
    classDeltas: row.classDeltas,
    goalInfo: row.goalInfo,
    questInfo: row.questInfo,
    userIntent: row.userIntent,
    timeStarted: row.timeStarted,
    timeFinished: row.timeFinished,
    ...(row.emptyReason ? { emptyReason: row.emptyReason } : {}),
  }),
  tachi: (_row, { importID, importType, userID, game, idStrings, ...rest }): TachiImportDocument => ({
    importID,
    importType,
    userID,
    game,
    playtypes: idStrings.map((idString) => idString.slice(idString.indexOf(':') + 1)),
    idStrings,
    gptStrings: idStrings,
    ...rest,
  }),
  schemas: { spec: ImportDocument, tachi: TachiImportDocument },
});

export class ImportFailureDocument {
  @ApiProperty() message!: string;
  @ApiProperty({ type: 'integer' }) statusCode!: number;
}

/** Tachi's FAILED import tracker: an import that wrote nothing, and why. Served only under API_PROFILE=tachi. */
export class FailedImportDocument {
  @ApiProperty({ enum: ['FAILED'] }) type!: 'FAILED';
  @ApiProperty() importID!: string;
  @ApiProperty() importType!: string;
  @ApiProperty({ type: 'integer' }) userID!: number;
  @ApiProperty({ type: 'integer', description: 'Unix ms: when it started, or was queued when it failed before starting.' }) timeStarted!: number;
  @ApiProperty() userIntent!: boolean;
  @ApiProperty({ type: ImportFailureDocument }) error!: ImportFailureDocument;
}

export function toFailedImportDocument(row: ImportRow): FailedImportDocument {
  return {
    type: 'FAILED',
    importID: row.importID,
    importType: row.importType,
    userID: row.userID,
    timeStarted: row.timeStarted ?? row.timeQueued,
    userIntent: row.userIntent,
    error: { message: row.failure?.message ?? 'This import failed.', statusCode: row.failure?.statusCode ?? 500 },
  };
}

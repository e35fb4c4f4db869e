import { ApiProperty } from '@nestjs/swagger';
import type { ClassDelta, CreatedSession, ImportError, imports } from '../database/schema.js';

export type ImportRow = typeof imports.$inferSelect;

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
}

export function toImportDocument(row: ImportRow): ImportDocument {
  return {
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
  };
}

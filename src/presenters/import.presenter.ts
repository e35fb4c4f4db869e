import type { imports } from '../database/schema.js';

export type ImportRow = typeof imports.$inferSelect;

/** Spec ImportDocument. */
export function toImportDocument(row: ImportRow) {
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

export type ImportDocument = ReturnType<typeof toImportDocument>;

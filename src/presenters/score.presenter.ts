import type { scores } from '../database/schema.js';

export type ScoreRecord = typeof scores.$inferSelect;

/** Spec ScoreDocument, with the import's provenance and the judgements also at the top level. */
export function toScoreDocument(s: ScoreRecord) {
  return {
    scoreID: s.scoreID,
    userID: s.userID,
    game: s.game,
    playtype: s.playtype,
    songID: s.songID,
    chartID: s.chartID,
    isPrimary: s.isPrimary,
    scoreData: s.scoreData,
    judgements: s.scoreData.judgements,
    calculatedData: s.calculatedData,
    scoreMeta: s.scoreMeta,
    timeAchieved: s.timeAchieved,
    timeAdded: s.timeAdded,
    service: s.service,
    importType: s.importType,
    importID: s.importID,
    comment: s.comment,
    highlighted: s.highlighted,
  };
}

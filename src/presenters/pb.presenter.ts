import type { personalBests } from '../database/schema.js';

export type PbRecord = typeof personalBests.$inferSelect;

/** Spec PBDocument, with rankingData {rank, outOf} and how the PB was composed. */
export function toPbDocument(pb: PbRecord) {
  return {
    userID: pb.userID,
    chartID: pb.chartID,
    songID: pb.songID,
    game: pb.game,
    playtype: pb.playtype,
    isPrimary: pb.isPrimary,
    scoreData: pb.scoreData,
    calculatedData: pb.calculatedData,
    rankingData: { rank: pb.rank, outOf: pb.outOf },
    composedFrom: pb.composedFrom,
    timeAchieved: pb.timeAchieved,
    highlighted: pb.highlighted,
  };
}

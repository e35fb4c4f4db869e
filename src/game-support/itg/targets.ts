import type { GptTargets } from '../types.js';

/** ITG's goal rules: a lamp goal's progress says how far into the chart a fail died ("FAILED (Died 42.5% in)"). */
export const ITG_TARGETS: GptTargets = {
  lampProgress: (scoreData) => {
    const diedAt = scoreData.optional.diedAt;
    // at most two decimal places, without trailing zeros
    return typeof diedAt === 'number' ? `${scoreData.lamp} (Died ${String(Number(diedAt.toFixed(2)))}% in)` : undefined;
  },
};

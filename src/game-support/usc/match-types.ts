import { defineMatchType } from '../common/match-type.js';

/** The spec's USC chart hash: chart data.hashSHA1, in any case (one chart file per playtype, see uniqueChartKeys). */
export const USC_CHART_HASH = defineMatchType({
  name: 'uscChartHash',
  identifier: { pattern: /^[0-9a-f]{40}$/i, description: 'a SHA1 chart hash (40 hex characters)' },
  lookup: { kind: 'chartHash', fields: ['hashSHA1'] },
  games: ['usc'],
});

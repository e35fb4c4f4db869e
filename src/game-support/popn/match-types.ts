import { defineMatchType } from '../common/match-type.js';

/** HEAD's popnChartHash: a pop'n chart's data.hashSHA256 (a string, or a list of them), in any case. */
export const POPN_CHART_HASH = defineMatchType({
  name: 'popnChartHash',
  identifier: { pattern: /^[0-9a-f]{64}$/i, description: 'a SHA256 chart hash (64 hex characters)' },
  lookup: { kind: 'chartHash', fields: ['hashSHA256'] },
  games: ['popn'],
});

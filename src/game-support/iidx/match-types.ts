import { defineMatchType } from '../common/match-type.js';

/** An extension to the spec's seven: an IIDX chart's data.hashSHA256 (the custom 2dxtra charts Fervidex names by hash). */
export const IIDX_CHART_HASH = defineMatchType({
  name: 'iidxChartHash',
  identifier: { pattern: /^[0-9a-f]{64}$/i, description: 'a SHA256 chart hash (64 hex characters)' },
  lookup: { kind: 'chartHash', fields: ['hashSHA256'] },
  games: ['iidx'],
});

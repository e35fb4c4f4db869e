import { defineMatchType } from '../common/match-type.js';

/** The spec's BMS chart hash, which PMS shares: chart data.hashMD5 or data.hashSHA256, in any case. */
export const BMS_CHART_HASH = defineMatchType({
  name: 'bmsChartHash',
  identifier: { pattern: /^([0-9a-f]{32}|[0-9a-f]{64})$/i, description: 'an MD5 (32 hex characters) or SHA256 (64 hex characters) chart hash' },
  lookup: { kind: 'chartHash', fields: ['hashMD5', 'hashSHA256'] },
  games: ['bms', 'pms'],
});

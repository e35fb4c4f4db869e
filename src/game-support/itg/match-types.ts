import { defineMatchType, IDENTIFIERS } from '../common/match-type.js';

/** HEAD's only ITG match type, an extension to the spec's seven: chart data.hashGSv3, in any case. */
export const ITG_CHART_HASH = defineMatchType({
  name: 'itgChartHash',
  identifier: IDENTIFIERS.anyText('an ITG chart hash (GSv3)'),
  lookup: { kind: 'chartHash', fields: ['hashGSv3'] },
  games: ['itg'],
});

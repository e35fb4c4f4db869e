import { defineMatchType, IDENTIFIERS } from '../common/match-type.js';

/** sdvxInGameID's ANY_INF stands for the fourth difficulty, whatever a version calls it. */
export const ANY_INF = 'ANY_INF';
export const INF_DIFFICULTIES = ['INF', 'GRV', 'HVN', 'VVD', 'XCD'];

/** The spec's SDVX in-game id: chart data.inGameID and a difficulty, where ANY_INF is the fourth difficulty of any version. */
export const SDVX_IN_GAME_ID = defineMatchType({
  name: 'sdvxInGameID',
  identifier: IDENTIFIERS.nonNegativeInteger('an in-game id: a non-negative integer written as a string'),
  lookup: { kind: 'chartInGameID', fields: ['inGameID'], difficultyAliases: { [ANY_INF]: INF_DIFFICULTIES } },
  games: ['sdvx'],
});

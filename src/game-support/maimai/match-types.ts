import { defineMatchType, IDENTIFIERS } from '../common/match-type.js';

/**
 * HEAD's inGameStrID: chart data.inGameStrID (a string, exactly as the game writes it) and the difficulty. Tachi HEAD
 * declares it for the games whose charts carry that field: maimai (besides its numeric inGameID) and Arcaea. maimai DX
 * charts have no inGameStrID at HEAD (only a numeric inGameID), so maimai DX does not list it.
 */
export const IN_GAME_STR_ID = defineMatchType({
  name: 'inGameStrID',
  identifier: IDENTIFIERS.anyText('an in-game string id'),
  lookup: { kind: 'chartData', field: 'inGameStrID', what: 'the in-game string id' },
  games: ['maimai', 'arcaea'],
});

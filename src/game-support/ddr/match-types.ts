import { defineMatchType, IDENTIFIERS } from '../common/match-type.js';

/** The spec's DDR song hash: song data.ddrSongHash, exactly as the game writes it, then the chart of the difficulty. */
export const DDR_SONG_HASH = defineMatchType({
  name: 'ddrSongHash',
  identifier: IDENTIFIERS.anyText('a DDR song hash'),
  lookup: { kind: 'songData', field: 'ddrSongHash', what: 'the song hash' },
  games: ['ddr'],
});

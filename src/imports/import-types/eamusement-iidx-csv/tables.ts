/** The e-amusement name of the version each song debuted in (the CSV's first cell) → the game's version number. */
export const VERSION_NAMES: Readonly<Record<string, number>> = {
  '1st&substream': 1,
  '2nd style': 2,
  '3rd style': 3,
  '4th style': 4,
  '5th style': 5,
  '6th style': 6,
  '7th style': 7,
  '8th style': 8,
  '9th style': 9,
  '10th style': 10,
  'IIDX RED': 11,
  'HAPPY SKY': 12,
  DistorteD: 13,
  GOLD: 14,
  'DJ TROOPERS': 15,
  EMPRESS: 16,
  SIRIUS: 17,
  'Resort Anthem': 18,
  Lincle: 19,
  tricoro: 20,
  SPADA: 21,
  PENDUAL: 22,
  copula: 23,
  SINOBUZ: 24,
  'CANNON BALLERS': 25,
  Rootage: 26,
  'HEROIC VERSE': 27,
  BISTROVER: 28,
  CastHour: 29,
  RESIDENT: 30,
  EPOLIS: 31,
  'Pinky Crush': 32,
  'Sparkle Shower': 33,
};

/** The CSV's クリアタイプ → the iidx lamp. */
export const LAMPS: Readonly<Record<string, string>> = {
  'NO PLAY': 'NO PLAY',
  FAILED: 'FAILED',
  'ASSIST CLEAR': 'ASSIST CLEAR',
  'EASY CLEAR': 'EASY CLEAR',
  CLEAR: 'CLEAR',
  'HARD CLEAR': 'HARD CLEAR',
  'EX HARD CLEAR': 'EX HARD CLEAR',
  'FULLCOMBO CLEAR': 'FULL COMBO',
};

/** The two layouts, by the header's cell count: the difficulty of each 7-cell block, in order. */
export const LAYOUTS: Readonly<Record<number, readonly string[]>> = {
  // Before HEROIC VERSE.
  27: ['NORMAL', 'HYPER', 'ANOTHER'],
  // HEROIC VERSE onwards.
  41: ['BEGINNER', 'NORMAL', 'HYPER', 'ANOTHER', 'LEGGENDARIA'],
};

/** Cells before the first difficulty block: version, title, genre, artist, play count. */
export const LEADING_CELLS = 5;
export const BLOCK_CELLS = 7;

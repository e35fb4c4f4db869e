import { ARCAEA } from './arcaea/index.js';
import { BMS } from './bms/index.js';
import { CHUNITHM } from './chunithm/index.js';
import { DDR } from './ddr/index.js';
import { GITADORA } from './gitadora/index.js';
import { IIDX } from './iidx/index.js';
import { ITG } from './itg/index.js';
import { JUBEAT } from './jubeat/index.js';
import { MAIMAI } from './maimai/index.js';
import { MAIMAIDX } from './maimaidx/index.js';
import { MUSECA } from './museca/index.js';
import { ONGEKI } from './ongeki/index.js';
import { PMS } from './pms/index.js';
import { POPN } from './popn/index.js';
import { SDVX } from './sdvx/index.js';
import { USC } from './usc/index.js';
import { WACCA } from './wacca/index.js';
import type { GameSupport, GptSupport } from './types.js';

/** Every supported game, in display order. Adding a game is a folder under src/games and one line here. */
export const GAMES: readonly GameSupport[] = [
  IIDX,
  BMS,
  PMS,
  SDVX,
  USC,
  CHUNITHM,
  ONGEKI,
  MAIMAI,
  MAIMAIDX,
  POPN,
  JUBEAT,
  DDR,
  GITADORA,
  MUSECA,
  WACCA,
  ITG,
  ARCAEA,
];

const BY_ID = new Map(GAMES.map((g) => [g.game, g]));

export function findGame(game: string): GameSupport | undefined {
  return BY_ID.get(game);
}

/** Own properties only: a playtype such as 'constructor' must not reach Object.prototype. */
export function findGpt(game: string, playtype: string): GptSupport | undefined {
  const support = BY_ID.get(game);
  return support && Object.hasOwn(support.gpts, playtype) ? support.gpts[playtype] : undefined;
}

export function allGpts(): GptSupport[] {
  return GAMES.flatMap((g) => g.playtypes.map((p) => g.gpts[p]));
}

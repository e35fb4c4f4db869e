import { ANY_INF } from './match-types.js';

/** How e-amusement's SDVX data (KAI's play history, CG's scores) numbers a chart's difficulty: 3 is the fourth difficulty whatever the version calls it, 5 ULT (2025). */
export const EAMUSEMENT_SDVX_DIFFICULTIES = ['NOV', 'ADV', 'EXH', ANY_INF, 'MXM', 'ULT'] as const;
/** e-amusement's SDVX version number → the GPT's version. */
export const EAMUSEMENT_SDVX_VERSIONS: Readonly<Record<number, string>> = { 1: 'booth', 2: 'inf', 3: 'gw', 4: 'heaven', 5: 'vivid', 6: 'exceed' };
/** e-amusement's SDVX clear type → lamp. */
export const EAMUSEMENT_SDVX_LAMPS: Readonly<Record<number, string>> = {
  1: 'FAILED',
  2: 'CLEAR',
  3: 'EXCESSIVE CLEAR',
  4: 'ULTIMATE CHAIN',
  5: 'PERFECT ULTIMATE CHAIN',
  6: 'MAXXIVE CLEAR',
};

import { ImportRejectedError } from '../../import-errors.js';
import type { ParsedImport } from '../types.js';
import { columnsOf, tableOf } from './csv-file.js';
import { SERVICE, WACCA_SINGLE } from './records.js';

/** `[id,name,grade]`, e.g. `[14,ステージⅩⅣ,3]`: only the id is read (the name is display text; the colour grade is no class). */
const STAGE_CELL = /^\[\s*(\d{1,3})\s*,[^,]*,[^,]*\]$/;

/** The stage-up values, stage id 1 first. */
const STAGES = WACCA_SINGLE.classes.stageUp.values;

/** The stage id (1 to 14) → the stageUp class value (I to XIV). */
export function stageUpOf(id: number): string | undefined {
  return Number.isInteger(id) && id >= 1 && id <= STAGES.length ? STAGES[id - 1].id : undefined;
}

/** The player CSV: one player record, whose stage-up is a provided class. It holds no scores. */
export function parsePlayer(input: unknown): ParsedImport<never> {
  const table = tableOf(input);
  const at = columnsOf(table, ['player_stage']);
  if (table.rows.length !== 1) throw new ImportRejectedError(`The player CSV must hold exactly one player record; this one has ${table.rows.length}.`);
  const cell = table.rows[0][at.player_stage].trim();
  const m = STAGE_CELL.exec(cell);
  if (!m) throw new ImportRejectedError(`Invalid player_stage '${cell.slice(0, 100)}': expected [id,name,grade], e.g. [14,ステージⅩⅣ,3].`);
  const stageUp = stageUpOf(Number(m[1]));
  if (stageUp === undefined) throw new ImportRejectedError(`Unknown stage id ${m[1]} in player_stage: expected 1 to ${STAGES.length}.`);
  return { gpt: WACCA_SINGLE, context: { service: SERVICE, version: null }, classes: { stageUp }, items: [] };
}

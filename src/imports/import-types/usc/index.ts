import type { ImportFormat } from '../types.js';
import { UscIrController } from './usc-ir.controller.js';
import { uscIr } from './usc-ir.js';
import { uscErrorShape } from './usc-replies.js';

/** USC's IR (`/ir/usc/:playtype/…`): score submission plus the chart, record, leaderboard and replay routes. */
export const usc: ImportFormat = { types: [uscIr], controllers: [UscIrController], errorShapes: [uscErrorShape] };

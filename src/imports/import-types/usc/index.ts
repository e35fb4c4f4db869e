import type { ImportFormat } from '../types.js';
import { UscIrController } from './usc-ir.controller.js';
import { uscIr } from './usc-ir.js';
import { UscIrService } from './usc-ir.service.js';
import { uscErrorShape } from './usc-replies.js';

/** USC's IR (`/ir/usc/:playtype/…`): score submission plus the chart, record, leaderboard and replay routes. */
export const usc: ImportFormat = { types: [uscIr], controllers: [UscIrController], providers: [UscIrService], errorShapes: [uscErrorShape] };

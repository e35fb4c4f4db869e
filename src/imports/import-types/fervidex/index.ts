import type { ImportFormat } from '../types.js';
import { FervidexController } from './fervidex.controller.js';
import { FervidexService } from './fervidex.service.js';
import { irFervidex } from './score.js';
import { irFervidexStatic } from './static.js';

/** Fervidex's clients read `error`; Tachi answered its permission and ban checks (403) with `description`. */
function render(status: number, message: string) {
  return { status, body: status === 403 ? { success: false, description: message } : { success: false, error: message } };
}

/** Fervidex (IIDX): single plays (`ir/fervidex`), profile dumps (`ir/fervidex-static`) and dan course clears, on `/ir/fervidex/…`. */
export const fervidex: ImportFormat = {
  types: [irFervidex, irFervidexStatic],
  controllers: [FervidexController],
  providers: [FervidexService],
  errorShapes: [{ pathPrefix: '/ir/fervidex/', render }],
};

import type { ImportFormat } from '../types.js';
import { BeatorajaController } from './beatoraja.controller.js';
import { BeatorajaIrService } from './beatoraja.service.js';
import { beatorajaType } from './beatoraja.type.js';

/** `ir/beatoraja`: the beatoraja/LR2oraja IR (BMS 7K/14K, PMS Controller/Keyboard); errors as `{success: false, description}`. */
export const beatoraja: ImportFormat = {
  types: [beatorajaType],
  controllers: [BeatorajaController],
  providers: [BeatorajaIrService],
  errorShapes: [{ pathPrefix: '/ir/beatoraja/', render: (status, message) => ({ status, body: { success: false, description: message } }) }],
};

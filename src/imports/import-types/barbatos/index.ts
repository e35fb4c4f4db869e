import type { ImportFormat } from '../types.js';
import { BarbatosController } from './barbatos.controller.js';
import { irBarbatos } from './barbatos.type.js';

/** Barbatos (SDVX5 and SDVX6 cabinets): errors come back as `{success: false, description}`, which the hook reads. */
export const barbatos: ImportFormat = {
  types: [irBarbatos],
  controllers: [BarbatosController],
  errorShapes: [{ pathPrefix: '/ir/barbatos/', render: (status, message) => ({ status, body: { success: false, description: message } }) }],
};

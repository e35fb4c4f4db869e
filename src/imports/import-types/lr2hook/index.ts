import type { ImportFormat } from '../types.js';
import { lr2hookCourse } from './course.js';
import { Lr2hookController } from './lr2hook.controller.js';
import { Lr2hookService } from './lr2hook.service.js';
import { lr2hook } from './lr2hook.js';

/** LR2Hook (BMS 7K): a score per play, and course clears that raise a dan. Errors in Tachi's `{success: false, description}`. */
export const lr2hookFormat: ImportFormat = {
  types: [lr2hook, lr2hookCourse],
  controllers: [Lr2hookController],
  providers: [Lr2hookService],
  errorShapes: [{ pathPrefix: '/ir/lr2hook/', render: (status, message) => ({ status, body: { success: false, description: message } }) }],
};

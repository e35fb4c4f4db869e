import type { ImportFormat } from '../types.js';
import { lr2hookCourse } from './course.js';
import { lr2hook } from './lr2hook.js';

/** LR2Hook (BMS 7K): a score per play, and course clears that raise a dan; its routes are src/ir/lr2hook/. */
export const lr2hookFormat: ImportFormat = { types: [lr2hook, lr2hookCourse] };

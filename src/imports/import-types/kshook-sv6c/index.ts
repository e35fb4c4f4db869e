import { kshookErrorShape } from '../kshook-common/kshook.js';
import type { ImportFormat } from '../types.js';
import { KshookSv6cController } from './kshook-sv6c.controller.js';
import { irKshookSv6c } from './kshook-sv6c.type.js';

/** kshook's per-play route for SOUND VOLTEX Konaste; its errors use the `error` key. */
export const kshookSv6c: ImportFormat = {
  types: [irKshookSv6c],
  controllers: [KshookSv6cController],
  errorShapes: [kshookErrorShape('/ir/kshook/sv6c/score/save')],
};

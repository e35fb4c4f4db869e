import { kshookErrorShape } from '../kshook-common/kshook.js';
import type { ImportFormat } from '../types.js';
import { KshookSv6cStaticController } from './kshook-sv6c-static.controller.js';
import { irKshookSv6cStatic } from './kshook-sv6c-static.type.js';

/** kshook's profile export for SOUND VOLTEX Konaste; its errors use the `error` key. */
export const kshookSv6cStatic: ImportFormat = {
  types: [irKshookSv6cStatic],
  controllers: [KshookSv6cStaticController],
  errorShapes: [kshookErrorShape('/ir/kshook/sv6c/score/export')],
};

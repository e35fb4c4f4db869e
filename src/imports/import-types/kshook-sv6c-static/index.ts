import type { ImportFormat } from '../types.js';
import { irKshookSv6cStatic } from './kshook-sv6c-static.type.js';

/** kshook's profile export for SOUND VOLTEX Konaste; its route is src/ir/kshook/. */
export const kshookSv6cStatic: ImportFormat = { types: [irKshookSv6cStatic] };

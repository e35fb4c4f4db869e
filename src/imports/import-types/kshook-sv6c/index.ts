import type { ImportFormat } from '../types.js';
import { irKshookSv6c } from './kshook-sv6c.type.js';

/** kshook's per-play format for SOUND VOLTEX Konaste; its route is src/ir/kshook/. */
export const kshookSv6c: ImportFormat = { types: [irKshookSv6c] };

import type { ErrorShape } from '../http/response-shapes.js';
import { fervidexErrorShape } from './fervidex/responses.js';
import { kshookErrorShape } from './kshook/kshook.http.js';
import { uscErrorShape } from './usc/usc-replies.js';

/** Tachi's `{success: false, description}`, which Barbatos, beatoraja and LR2Hook read. */
const described = (pathPrefix: string): ErrorShape => ({
  pathPrefix,
  render: (status, message) => ({ status, body: { success: false, description: message } }),
});

/** The error bodies each score hook's client reads, by route prefix (the app's exception filter applies them). */
export const IR_ERROR_SHAPES: readonly ErrorShape[] = [
  described('/ir/barbatos/'),
  described('/ir/beatoraja/'),
  fervidexErrorShape,
  kshookErrorShape('/ir/kshook/sv6c/score/save'),
  kshookErrorShape('/ir/kshook/sv6c/score/export'),
  described('/ir/lr2hook/'),
  uscErrorShape,
];

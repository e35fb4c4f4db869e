import type { Express } from 'express';
import { errorBody, type EnvelopeMode } from './envelope.js';

/**
 * Paths under /api that are not under the API's prefix (`/api`, `/api/v2/…`) answer the API's
 * JSON 404 in the profile's shape, as unknown paths under the prefix do (Nest's own 404 covers
 * those), instead of Express's HTML page.
 */
export function apiNotFound(app: Express, prefix: string, mode: EnvelopeMode): void {
  const inside = `/${prefix}`.toLowerCase();
  app.use((req, res, next) => {
    const p = req.path.toLowerCase();
    if (!(p === '/api' || p.startsWith('/api/')) || p === inside || p.startsWith(`${inside}/`)) return next();
    res.status(404).json(errorBody(mode, 404, 'Not Found', `Cannot ${req.method} ${req.path}: the API is under /${prefix}.`));
  });
}

import express, { type Express } from 'express';
import path from 'node:path';

/** Hashed build assets (`static/index.c4a6e77d.js`): a new build gets new names, so they may be cached for good. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** index.html and the other unhashed files: revalidated on every load (ETag / Last-Modified), so a new build shows at once. */
const REVALIDATE = 'no-cache';

/** Paths the web client never takes: the API, and pictures under /cdn. Express matches routes case-insensitively, so this does too. */
function isServerPath(urlPath: string): boolean {
  const p = urlPath.toLowerCase();
  return p === '/api' || p.startsWith('/api/') || p === '/cdn' || p.startsWith('/cdn/');
}

/**
 * Serves a built single-page web client (WEB_CLIENT_DIR) at `/`: its files as they are
 * (express.static, which refuses paths that leave the directory), and its index.html for any
 * other GET or HEAD outside /api and /cdn, so that client-side routes (`/u/alice/games/sdvx/Single`)
 * load the application. Other methods, and every path under /api and /cdn, go on to the server's
 * own routes and its JSON 404.
 */
export function serveWebClient(app: Express, dir: string): void {
  const staticDir = path.join(dir, 'static') + path.sep;
  const indexFile = path.join(dir, 'index.html');
  const files = express.static(dir, {
    index: false,
    redirect: false,
    dotfiles: 'ignore',
    cacheControl: false,
    setHeaders: (res, file) => res.setHeader('Cache-Control', file.startsWith(staticDir) ? IMMUTABLE : REVALIDATE),
  });
  app.use((req, res, next) => (isServerPath(req.path) ? next() : files(req, res, next)));
  app.use((req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || isServerPath(req.path)) return next();
    res.sendFile(indexFile, { cacheControl: false, headers: { 'Cache-Control': REVALIDATE } }, (err?: Error) => {
      if (err && !res.headersSent) next(err);
    });
  });
}

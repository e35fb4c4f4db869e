import express, { type Express } from 'express';
import path from 'node:path';
import { defaultPicture, type PictureKind } from './default-images.js';

/** Tachi's web client fetches pictures (and import inputs: src/import-inputs/) from `<VITE_CDN_URL>/…`; built for this server, that is `/cdn/…`. */
export const CDN_PREFIX = '/cdn';

/** A stored picture's key under DATA_DIR/uploads/users: `<userID>/<kind>-<hash>.<ext>` (UserImagesService names them). */
const STORED_PICTURE = /^\/\d+\/(pfp|banner)-[0-9a-f]+\.(png|jpg)$/;
const KINDS: readonly string[] = ['pfp', 'banner'] satisfies PictureKind[];
const ONE_YEAR_S = 365 * 24 * 3600;

/**
 * `/cdn`, outside the API prefix, in both profiles:
 * - `/cdn/users/default/pfp` and `/cdn/users/default/banner`: the default pictures (PNG) that the
 *   picture routes redirect to when a user has set none;
 * - `/cdn/users/<userID>/<kind>-<hash>.<ext>`: stored pictures, immutable (a new picture gets a new name);
 * - `/cdn/score-import-input/<importID>` is not here but a Nest route outside the API prefix
 *   (src/import-inputs/: it needs the requester's session or token): `[input]` for the owner and admins.
 * Anything else (Tachi's own logos and game banners among them) falls through to the JSON 404.
 */
export function serveCdn(app: Express, uploadsDir: string): void {
  const router = express.Router();
  router.get('/users/default/:kind', (req, res, next) => {
    const kind = req.params.kind;
    if (!KINDS.includes(kind)) return next();
    defaultPicture(kind as PictureKind).then(
      (png) => {
        res.setHeader('Cache-Control', 'public, max-age=86400');
        res.type('png').send(png);
      },
      (err: unknown) => next(err),
    );
  });
  const stored = express.static(path.join(uploadsDir, 'users'), {
    index: false,
    redirect: false,
    dotfiles: 'deny',
    immutable: true,
    maxAge: ONE_YEAR_S * 1000,
  });
  router.use('/users', (req, res, next) => (STORED_PICTURE.test(req.path) ? stored(req, res, next) : next()));
  app.use(CDN_PREFIX, router);
}

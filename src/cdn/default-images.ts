import sharp from 'sharp';

/** The kinds of picture a user may set; each has a default for users who set none. */
export type PictureKind = 'pfp' | 'banner';

/** Where GET /users/:userID/pfp and /banner send a user who set no picture (Tachi's paths under its CDN). */
export const DEFAULT_PICTURE_PATH: Record<PictureKind, string> = {
  pfp: '/cdn/users/default/pfp',
  banner: '/cdn/users/default/banner',
};

/**
 * This service's own default pictures, drawn here as SVG and rendered to PNG once per process:
 * a grey head and shoulders on a dark square, and a dark banner with a faint diagonal band.
 */
const SVG: Record<PictureKind, string> = {
  pfp: `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">
  <rect width="256" height="256" fill="#2b292b"/>
  <circle cx="128" cy="100" r="48" fill="#8a858a"/>
  <path d="M40 256 C40 180 88 160 128 160 C168 160 216 180 216 256 Z" fill="#8a858a"/>
</svg>`,
  banner: `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="400" viewBox="0 0 1200 400">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#131313"/><stop offset="1" stop-color="#2b292b"/></linearGradient></defs>
  <rect width="1200" height="400" fill="url(#g)"/>
  <path d="M0 400 L520 0 L700 0 L180 400 Z" fill="#ffffff" fill-opacity="0.04"/>
</svg>`,
};

const rendered = new Map<PictureKind, Promise<Buffer>>();

/** The default picture of this kind as PNG bytes (rendered at the first request, then kept). */
export function defaultPicture(kind: PictureKind): Promise<Buffer> {
  let png = rendered.get(kind);
  if (!png) {
    png = sharp(Buffer.from(SVG[kind])).png({ compressionLevel: 9 }).toBuffer();
    rendered.set(kind, png);
    // A failed render is not kept: the next request tries again.
    png.catch(() => rendered.delete(kind));
  }
  return png;
}

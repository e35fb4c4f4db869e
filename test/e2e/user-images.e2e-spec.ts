import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { PERMISSIONS } from '../../src/common/permissions.js';
import { Database } from '../../src/database/database.js';
import { StorageService } from '../../src/storage/storage.service.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { bearer, issueToken, signUp, type SignedUpUser } from '../support/users.js';

const API = '/api/v1';
const UPLOAD_LIMIT = 200_000;

type Kind = 'pfp' | 'banner';

const solid = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 90 } } });
const png = (width = 64, height = 48) => solid(width, height).png().toBuffer();
const jpeg = (width = 64, height = 48) => solid(width, height).jpeg().toBuffer();
/** A small PNG whose header claims 100000 x 100000 pixels: a decompression bomb. */
function pixelBomb(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(Buffer.concat([Buffer.from(type), data])));
    return Buffer.concat([length, Buffer.from(type), data, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(100_000, 0);
  header.writeUInt32BE(100_000, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', zlib.deflateSync(Buffer.alloc(10_000))), chunk('IEND', Buffer.alloc(0))]);
}

const EXIF = { IFD0: { Copyright: 'Private Person', ImageDescription: 'taken at home', Artist: 'Private Person' } };

describe.each<Kind>(['pfp', 'banner'])('/users/:userID/%s', (kind) => {
  let t: TestApp;
  let u: SignedUpUser;
  const url = (who: string | number = u.user.id) => `${API}/users/${who}/${kind}`;
  const put = (file: Buffer, contentType = 'image/png', as: SignedUpUser = u) =>
    as.agent.put(url()).attach(kind, file, { filename: `upload.${contentType.split('/')[1]}`, contentType });
  const getImage = (who: string | number = u.user.id) => t.http().get(url(who)).responseType('blob');
  const location = async () => {
    const doc = (await t.http().get(`${API}/users/${u.user.id}`)).body;
    return (kind === 'pfp' ? doc.customPfpLocation : doc.customBannerLocation) as string | null;
  };
  const storedFile = (key: string) => path.join(t.dataDir, 'uploads', key);

  beforeAll(async () => {
    t = await createTestApp({ IMAGE_UPLOAD_LIMIT_BYTES: String(UPLOAD_LIMIT), PUBLIC_URL: 'http://scores.example.test' });
    u = await signUp(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('while none is set, GET redirects to the default picture and DELETE answers 404', async () => {
    expect(await location()).toBeNull();
    const get = await t.http().get(url());
    expect(get.status).toBe(302);
    expect(get.headers.location).toBe(`/cdn/users/default/${kind}`);
    expect(get.headers['cache-control']).toBe('no-cache');
    const picture = await t.http().get(get.headers.location).responseType('blob');
    expect([picture.status, picture.headers['content-type']]).toEqual([200, 'image/png']);
    const del = await u.agent.delete(url());
    expect(del.status).toBe(404);
    expect(del.body.message).toMatch(/do not have a custom/);
  });

  it('stores a PNG, answers {get} and serves it back as image/png', async () => {
    const res = await put(await png(), 'image/png');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ get: `http://scores.example.test/api/v1/users/${u.user.id}/${kind}` });

    const key = await location();
    expect(key).toMatch(/\.png$/);
    expect(fs.existsSync(storedFile(key!))).toBe(true);

    const served = await getImage();
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    const meta = await sharp(served.body as Buffer).metadata();
    expect(meta.format).toBe('png');
    expect([meta.width, meta.height]).toEqual([64, 48]);
    // Public: a guest reads it by username too.
    expect((await getImage(u.username.toUpperCase())).headers['content-type']).toBe('image/png');
  });

  it('stores a JPEG in place of the PNG, removes the old file and serves image/jpeg', async () => {
    const oldKey = await location();
    const res = await put(await jpeg(), 'image/jpeg');
    expect(res.status).toBe(200);
    const key = await location();
    expect(key).toMatch(/\.jpg$/);
    expect(fs.existsSync(storedFile(key!))).toBe(true);
    expect(fs.existsSync(storedFile(oldKey!))).toBe(false);

    const served = await getImage();
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect((await sharp(served.body as Buffer).metadata()).format).toBe('jpeg');
  });

  it('stores simultaneous uploads of the same image without their temporary files colliding', async () => {
    const storage = t.app.get(StorageService, { strict: false });
    const data = Buffer.alloc(256 * 1024, 7);
    await Promise.all(Array.from({ length: 8 }, () => storage.put(`race-${kind}/same.bin`, data)));
    expect(fs.readdirSync(storedFile(`race-${kind}`))).toEqual(['same.bin']);

    const image = await png(40, 30);
    const results = await Promise.all([0, 1, 2, 3].map(() => put(image)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const key = await location();
    expect(fs.readdirSync(path.dirname(storedFile(key!))).filter((f) => f.startsWith(kind))).toEqual([path.basename(key!)]);
    expect((await getImage()).status).toBe(200);
  });

  it('deletes the new file when its location cannot be recorded, and keeps the current image', async () => {
    const before = await location();
    expect(before).not.toBeNull();
    const database = t.app.get(Database, { strict: false });
    const failing = jest.spyOn(database, 'transaction').mockRejectedValueOnce(new Error('the database went away'));
    try {
      expect((await put(await png(41, 31))).status).toBe(500);
    } finally {
      failing.mockRestore();
    }
    expect(await location()).toBe(before);
    expect(fs.readdirSync(path.dirname(storedFile(before!))).filter((f) => f.startsWith(kind))).toEqual([path.basename(before!)]);
    expect((await getImage()).status).toBe(200);
  });

  it('judges the format by the bytes, not the declared MIME type', async () => {
    const res = await put(await jpeg(), 'image/png');
    expect(res.status).toBe(200);
    const served = await getImage();
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect((await put(await png(), 'application/octet-stream')).status).toBe(200);
    expect((await getImage()).headers['content-type']).toBe('image/png');
  });

  it.each([
    ['GIF', () => solid(16, 16).gif().toBuffer(), /this file is gif/],
    ['WebP', () => solid(16, 16).webp().toBuffer(), /this file is webp/],
    ['TIFF', () => solid(16, 16).tiff().toBuffer(), /this file is tiff/],
    ['SVG', async () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>'), /this file is svg/],
    ['garbage', async () => Buffer.from('definitely not an image, just some text pretending'), /not a readable image/],
    [
      'a truncated PNG',
      async () => {
        const whole = await solid(300, 300).png({ compressionLevel: 0 }).toBuffer();
        return whole.subarray(0, whole.length / 2);
      },
      /corrupt or truncated/,
    ],
  ])('refuses %s bytes sent as image/png (400) and keeps the current image', async (_label, make, message) => {
    const before = await location();
    const res = await put(await make(), 'image/png');
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
    expect(await location()).toBe(before);
  });

  it('strips EXIF metadata and applies the EXIF orientation', async () => {
    const input = await solid(80, 40).withExif(EXIF).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    const inputMeta = await sharp(input).metadata();
    expect(inputMeta.exif).toBeDefined();
    expect(inputMeta.orientation).toBe(6);

    expect((await put(input, 'image/jpeg')).status).toBe(200);
    const served = (await getImage()).body as Buffer;
    const meta = await sharp(served).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect([meta.width, meta.height]).toEqual([40, 80]);
    expect(served.includes(Buffer.from('Private Person'))).toBe(false);

    const pngInput = await solid(20, 20).withExif(EXIF).png().toBuffer();
    expect((await sharp(pngInput).metadata()).exif).toBeDefined();
    expect((await put(pngInput, 'image/png')).status).toBe(200);
    const servedPng = (await getImage()).body as Buffer;
    expect((await sharp(servedPng).metadata()).exif).toBeUndefined();
    expect(servedPng.includes(Buffer.from('Private Person'))).toBe(false);
  });

  it('scales a large image down to fit, keeping the aspect ratio', async () => {
    const [maxWidth, maxHeight] = kind === 'pfp' ? [1024, 1024] : [3000, 1500];
    expect((await put(await png(maxWidth * 2, maxHeight), 'image/png')).status).toBe(200);
    const meta = await sharp((await getImage()).body as Buffer).metadata();
    expect([meta.width, meta.height]).toEqual([maxWidth, maxHeight / 2]);
  });

  it('refuses a file over IMAGE_UPLOAD_LIMIT_BYTES with 413', async () => {
    const noise = await sharp(Buffer.from(Array.from({ length: 300 * 300 * 3 }, (_, i) => (i * 7919) % 251)), { raw: { width: 300, height: 300, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(noise.length).toBeGreaterThan(UPLOAD_LIMIT);
    const before = await location();
    const res = await put(noise, 'image/png');
    expect(res.status).toBe(413);
    expect(res.body.message).toMatch(/too large/);
    expect(await location()).toBe(before);
  });

  it('refuses an image of too many pixels with 413, however small the file', async () => {
    const bomb = pixelBomb();
    expect(bomb.length).toBeLessThan(UPLOAD_LIMIT);
    const res = await put(bomb, 'image/png');
    expect(res.status).toBe(413);
    expect(res.body.message).toMatch(/too many pixels/);
  });

  it('refuses a request without the file (400), also when the file is in another field', async () => {
    const none = await u.agent.put(url()).field('note', 'no file here');
    expect(none.status).toBe(400);
    expect(none.body.message).toMatch(new RegExp(`multipart field '${kind}'`));
    expect((await u.agent.put(url())).status).toBe(400);
    const otherField = await u.agent.put(url()).attach('image', await png(), { filename: 'a.png', contentType: 'image/png' });
    expect(otherField.status).toBe(400);
  });

  describe('permissions', () => {
    let other: SignedUpUser;
    beforeAll(async () => {
      other = await signUp(t);
    });

    it('a guest gets 401 on PUT and DELETE', async () => {
      const file = await png();
      expect((await t.http().put(url()).attach(kind, file, { filename: 'a.png', contentType: 'image/png' })).status).toBe(401);
      expect((await t.http().delete(url())).status).toBe(401);
    });

    it("another user's session gets 403 on PUT and DELETE", async () => {
      const before = await location();
      const res = await put(await png(), 'image/png', other);
      expect(res.status).toBe(403);
      expect(res.body.message).toMatch(/not authorised as this user/);
      expect((await other.agent.delete(url())).status).toBe(403);
      expect(await location()).toBe(before);
    });

    it('a token without customise_profile gets 403; one with it may PUT and DELETE', async () => {
      const without = await issueToken(
        u,
        PERMISSIONS.filter((p) => p !== 'customise_profile'),
      );
      const denied = await t
        .http()
        .put(url())
        .set(bearer(without))
        .attach(kind, await png(), { filename: 'a.png', contentType: 'image/png' });
      expect(denied.status).toBe(403);
      expect(denied.body.message).toMatch(/customise_profile/);
      expect((await t.http().delete(url()).set(bearer(without))).status).toBe(403);

      const withIt = await issueToken(u, ['customise_profile']);
      const put = await t
        .http()
        .put(url())
        .set(bearer(withIt))
        .attach(kind, await jpeg(), { filename: 'a.jpg', contentType: 'image/jpeg' });
      expect(put.status).toBe(200);
      expect((await getImage()).headers['content-type']).toBe('image/jpeg');

      const key = await location();
      const del = await t.http().delete(url()).set(bearer(withIt));
      expect(del.status).toBe(200);
      expect(del.body).toEqual({});
      expect(await location()).toBeNull();
      expect(fs.existsSync(storedFile(key!))).toBe(false);
      expect((await t.http().get(url())).headers.location).toBe(`/cdn/users/default/${kind}`);
      expect((await u.agent.delete(url())).status).toBe(404);
    });

    it("a token of another user with customise_profile gets 403 on this user's image", async () => {
      const token = await issueToken(other, ['customise_profile']);
      expect(
        (
          await t
            .http()
            .put(url())
            .set(bearer(token))
            .attach(kind, await png(), { filename: 'a.png', contentType: 'image/png' })
        ).status,
      ).toBe(403);
    });

    it('the owner may use `me`, and an unknown user is 404', async () => {
      expect((await u.agent.put(`${API}/users/me/${kind}`).attach(kind, await png(), { filename: 'a.png', contentType: 'image/png' })).status).toBe(200);
      expect((await t.http().get(`${API}/users/me/${kind}`)).status).toBe(401);
      expect((await u.agent.delete(`${API}/users/me/${kind}`)).status).toBe(200);
      expect((await t.http().get(`${API}/users/no_such_user/${kind}`)).status).toBe(404);
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { ConfigError, loadConfig } from '../../src/config/app-config.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { buildIfNeeded, ROOT, runNode } from '../support/cli.js';
import { failed, ok, signUpTachi } from '../support/tachi.js';
import { signUp } from '../support/users.js';

const INDEX =
  '<!doctype html><html><head><title>fixture client</title><script src="/static/index.0a1b2c3d.js"></script></head><body><div id="root"></div></body></html>';
const SCRIPT = 'console.log("fixture client");';
const SECRET = 'not for the web: a file beside the client directory';

/** A built client's layout (index.html, robots.txt, hashed assets under static/), and a file beside it that must never be served. */
function makeClientDir(): { root: string; dir: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'st-web-client-'));
  const dir = path.join(root, 'build');
  fs.mkdirSync(path.join(dir, 'static'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'index.html'), INDEX);
  fs.writeFileSync(path.join(dir, 'robots.txt'), 'User-agent: *\nDisallow:\n');
  fs.writeFileSync(path.join(dir, 'static', 'index.0a1b2c3d.js'), SCRIPT);
  fs.writeFileSync(path.join(dir, 'static', 'index.4e5f6a7b.css'), 'body { color: red; }');
  fs.writeFileSync(path.join(root, 'secret.txt'), SECRET);
  fs.writeFileSync(path.join(dir, '.env'), SECRET);
  return { root, dir };
}

/** A GET with the path sent exactly as written (supertest and fetch would normalise `..`). */
function rawGet(server: Server, rawPath: string): Promise<{ status: number; body: string }> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: rawPath, method: 'GET' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe.each(['tachi', 'spec'] as const)('WEB_CLIENT_DIR: a built web client at / (API_PROFILE=%s)', (profile) => {
  let t: TestApp;
  let client: { root: string; dir: string };
  let server: Server;

  beforeAll(async () => {
    client = makeClientDir();
    t = await createTestApp({ API_PROFILE: profile, WEB_CLIENT_DIR: client.dir });
    await t.app.listen(0, '127.0.0.1');
    server = t.app.getHttpServer() as Server;
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(client.root, { recursive: true, force: true });
  });

  it('GET / is the client’s index.html (not the home page), revalidated on every load', async () => {
    const res = await t.http().get('/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.text).toBe(INDEX);
    expect(res.headers.etag).toEqual(expect.any(String));
    const again = await t.http().get('/').set('If-None-Match', res.headers.etag);
    expect(again.status).toBe(304);
  });

  it('hashed assets under static/ are served as they are, with their types, cached for a year and immutable', async () => {
    const js = await t.http().get('/static/index.0a1b2c3d.js');
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.text).toBe(SCRIPT);
    const css = await t.http().get('/static/index.4e5f6a7b.css');
    expect([css.status, css.headers['content-type'], css.headers['cache-control']]).toEqual([
      200,
      'text/css; charset=utf-8',
      'public, max-age=31536000, immutable',
    ]);
    const robots = await t.http().get('/robots.txt');
    expect([robots.status, robots.headers['content-type'], robots.headers['cache-control']]).toEqual([200, 'text/plain; charset=utf-8', 'no-cache']);
    const head = await t.http().head('/static/index.0a1b2c3d.js');
    expect([head.status, head.headers['content-length']]).toEqual([200, String(Buffer.byteLength(SCRIPT))]);
  });

  it('any other GET or HEAD outside /api and /cdn is index.html (client-side routes)', async () => {
    for (const url of ['/u/alice/games/sdvx/Single', '/dashboard', '/oauth/request-auth?clientID=x', '/static/missing.js', '/favicon.ico']) {
      const res = await t.http().get(url);
      expect([url, res.status, res.headers['cache-control'], res.text]).toEqual([url, 200, 'no-cache', INDEX]);
    }
    const head = await t.http().head('/u/alice');
    expect([head.status, head.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8']);
  });

  it('other methods outside /api answer 404; the API index, the API and its 404s stay JSON', async () => {
    expect((await t.http().post('/u/alice').send({})).status).toBe(404);
    const index = await t.http().get('/api/v1');
    expect(index.status).toBe(200);
    expect(profile === 'tachi' ? ok(index) : index.body).toMatchObject({ name: 'Score Tracker', links: { docs: '/api/v1/docs' } });
    for (const url of ['/api/v1/no-such-route', '/api/nothing', '/api', '/API/v1/no-such-route']) {
      const res = await t.http().get(url);
      expect([url, res.status, res.headers['content-type']]).toEqual([url, 404, 'application/json; charset=utf-8']);
      if (profile === 'tachi') failed(res, 404);
      else expect(res.body).toEqual({ statusCode: 404, error: 'Not Found', message: expect.any(String) });
    }
  });

  it('never serves a file outside the directory, nor its dotfiles, whatever the encoding of `..`', async () => {
    const attempts = [
      '/../secret.txt',
      '/static/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/static/%2e%2e/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
      '/static/..%2f..%2fsecret.txt',
      '/%2E%2E%2Fsecret.txt',
      '/static/%252e%252e/%252e%252e/secret.txt',
      '/..%5csecret.txt',
      '/%00/../secret.txt',
      '/.env',
      '/static/../.env',
      '/cdn/users/1/../../../secret.txt',
    ];
    for (const attempt of attempts) {
      const res = await rawGet(server, attempt);
      expect([attempt, res.body.includes(SECRET)]).toEqual([attempt, false]);
      expect([attempt, [200, 400, 403, 404].includes(res.status)]).toEqual([attempt, true]);
    }
  });
});

describe('WEB_CLIENT_DIR at start-up', () => {
  it('a directory without index.html stops the start with a message naming the variable and the file', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'st-no-client-'));
    try {
      const load = () => loadConfig({ WEB_CLIENT_DIR: dir });
      expect(load).toThrow(ConfigError);
      expect(load).toThrow(`WEB_CLIENT_DIR=${JSON.stringify(dir)}: no index.html at ${path.join(dir, 'index.html')}`);
      expect(() => loadConfig({ WEB_CLIENT_DIR: path.join(dir, 'missing') })).toThrow(/WEB_CLIENT_DIR=.*no index\.html/);
      // A directory named index.html is not the file.
      fs.mkdirSync(path.join(dir, 'index.html'));
      expect(load).toThrow(ConfigError);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the built server stops at once with that message and exit code 1', async () => {
    buildIfNeeded();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'st-no-client-data-'));
    const clientDir = path.join(dataDir, 'no-build-here');
    fs.mkdirSync(clientDir);
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: '0', WEB_CLIENT_DIR: clientDir, LOG_LEVEL: 'warn' };
      delete env.DATABASE_URL;
      delete env.REDIS_URL;
      const run = await runNode(path.join(ROOT, 'dist', 'main.js'), [], env);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`WEB_CLIENT_DIR=${JSON.stringify(clientDir)}: no index.html at ${path.join(clientDir, 'index.html')}`);
      expect(run.stderr).not.toMatch(/\n\s+at /);
      expect(run.stdout).not.toContain('listening on');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);

  it('unset (the default), / is the home page and other paths outside /api are 404', async () => {
    const t = await createTestApp();
    try {
      expect(t.config.webClientDir).toBeUndefined();
      expect((await t.http().get('/')).text).toContain('<h1>Score Tracker</h1>');
      expect((await t.http().get('/u/alice')).status).toBe(404);
    } finally {
      await t.close();
    }
  });
});

describe.each(['tachi', 'spec'] as const)('/cdn: default and stored pictures (API_PROFILE=%s)', (profile) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ API_PROFILE: profile });
  });
  afterAll(async () => {
    await t.close();
  });

  it.each([
    ['pfp', 256, 256],
    ['banner', 1200, 400],
  ])('/cdn/users/default/%s is a %i×%i PNG of our own, cached for a day', async (kind, width, height) => {
    const res = await t.http().get(`/cdn/users/default/${kind}`).responseType('blob');
    expect([res.status, res.headers['content-type'], res.headers['cache-control']]).toEqual([200, 'image/png', 'public, max-age=86400']);
    const meta = await sharp(res.body as Buffer).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', width, height]);
  });

  it('a player without pictures is redirected to the defaults; one with a picture gets it, also under /cdn at its location', async () => {
    const u = profile === 'tachi' ? await signUpTachi(t) : await signUp(t);
    for (const kind of ['pfp', 'banner']) {
      const res = await t.http().get(`/api/v1/users/${u.user.id}/${kind}`);
      expect([res.status, res.headers.location]).toEqual([302, `/cdn/users/default/${kind}`]);
    }
    const image = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 10, g: 200, b: 30 } } })
      .png()
      .toBuffer();
    const put = await u.agent.put(`/api/v1/users/${u.user.id}/pfp`).attach('pfp', image, { filename: 'me.png', contentType: 'image/png' });
    expect(put.status).toBe(200);
    const stored = await t.http().get(`/api/v1/users/${u.user.id}/pfp`).responseType('blob');
    expect([stored.status, stored.headers['content-type']]).toEqual([200, 'image/png']);
    const doc = await t.http().get(`/api/v1/users/${u.user.id}`);
    const location = (profile === 'tachi' ? ok<{ customPfpLocation: string }>(doc) : (doc.body as { customPfpLocation: string })).customPfpLocation;
    expect(location).toMatch(new RegExp(`^users/${u.user.id}/pfp-[0-9a-f]+\\.png$`));
    const cdn = await t.http().get(`/cdn/${location}`).responseType('blob');
    expect([cdn.status, cdn.headers['content-type'], cdn.headers['cache-control']]).toEqual([200, 'image/png', 'public, max-age=31536000, immutable']);
    expect(Buffer.compare(cdn.body as Buffer, stored.body as Buffer)).toBe(0);
    // The banner is still the default.
    expect((await t.http().get(`/api/v1/users/${u.user.id}/banner`)).headers.location).toBe('/cdn/users/default/banner');
  });

  it('only pictures are served from the uploads; import inputs are answered by their own route; Tachi’s own logos are not ours', async () => {
    fs.mkdirSync(path.join(t.dataDir, 'uploads', 'replays', 'usc'), { recursive: true });
    fs.writeFileSync(path.join(t.dataDir, 'uploads', 'replays', 'usc', 'x'), 'a replay');
    for (const url of [
      '/cdn/replays/usc/x',
      '/cdn/users/../replays/usc/x',
      '/cdn/users/default/other',
      '/cdn/logos/logo-mark.png',
      '/cdn/game-banners/sdvx',
      '/cdn',
    ]) {
      const res = await t.http().get(url);
      expect([url, res.status]).toEqual([url, 404]);
      expect(res.text).not.toContain('a replay');
    }
    const input = await t.http().get('/cdn/score-import-input/some-import');
    expect([input.status, input.headers['content-type']]).toEqual([404, 'text/plain; charset=utf-8']);
    expect(input.text).toBe('No import input some-import was found.');
  });
});

describe('GET /config', () => {
  it('says signups are open under INVITE_ONLY too (registering takes an invite code, it is not closed)', async () => {
    const t = await createTestApp({ API_PROFILE: 'tachi', INVITE_ONLY: 'true' });
    try {
      expect(ok<{ SIGNUPS_ENABLED: boolean }>(await t.http().get('/api/v1/config')).SIGNUPS_ENABLED).toBe(true);
    } finally {
      await t.close();
    }
  });

  it('is a route of the tachi profile only: the spec profile answers 404', async () => {
    const t = await createTestApp();
    try {
      expect((await t.http().get('/api/v1/config')).status).toBe(404);
    } finally {
      await t.close();
    }
  });
});

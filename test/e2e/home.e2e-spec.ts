import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import { createTestApp, type TestApp } from '../support/app.js';
import { buildIfNeeded } from '../support/cli.js';
import { freePort, startBuiltServer } from '../support/server-process.js';
import { migratedDataDir } from '../support/template-db.js';

describe('the home page and the API index', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('GET / says what this server is and links the API docs, the OpenAPI document, the status and the OAuth page', async () => {
    const res = await t.http().get('/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.text).toContain('<h1>Score Tracker</h1>');
    for (const link of ['href="/api/v1/docs"', 'href="/api/v1/docs.json"', 'href="/api/v1/status"', '/api/v1/oauth/authorize?client_id='])
      expect(res.text).toContain(link);
  });

  it('HEAD / answers 200 without a body; other paths outside /api/v1 are still 404', async () => {
    const head = await t.http().head('/');
    expect(head.status).toBe(200);
    expect(head.text ?? '').toBe('');
    expect((await t.http().get('/nothing-here')).status).toBe(404);
  });

  it('GET /api/v1 (the address the server prints at start) answers its index instead of a 404', async () => {
    for (const url of ['/api/v1', '/api/v1/']) {
      const res = await t.http().get(url);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        name: 'Score Tracker',
        version: expect.any(String),
        links: { docs: '/api/v1/docs', openapi: '/api/v1/docs.json', status: '/api/v1/status', oauthAuthorize: '/api/v1/oauth/authorize' },
      });
    }
  });

  it("answers the index in Tachi's envelope under API_PROFILE=tachi", async () => {
    const tachi = await createTestApp({ API_PROFILE: 'tachi' });
    try {
      const res = await tachi.http().get('/api/v1');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: true, body: { name: 'Score Tracker', links: { docs: '/api/v1/docs' } } });
    } finally {
      await tachi.close();
    }
  });
});

describe('start-up logs', () => {
  const dataDirs: string[] = [];
  const start = async (env: Record<string, string>) => {
    const dataDir = await migratedDataDir('startup-logs-');
    dataDirs.push(dataDir);
    const server = await startBuiltServer(dataDir, await freePort(), env);
    server.child.kill('SIGTERM');
    await server.exited;
    return server.output();
  };
  beforeAll(() => buildIfNeeded());
  afterAll(() => {
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("at info, a few lines: Nest's module and route lines are left to debug", async () => {
    const output = await start({ LOG_LEVEL: 'info', LOG_FORMAT: 'json' });
    const lines = output.split('\n').filter((line) => line.trim() !== '');
    expect(output).toContain('listening on http://127.0.0.1:');
    expect(output).not.toContain('dependencies initialized');
    expect(output).not.toContain('Mapped {');
    expect(lines.length).toBeLessThan(12);
  });

  it('at debug, every route is logged', async () => {
    const output = await start({ LOG_LEVEL: 'debug', LOG_FORMAT: 'json' });
    expect(output).toContain('Mapped {/api/v1/status, GET} route');
    expect(output).toContain('"level":20');
  });

  it('LOG_FORMAT=pretty writes readable lines instead of JSON', async () => {
    const output = await start({ LOG_LEVEL: 'info', LOG_FORMAT: 'pretty' });
    const logLines = output.split('\n').filter((line) => line.startsWith('['));
    expect(logLines.length).toBeGreaterThan(0);
    for (const line of logLines) expect(line).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] (INFO|WARN): /);
    expect(output).not.toContain('"level":');
  });
});

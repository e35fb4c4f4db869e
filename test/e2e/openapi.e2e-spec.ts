import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from '../support/app.js';
import type { ImportDocument } from '../../src/presenters/import.presenter.js';
import { fixtureChartID, loadScoreFixtures, sdvxScore } from '../support/score-fixtures.js';
import { departures, METHODS, type OpenApiDocument, type Schema } from '../support/openapi-schema.js';
import { signUp, type SignedUpUser } from '../support/users.js';

interface ExpressLayer {
  route?: { path: string; methods: Record<string, boolean> };
}

const T0 = Date.UTC(2024, 4, 1, 12);

/** Every $ref anywhere below a value. */
function refsIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => refsIn(v, found));
  else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (key === '$ref' && typeof v === 'string') found.push(v);
      else refsIn(v, found);
    }
  }
  return found;
}

describe('OpenAPI document: response types', () => {
  let t: TestApp;
  let doc: OpenApiDocument;

  beforeAll(async () => {
    t = await createTestApp();
    const res = await t.http().get('/api/v1/docs.json');
    expect(res.status).toBe(200);
    doc = res.body as OpenApiDocument;
  });
  afterAll(async () => {
    await t.close();
  });

  const schema = (name: string): Schema => {
    expect(Object.keys(doc.components.schemas)).toContain(name);
    return doc.components.schemas[name];
  };

  it('gives every operation a 2xx response with a schema', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      METHODS.filter((m) => item[m]).map((method) => ({ operation: `${method.toUpperCase()} ${path}`, responses: item[method].responses })),
    );
    expect(operations.length).toBeGreaterThan(70);
    // An operation whose success is a redirect (the OAuth2 authorization page's forms) documents its 303 instead.
    const untyped = operations.filter(
      ({ responses }) =>
        !Object.keys(responses).some((status) => /^3\d\d$/.test(status)) &&
        Object.entries(responses).every(([status, response]) => !/^2\d\d$/.test(status) || !Object.values(response.content ?? {}).some((c) => c.schema)),
    );
    expect(untyped.map((o) => o.operation)).toEqual([]);
  });

  it('documents every route the app registers, and nothing else', () => {
    const express = t.app.getHttpAdapter().getInstance() as { router: { stack: ExpressLayer[] } };
    // Nest's routes have one method each; middleware (all methods, or a {*path} wildcard), the docs' own pages and the
    // home page at / (HTML for a person, outside the API) are not routes of the API.
    const registered = express.router.stack
      .flatMap(({ route }) => (route && Object.keys(route.methods).length === 1 ? [{ path: route.path, method: Object.keys(route.methods)[0] }] : []))
      .filter(({ path }) => !path.includes('{*') && !path.startsWith('/api/v1/docs') && path !== '/')
      .map(({ path, method }) => `${method.toUpperCase()} ${path.replace(/:(\w+)/g, '{$1}')}`);
    const documented = Object.entries(doc.paths).flatMap(([path, item]) => METHODS.filter((m) => item[m]).map((m) => `${m.toUpperCase()} ${path}`));
    expect(registered.length).toBeGreaterThan(100);
    expect(registered.filter((route) => !documented.includes(route))).toEqual([]);
    expect(documented.filter((route) => !registered.includes(route))).toEqual([]);
  });

  it('documents the error answers of every operation, with the error body outside the score hooks', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      METHODS.filter((m) => item[m]).map((method) => ({ path, method, responses: item[method].responses })),
    );
    const without4xx = operations.filter(({ responses }) => !Object.keys(responses).some((status) => /^4\d\d$/.test(status)));
    expect(without4xx.map((o) => `${o.method} ${o.path}`)).toEqual([]);
    // The OAuth2 authorization page answers its errors as HTML pages (a person reads them), but for the body parser's 413.
    const htmlPage = (path: string) => path.startsWith('/api/v1/oauth/authorize');
    // A stored import input's 404 is plain text, which Tachi's web client shows as it is.
    const errorMediaType = (path: string, status: string) =>
      htmlPage(path) && status !== '413' ? 'text/html' : path.startsWith('/cdn/') && status === '404' ? 'text/plain' : 'application/json';
    const untypedErrors = operations.flatMap(({ path, method, responses }) =>
      path.startsWith('/api/v1/ir/') && path !== '/api/v1/ir/direct-manual/import'
        ? []
        : Object.entries(responses)
            .filter(([status, response]) => /^4\d\d$/.test(status) && !response.content?.[errorMediaType(path, status)]?.schema)
            .map(([status]) => `${method} ${path} ${status}`),
    );
    expect(untypedErrors).toEqual([]);
    expect(schema('ErrorResponse').required).toEqual(['statusCode', 'error', 'message']);
    const byID = doc.paths['/api/v1/scores/{scoreID}'].get.responses;
    expect(Object.keys(byID)).toEqual(expect.arrayContaining(['400', '404', '429']));
    expect(byID['404'].content!['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorResponse' });
    expect(Object.keys(doc.paths['/api/v1/admin/recalc'].post.responses)).toEqual(expect.arrayContaining(['400', '401', '403', '413', '429']));
    expect(doc.paths['/api/v1/auth/register'].post.responses['409'].content!['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ErrorResponse',
    });
  });

  it('documents the two answers of an import: 200 with the ImportDocument, 202 when queued', () => {
    const responses = doc.paths['/api/v1/import/file'].post.responses;
    expect(responses['200'].content!['application/json'].schema).toEqual({ $ref: '#/components/schemas/ImportDocument' });
    expect(responses['202'].content!['application/json'].schema).toEqual({ $ref: '#/components/schemas/QueuedImportResponse' });
  });

  it('resolves every schema reference', () => {
    const missing = refsIn(doc).filter((ref) => !(ref.replace('#/components/schemas/', '') in doc.components.schemas));
    expect([...new Set(missing)]).toEqual([]);
  });

  it("lists the spec documents' fields as required", () => {
    const required: Record<string, string[]> = {
      ScoreDocument: ['scoreID', 'songID', 'chartID', 'userID', 'game', 'playtype', 'scoreData', 'calculatedData', 'comment', 'highlighted'],
      PbDocument: ['chartID', 'userID', 'game', 'playtype', 'scoreData', 'calculatedData', 'rankingData'],
      SessionDocument: ['sessionID', 'name', 'desc', 'userID', 'game', 'playtype', 'scores', 'calculatedData', 'highlighted', 'timeEnded'],
      UserDocument: [
        'id',
        'username',
        'usernameLowercase',
        'socialMedia',
        'joinDate',
        'lastSeen',
        'about',
        'status',
        'customPfpLocation',
        'customBannerLocation',
        'clan',
        'badges',
        'authLevel',
      ],
      ImportDocument: [
        'importType',
        'idStrings',
        'scoreIDs',
        'errors',
        'importID',
        'timeStarted',
        'timeFinished',
        'createdSessions',
        'userID',
        'classDeltas',
        'goalInfo',
        'questInfo',
        'userIntent',
      ],
      SongDocument: ['id', 'title', 'artist'],
      ChartDocument: ['chartID', 'songID', 'playtype', 'difficulty'],
      GameStatsDocument: ['userID', 'game', 'playtype', 'ratings', 'classes'],
      ApiKeyDocument: ['userID', 'identifier', 'permissions', 'fromAPIClient'],
      ClientDocument: ['name', 'clientID', 'redirectUri', 'webhookUri', 'requestedPermissions', 'apiKeyFormat', 'apiKeyFilename', 'author'],
      GameConfigDocument: ['name', 'validPlaytypes'],
      GptConfigDocument: ['idString', 'percentMax', 'defaultScoreRatingAlg', 'defaultSessionRatingAlg', 'defaultProfileRatingAlg', 'classes'],
      UgptSettingsDocument: ['preferredScoreAlg', 'preferredSessionAlg', 'preferredProfileAlg', 'stats'],
      StatusResponse: ['serverTime', 'startTime', 'whoami', 'version', 'permissions'],
    };
    for (const [name, fields] of Object.entries(required)) {
      expect([name, schema(name).required]).toEqual([name, expect.arrayContaining(fields)]);
    }
    // Present only in some answers.
    expect(schema('ApiKeyDocument').required).not.toContain('token');
    expect(schema('ClientDocument').required).not.toContain('clientSecret');
    expect(schema('StatusResponse').required).not.toContain('echo');
  });

  describe('the answers of the routes', () => {
    let u: SignedUpUser;
    let scoreID: string;
    let sessionID: string;
    let importID: string;
    const chartID = () => fixtureChartID(1, 'EXH');

    /** Answers of the writes made while setting up: [method, documented path, status, body]. */
    const writes: [string, string, number, unknown][] = [];
    const wrote = (method: string, path: string, res: { status: number; body: unknown }) => {
      writes.push([method, path, res.status, res.body]);
      return res.body as Record<string, unknown>;
    };

    beforeAll(async () => {
      await loadScoreFixtures(t);
      u = await signUp(t);
      const document = {
        meta: { game: 'sdvx', playtype: 'Single', service: 'e2e' },
        scores: [sdvxScore(1, 'EXH', 9_500_000, 'EXCESSIVE CLEAR', T0), sdvxScore(4, 'MXM', 9_850_000, 'ULTIMATE CHAIN', T0 + 60_000)],
      };
      const imported = wrote(
        'post',
        '/api/v1/ir/direct-manual/import',
        await u.agent.post('/api/v1/ir/direct-manual/import').send(document),
      ) as unknown as ImportDocument;
      [scoreID] = imported.scoreIDs;
      sessionID = imported.createdSessions[0].sessionID;
      importID = imported.importID;
      const me = `/api/v1/users/${u.user.id}`;
      const client = wrote(
        'post',
        '/api/v1/clients/create',
        await u.agent.post('/api/v1/clients/create').send({ name: 'Doc client', permissions: ['submit_score'] }),
      );
      wrote('post', '/api/v1/users/{userID}/api-tokens/create', await u.agent.post(`${me}/api-tokens/create`).send({ clientID: client.clientID }));
      wrote('post', '/api/v1/oauth/create-code', await u.agent.post('/api/v1/oauth/create-code').send({}));
      wrote('delete', '/api/v1/clients/{clientID}', await u.agent.delete(`/api/v1/clients/${client.clientID as string}`));
      const showcase = [{ mode: 'chart', chartID: chartID(), property: 'score' }];
      wrote('patch', '/api/v1/users/{userID}/games/{game}/{playtype}/showcase', await u.agent.patch(`${me}/games/sdvx/Single/showcase`).send(showcase));
      wrote(
        'patch',
        '/api/v1/users/{userID}/games/{game}/{playtype}/settings',
        await u.agent.patch(`${me}/games/sdvx/Single/settings`).send({ preferredScoreAlg: null }),
      );
      wrote('patch', '/api/v1/scores/{scoreID}', await u.agent.patch(`/api/v1/scores/${scoreID}`).send({ comment: 'documented', highlight: true }));
      wrote('patch', '/api/v1/sessions/{sessionID}', await u.agent.patch(`/api/v1/sessions/${sessionID}`).send({ name: 'Documented session' }));
      wrote('patch', '/api/v1/users/{userID}', await u.agent.patch(me).send({ status: 'documenting' }));
      wrote('post', '/api/v1/import/orphans', await u.agent.post('/api/v1/import/orphans'));
      wrote('post', '/api/v1/status', await u.agent.post('/api/v1/status').send({}));
    });

    it('of writes match the schemas the document gives them, key for key', () => {
      const found = writes.flatMap(([method, path, status, body]) => {
        const documented = doc.paths[path]?.[method]?.responses[String(status)]?.content?.['application/json']?.schema;
        return documented ? departures(doc, documented, body, `${method.toUpperCase()} ${path}`) : [`${method.toUpperCase()} ${path}: no schema for ${status}`];
      });
      expect(found).toEqual([]);
    });

    it('of reads match the schemas the document gives them, key for key', async () => {
      const ugpt = '/api/v1/users/{userID}/games/{game}/{playtype}';
      const gpt = '/api/v1/games/{game}/{playtype}';
      const me = `/api/v1/users/${u.user.id}`;
      // [documented path, URL]; every GET answers 200.
      const routes: [string, string][] = [
        ['/api/v1/status', '/api/v1/status?echo=x'],
        ['/api/v1/games', '/api/v1/games'],
        ['/api/v1/games/{game}', '/api/v1/games/sdvx'],
        [gpt, '/api/v1/games/sdvx/Single'],
        ['/api/v1/users', '/api/v1/users'],
        ['/api/v1/users/{userID}', me],
        ['/api/v1/users/{userID}/game-stats', `${me}/game-stats`],
        ['/api/v1/users/{userID}/api-tokens', `${me}/api-tokens`],
        ['/api/v1/users/{userID}/notifications', `${me}/notifications`],
        ['/api/v1/clients', '/api/v1/clients'],
        [ugpt, `${me}/games/sdvx/Single`],
        [`${ugpt}/pbs`, `${me}/games/sdvx/Single/pbs?search=a`],
        [`${ugpt}/pbs/best`, `${me}/games/sdvx/Single/pbs/best`],
        [`${ugpt}/pbs/all`, `${me}/games/sdvx/Single/pbs/all`],
        [`${ugpt}/pbs/{chartID}`, `${me}/games/sdvx/Single/pbs/${chartID()}?getComposition`],
        [`${ugpt}/scores`, `${me}/games/sdvx/Single/scores?search=a`],
        [`${ugpt}/scores/recent`, `${me}/games/sdvx/Single/scores/recent`],
        [`${ugpt}/scores/{chartID}`, `${me}/games/sdvx/Single/scores/${chartID()}`],
        [`${ugpt}/pbs/{chartID}/leaderboard-adjacent`, `${me}/games/sdvx/Single/pbs/${chartID()}/leaderboard-adjacent`],
        [`${ugpt}/most-played`, `${me}/games/sdvx/Single/most-played`],
        [`${ugpt}/sessions/recent`, `${me}/games/sdvx/Single/sessions/recent`],
        [`${ugpt}/sessions/last`, `${me}/games/sdvx/Single/sessions/last`],
        [`${ugpt}/leaderboard-adjacent`, `${me}/games/sdvx/Single/leaderboard-adjacent`],
        [`${ugpt}/history`, `${me}/games/sdvx/Single/history`],
        [`${ugpt}/settings`, `${me}/games/sdvx/Single/settings`],
        [`${ugpt}/showcase`, `${me}/games/sdvx/Single/showcase`],
        [`${ugpt}/showcase/custom`, `${me}/games/sdvx/Single/showcase/custom?mode=chart&chartID=${chartID()}&property=lamp`],
        [`${gpt}/leaderboard`, '/api/v1/games/sdvx/Single/leaderboard'],
        [`${gpt}/songs/{songID}`, '/api/v1/games/sdvx/Single/songs/1'],
        [`${gpt}/charts`, '/api/v1/games/sdvx/Single/charts'],
        [`${gpt}/charts/{chartID}`, `/api/v1/games/sdvx/Single/charts/${chartID()}`],
        [`${gpt}/charts/resolve`, '/api/v1/games/sdvx/Single/charts/resolve?matchType=sdvxInGameID&identifier=9001&difficulty=EXH'],
        [`${gpt}/players`, `/api/v1/games/sdvx/Single/players?search=${u.username}`],
        ['/api/v1/search', `/api/v1/search?search=${u.username}`],
        ['/api/v1/search/chart-hash', `/api/v1/search/chart-hash?search=${'0'.repeat(32)}`],
        ['/api/v1/users/{userID}/recent-imports', `${me}/recent-imports`],
        [`${gpt}/charts/{chartID}/playcount`, `/api/v1/games/sdvx/Single/charts/${chartID()}/playcount`],
        [`${gpt}/charts/{chartID}/pbs`, `/api/v1/games/sdvx/Single/charts/${chartID()}/pbs`],
        [`${gpt}/pb-leaderboard`, '/api/v1/games/sdvx/Single/pb-leaderboard'],
        [`${gpt}/player-distribution`, '/api/v1/games/sdvx/Single/player-distribution'],
        [`${gpt}/player-distribution`, '/api/v1/games/sdvx/Single/player-distribution?class=vfClass'],
        [`${gpt}/scores/highlighted`, '/api/v1/games/sdvx/Single/scores/highlighted'],
        [`${gpt}/tables`, '/api/v1/games/sdvx/Single/tables'],
        ['/api/v1/scores/{scoreID}', `/api/v1/scores/${scoreID}?getRelated`],
        ['/api/v1/sessions/{sessionID}', `/api/v1/sessions/${sessionID}`],
        ['/api/v1/imports/{importID}', `/api/v1/imports/${importID}`],
        ['/api/v1/imports/{importID}/poll-status', `/api/v1/imports/${importID}/poll-status`],
      ];
      const found: string[] = [];
      for (const [path, url] of routes) {
        const res = await u.agent.get(url);
        expect([url, res.status]).toEqual([url, 200]);
        const documented = doc.paths[path]?.get?.responses['200']?.content?.['application/json']?.schema;
        expect([url, documented !== undefined]).toEqual([url, true]);
        found.push(...departures(doc, documented!, res.body, url));
      }
      expect(found).toEqual([]);
    });
  });
});

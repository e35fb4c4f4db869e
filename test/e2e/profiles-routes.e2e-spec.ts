import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ApiProfile } from '../../src/presenters/profile.js';
import { SnapshotsService } from '../../src/ugpt/snapshots.service.js';
import { createTestApp } from '../support/app.js';
import { makeAdmin, storeGoals, storeQuestlines, storeQuests } from '../support/db-fixtures.js';
import { departures, METHODS, type OpenApiDocument } from '../support/openapi-schema.js';
import { fixtureChartID, loadScoreFixtures, sdvxScore } from '../support/score-fixtures.js';
import { keysIn } from '../support/tachi.js';
import { bearer, uniqueUsername } from '../support/users.js';

const T0 = Date.UTC(2024, 4, 1, 12);

/**
 * Fields of the spec's documents that Tachi's documents do not have (renamed or left out). None
 * may appear, at any depth, in an answer under API_PROFILE=tachi.
 */
const SPEC_ONLY = [
  'highlighted',
  'apiKeyFormat',
  'apiKeyFile',
  'requestPermissions',
  'gradeBoundaries',
  'gradeMetric',
  'lampIndex',
  'gradeIndex',
  'validPlaytypes',
  'defaultPlaytype',
  'idString',
  'percentInput',
  'downgradable',
  'clearLamp',
  'clearGrade',
];

/** GET routes that answer an error with the data this test sets up, and why. */
const NOT_FOUND_HERE: Record<string, string> = {
  '/api/v1/games/{game}/{playtype}/folders/{folderID}': 'the fixtures have no folders',
  '/api/v1/users/{userID}/games/{game}/{playtype}/targets/on-folder/{folderID}': 'the fixtures have no folders',
  '/api/v1/games/{game}/{playtype}/tables/{tableID}': 'the fixtures have no tables',
  '/api/v1/users/{userID}/games/{game}/{playtype}/folders/{folderID}': 'the fixtures have no folders',
  '/api/v1/users/{userID}/games/{game}/{playtype}/folders/{folderID}/timeline': 'the fixtures have no folders',
  '/api/v1/users/{userID}/games/{game}/{playtype}/tables/{tableID}': 'the fixtures have no tables',
  '/api/v1/games/bms/{bmsPlaytype}/custom-tables/{urlName}/header.json': 'the fixtures have no BMS tables',
  '/api/v1/games/bms/{bmsPlaytype}/custom-tables/{urlName}/body.json': 'the fixtures have no BMS tables',
  '/api/v1/users/{userID}/games/bms/{bmsPlaytype}/best-score/{checksum}': 'the fixtures have no BMS charts',
  '/api/v1/users/{userID}/games/bms/{bmsPlaytype}/custom-tables/{urlName}/header.json': 'the fixtures have no BMS tables',
  '/api/v1/users/{userID}/games/bms/{bmsPlaytype}/custom-tables/{urlName}/body.json': 'the fixtures have no BMS tables',
  '/api/v1/users/{userID}/games/iidx/{iidxPlaytype}/playlists/{playlistID}': "a player's sets (aaa-bpi-to-go) are not the catalog's aaa-bpi walked here",
  '/api/v1/users/{userID}/integrations/cg/{cgType}': 'no CG network is configured here',
  '/api/v1/users/{userID}/integrations/kai/{kaiType}': 'no e-amusement network is configured here',
  '/api/v1/users/{userID}/integrations/myt': 'MYT is not configured here',
  '/api/v1/users/{userID}/invites': 'this server is not invite-only (INVITE_ONLY)',
  '/api/v1/users/{userID}/invites/limit': 'this server is not invite-only (INVITE_ONLY)',
};

interface Answer {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/** One deployment under a profile, with a player who has scores, a session, an import, a client, keys and a snapshot. */
async function deployment(profile: ApiProfile) {
  const t = await createTestApp({ API_PROFILE: profile });
  await loadScoreFixtures(t);
  const unwrap = (res: Answer) => (profile === 'tachi' ? (res.body as { body: Record<string, unknown> }).body : (res.body as Record<string, unknown>));
  /** Answers of the writes made while setting up: [method, documented path, answer]. */
  const writes: [string, string, Answer][] = [];
  const wrote = (method: string, path: string, res: Answer, status = 200) => {
    writes.push([method, path, res]);
    expect([method, path, res.status]).toEqual([method, path, status]);
    return unwrap(res);
  };
  const agent = t.agent();
  const username = uniqueUsername('walker');
  const user = wrote(
    'post',
    '/api/v1/auth/register',
    await agent.post('/api/v1/auth/register').send({ username, '!password': 'walker-password', email: `${username}@example.test`, captcha: 'x' }),
  );
  const me = `/api/v1/users/${user.id as number}`;
  // An administrator, so that the admin routes answer too.
  await makeAdmin(t, user.id as number);
  const token = wrote(
    'post',
    '/api/v1/users/{userID}/api-tokens/create',
    await agent.post(`${me}/api-tokens/create`).send({ permissions: ['submit_score', 'customise_score', 'customise_session', 'customise_profile'] }),
  ).token as string;
  // Under tachi, imports answer 202 with the poll url, as Tachi's deployments do.
  const importAnswer = wrote(
    'post',
    '/api/v1/ir/direct-manual/import',
    await t
      .http()
      .post('/api/v1/ir/direct-manual/import')
      .set(bearer(token))
      .send({
        meta: { game: 'sdvx', playtype: 'Single', service: 'walk' },
        scores: [sdvxScore(1, 'EXH', 9_500_000, 'EXCESSIVE CLEAR', T0), sdvxScore(4, 'MXM', 9_850_000, 'ULTIMATE CHAIN', T0 + 60_000)],
      }),
    profile === 'tachi' ? 202 : 200,
  );
  const imported =
    profile === 'tachi'
      ? (unwrap((await t.http().get(new URL(importAnswer.url as string).pathname)) as Answer).import as Record<string, unknown>)
      : importAnswer;
  const scoreID = (imported.scoreIDs as string[])[0];
  const sessionID = (imported.createdSessions as { sessionID: string }[])[0].sessionID;
  const template = profile === 'tachi' ? 'apiKeyTemplate' : 'apiKeyFormat';
  const client = wrote(
    'post',
    '/api/v1/clients/create',
    await agent
      .post('/api/v1/clients/create')
      .send({ name: 'Walker client', permissions: ['submit_score'], [template]: 'k=%%SERVICE_KEY%%', apiKeyFilename: 'k.txt' }),
  );
  const clientID = client.clientID as string;
  wrote('patch', '/api/v1/clients/{clientID}', await agent.patch(`/api/v1/clients/${clientID}`).send({ [template]: 'key %%SERVICE_KEY%%' }));
  wrote('post', '/api/v1/users/{userID}/api-tokens/create', await agent.post(`${me}/api-tokens/create`).send({ clientID }));
  wrote('patch', '/api/v1/scores/{scoreID}', await agent.patch(`/api/v1/scores/${scoreID}`).send({ highlight: true }));
  wrote('patch', '/api/v1/sessions/{sessionID}', await agent.patch(`/api/v1/sessions/${sessionID}`).send({ highlight: true }));
  wrote(
    'patch',
    '/api/v1/users/{userID}/games/{game}/{playtype}/settings',
    await agent.patch(`${me}/games/sdvx/Single/settings`).send({ preferredScoreAlg: 'VF6' }),
  );
  wrote(
    'patch',
    '/api/v1/users/{userID}/games/{game}/{playtype}/showcase',
    await agent.patch(`${me}/games/sdvx/Single/showcase`).send([{ mode: 'chart', chartID: fixtureChartID(1, 'EXH'), property: 'score' }]),
  );
  wrote('post', '/api/v1/import/orphans', await agent.post('/api/v1/import/orphans'));
  wrote('post', '/api/v1/oauth/create-code', await agent.post('/api/v1/oauth/create-code').send({ clientID }));
  wrote('post', '/api/v1/status', await agent.post('/api/v1/status').send({ echo: 'walk' }));
  wrote('post', '/api/v1/users/{userID}/notifications/mark-all-read', await agent.post(`${me}/notifications/mark-all-read`));
  // A goal, a quest holding it and a questline, and the user's subscription to the quest, so the target routes answer documents.
  const goalID = 'G' + 'c'.repeat(64);
  await storeGoals(t, [
    {
      goalID,
      game: 'sdvx',
      playtype: 'Single',
      name: 'Get a score of 1 on a fixture chart',
      charts: { type: 'single', data: fixtureChartID(1, 'EXH') },
      criteria: { key: 'score', value: 1, mode: 'single' },
    },
  ]);
  await storeQuests(t, [
    { questID: 'walk-quest', game: 'sdvx', playtype: 'Single', name: 'Walk', desc: '', questData: [{ title: 'All', goals: [{ goalID }] }] },
  ]);
  await storeQuestlines(t, [{ questlineID: 'walk-line', game: 'sdvx', playtype: 'Single', name: 'Walk line', desc: '', quests: ['walk-quest'] }]);
  wrote('put', '/api/v1/users/{userID}/games/{game}/{playtype}/targets/quests/{questID}', await agent.put(`${me}/games/sdvx/Single/targets/quests/walk-quest`));
  await t.app.get(SnapshotsService).take(T0);
  const doc = (await t.http().get('/api/v1/docs.json')).body as OpenApiDocument;
  const pathValues: Record<string, string> = {
    userID: String(user.id),
    game: 'sdvx',
    playtype: 'Single',
    chartID: fixtureChartID(1, 'EXH'),
    songID: '1',
    scoreID,
    sessionID,
    importID: imported.importID as string,
    clientID,
    folderID: 'no-such-folder',
    tableID: 'no-such-table',
    goalID,
    questID: 'walk-quest',
    questlineID: 'walk-line',
    // The game-specific tools' playtypes, and their playlist sets and custom tables.
    iidxPlaytype: 'SP',
    bmsPlaytype: '7K',
    playlistID: 'aaa-bpi',
    urlName: 'sieglindeEC',
    checksum: 'c'.repeat(32),
    // The integrations' services.
    kaiType: 'flo',
    cgType: 'dev',
    // Score hooks' own routes.
    sha256: 'a'.repeat(64),
    chartHash: 'b'.repeat(40),
  };
  const queryValues: Record<string, string> = {
    search: 'a',
    mode: 'chart',
    chartID: fixtureChartID(1, 'EXH'),
    property: 'lamp',
    // The tachi profile's name of property (showcase).
    metric: 'lamp',
    class: 'vfClass',
    userID: String(user.id),
    criteriaType: 'lamp',
    criteriaValue: 'CLEAR',
    // charts/resolve: a fixture chart by its in-game id.
    matchType: 'sdvxInGameID',
    identifier: '9001',
    difficulty: 'EXH',
  };
  return { t, agent, token, doc, writes, pathValues, queryValues };
}

describe.each(['spec', 'tachi'] as const)('API_PROFILE=%s: every JSON route', (profile) => {
  let d: Awaited<ReturnType<typeof deployment>>;

  beforeAll(async () => {
    d = await deployment(profile);
  });
  afterAll(async () => {
    await d.t.close();
  });

  /** The checks of one JSON answer: the profile's envelope, the documented schema key for key, and no spec-only field under tachi. */
  function problems(method: string, path: string, res: Answer, raw: boolean): string[] {
    const at = `${method.toUpperCase()} ${path} ${res.status}`;
    if (!/json/.test(res.headers['content-type'] ?? '')) return [];
    const found: string[] = [];
    const body = res.body as Record<string, unknown>;
    if (!raw && profile === 'tachi') {
      const expected =
        res.status < 400
          ? ['body', 'description', 'success']
          : res.status === 429
            ? ['description', 'message', 'status', 'success']
            : ['description', 'success'];
      if (Object.keys(body).sort().join() !== expected.join()) found.push(`${at}: not Tachi's envelope: ${Object.keys(body).join(', ')}`);
      else if (body.success !== res.status < 400) found.push(`${at}: success is ${String(body.success)}`);
    }
    if (!raw && profile === 'spec' && res.status >= 400 && Object.keys(body).sort().join() !== 'error,message,statusCode')
      found.push(`${at}: not the plain error body`);
    if (!raw && profile === 'spec' && Object.keys(body).sort().join() === 'body,description,success') found.push(`${at}: enveloped under spec`);
    if (profile === 'tachi') {
      const leaked = SPEC_ONLY.filter((key) => keysIn(body).has(key));
      if (leaked.length) found.push(`${at}: spec-only fields ${leaked.join(', ')}`);
    }
    const schema =
      res.status >= 400 && !raw
        ? { $ref: '#/components/schemas/ErrorResponse' }
        : d.doc.paths[path]?.[method]?.responses[String(res.status)]?.content?.['application/json']?.schema;
    if (schema) found.push(...departures(d.doc, schema, body, at));
    else if (!raw) found.push(`${at}: no documented schema`);
    return found;
  }

  it('the writes of the main flows answer in the profile’s shapes', () => {
    const found = d.writes.flatMap(([method, path, res]) => problems(method, path, res, false));
    expect(found).toEqual([]);
    expect(d.writes.length).toBeGreaterThanOrEqual(14);
  });

  it('every GET route of the OpenAPI document answers in the profile’s shapes', async () => {
    const rawPrefixes = ['/api/v1/ir/'];
    const found: string[] = [];
    const statuses: Record<string, number> = {};
    let walked = 0;
    for (const [path, item] of Object.entries(d.doc.paths)) {
      const operation = item.get;
      if (!operation || path.startsWith('/api/v1/docs')) continue;
      // Pages for people (the OAuth2 authorization page) answer HTML, not JSON documents.
      if (Object.values(operation.responses).some((r) => r.content && 'text/html' in r.content)) continue;
      const raw = Boolean(operation['x-raw-response']) || (rawPrefixes.some((prefix) => path.startsWith(prefix)) && path !== '/api/v1/ir/direct-manual/import');
      const unknown = (operation.parameters ?? []).filter(
        (p) => (p.in === 'path' && !(p.name in d.pathValues)) || (p.in === 'query' && p.required && !(p.name in d.queryValues)),
      );
      expect([path, unknown]).toEqual([path, []]);
      const url = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(d.pathValues[name]));
      // Every query parameter this test has a value for (showcase/custom's are optional one by one, not together).
      const query = (operation.parameters ?? [])
        .filter((p) => p.in === 'query' && p.name in d.queryValues)
        .map((p) => `${p.name}=${encodeURIComponent(d.queryValues[p.name])}`);
      const request = raw ? d.t.http().get(url).set(bearer(d.token)) : d.agent.get(url);
      const res = (await request.query(query.join('&'))) as Answer;
      walked += 1;
      statuses[path] = res.status;
      found.push(...problems('get', path, res, raw));
    }
    expect(found).toEqual([]);
    const failing = Object.entries(statuses).filter(([path, status]) => status >= 400 && !path.startsWith('/api/v1/ir/'));
    expect(Object.fromEntries(failing)).toEqual(Object.fromEntries(Object.keys(NOT_FOUND_HERE).map((path) => [path, 404])));
    expect(walked).toBeGreaterThan(50);
  });

  it('the OpenAPI document describes the profile’s error body and envelope', () => {
    const errorBody = d.doc.components.schemas.ErrorResponse;
    const byID = d.doc.paths['/api/v1/scores/{scoreID}'].get.responses;
    if (profile === 'tachi') {
      expect(errorBody.required).toEqual(['success', 'description']);
      expect(byID['200'].content!['application/json'].schema).toMatchObject({ required: ['success', 'description', 'body'] });
      const score = d.doc.components.schemas.ScoreDocument;
      expect(Object.keys(score.properties!)).toEqual(expect.arrayContaining(['highlight']));
      expect(Object.keys(score.properties!)).not.toContain('highlighted');
      expect(Object.keys(d.doc.components.schemas.CreateClientDto.properties!)).toContain('apiKeyTemplate');
      expect(Object.keys(d.doc.components.schemas.PatchClientDto.properties!)).not.toContain('apiKeyFormat');
    } else {
      expect(errorBody.required).toEqual(['statusCode', 'error', 'message']);
      expect(byID['200'].content!['application/json'].schema).toEqual({ $ref: '#/components/schemas/ScoreWithRelatedResponse' });
      expect(Object.keys(d.doc.components.schemas.CreateClientDto.properties!)).toContain('apiKeyFormat');
    }
    for (const method of METHODS) expect(d.doc.paths['/api/v1/config']?.[method] === undefined).toBe(profile === 'spec' || method !== 'get');
  });
});

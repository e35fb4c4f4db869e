import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BadRequestException } from '@nestjs/common';
import path from 'node:path';
import { randomHex } from '../../src/common/crypto.js';
import { findGpt } from '../../src/game-support/registry.js';
import { ImportsService } from '../../src/imports/imports.service.js';
import { ImportsRepository } from '../../src/repositories/imports.repository.js';
import { SeedLoader } from '../../src/seeds/seed-loader.js';
import { SeedSource } from '../../src/seeds/seed-source.js';
import { SnapshotsService, utcMidnight } from '../../src/ugpt/snapshots.service.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { fixtureChartID, loadScoreFixtures, sdvxScore } from '../support/score-fixtures.js';
import { storedScoreRecord } from '../support/stored.js';
import { failed, issueTachiToken, ok, polledImport, signUpTachi } from '../support/tachi.js';
import { bearer, type SignedUpUser } from '../support/users.js';

const T0 = Date.UTC(2024, 4, 1, 12);
const MINUTE = 60_000;
const SDVX = findGpt('sdvx', 'Single')!;

type Doc = Record<string, unknown>;
const keys = (doc: unknown) => Object.keys(doc as object).sort();

const SCORE_KEYS = [
  'scoreID',
  'userID',
  'game',
  'playtype',
  'songID',
  'chartID',
  'isPrimary',
  'scoreData',
  'calculatedData',
  'scoreMeta',
  'timeAchieved',
  'timeAdded',
  'service',
  'importType',
  'importID',
  'comment',
  'highlight',
].sort();
const SCORE_DATA_KEYS = ['score', 'percent', 'lamp', 'grade', 'judgements', 'optional', 'enumIndexes'].sort();
const PB_KEYS = [
  'userID',
  'chartID',
  'songID',
  'game',
  'playtype',
  'isPrimary',
  'scoreData',
  'calculatedData',
  'rankingData',
  'composedFrom',
  'timeAchieved',
  'highlight',
].sort();
const SESSION_KEYS = [
  'sessionID',
  'name',
  'desc',
  'userID',
  'game',
  'playtype',
  'scoreIDs',
  'calculatedData',
  'highlight',
  'timeInserted',
  'timeStarted',
  'timeEnded',
].sort();
const CLIENT_KEYS = ['clientID', 'name', 'author', 'requestedPermissions', 'redirectUri', 'webhookUri', 'apiKeyTemplate', 'apiKeyFilename'].sort();

describe('API_PROFILE=tachi: the main flows serve Tachi’s documents', () => {
  let t: TestApp;
  let u: SignedUpUser;
  let token: string;
  let imported: Doc;
  const chartID = () => fixtureChartID(1, 'EXH');

  beforeAll(async () => {
    // The /auth limits on, for Tachi's rate-limited answer; every other request comes from one address well under them.
    t = await createTestApp({ API_PROFILE: 'tachi', AUTH_RATE_LIMIT_FACTOR: '1' });
    await loadScoreFixtures(t);
    await new SeedLoader(t.database).load(new SeedSource(path.resolve('test/fixtures/seeds/clean')), { games: ['chunithm'] });
    u = await signUpTachi(t);
    token = await issueTachiToken(u, ['submit_score', 'customise_score', 'customise_session', 'customise_profile']);
    imported = await polledImport(
      t,
      await t
        .http()
        .post('/api/v1/ir/direct-manual/import')
        .set(bearer(token))
        .set('X-User-Intent', 'true')
        .send({
          meta: { game: 'sdvx', playtype: 'Single', service: 'tachi-e2e' },
          scores: [sdvxScore(1, 'EXH', 9_500_000, 'EXCESSIVE CLEAR', T0), sdvxScore(4, 'MXM', 9_850_000, 'ULTIMATE CHAIN', T0 + MINUTE)],
        }),
    );
  });
  afterAll(async () => {
    await t.close();
  });

  it('ImportDocument: playtypes beside game, idStrings and HEAD’s gptStrings', () => {
    expect(keys(imported)).toEqual(
      [
        'importID',
        'importType',
        'userID',
        'game',
        'playtypes',
        'idStrings',
        'gptStrings',
        'scoreIDs',
        'errors',
        'createdSessions',
        'classDeltas',
        'goalInfo',
        'questInfo',
        'userIntent',
        'timeStarted',
        'timeFinished',
      ].sort(),
    );
    expect(imported).toMatchObject({
      importType: 'ir/direct-manual',
      userID: u.user.id,
      game: 'sdvx',
      playtypes: ['Single'],
      idStrings: ['sdvx:Single'],
      gptStrings: ['sdvx:Single'],
      errors: [],
      userIntent: true,
    });
    expect(imported.scoreIDs).toHaveLength(2);
  });

  it('Score: highlight, Tachi’s scoreData with enumIndexes, no spec-only fields; PATCH takes highlight and sets the PB’s too', async () => {
    const [scoreID] = imported.scoreIDs as string[];
    const { score } = ok<{ score: Doc }>(await t.http().get(`/api/v1/scores/${scoreID}`));
    expect(keys(score)).toEqual(SCORE_KEYS);
    const row = await storedScoreRecord(t, scoreID);
    expect(score).toMatchObject({
      scoreID,
      userID: u.user.id,
      game: 'sdvx',
      playtype: 'Single',
      songID: 1,
      chartID: chartID(),
      isPrimary: true,
      timeAchieved: T0,
      service: 'tachi-e2e',
      importType: 'ir/direct-manual',
      importID: imported.importID,
      comment: null,
      highlight: false,
    });
    const scoreData = score.scoreData as Doc;
    expect(keys(scoreData)).toEqual(SCORE_DATA_KEYS);
    expect(scoreData).toEqual({
      score: 9_500_000,
      percent: row.scoreData.percent,
      lamp: 'EXCESSIVE CLEAR',
      grade: row.scoreData.grade,
      judgements: row.scoreData.judgements,
      optional: row.scoreData.optional,
      enumIndexes: { lamp: SDVX.lamps.indexOf('EXCESSIVE CLEAR'), grade: SDVX.grades.indexOf(row.scoreData.grade) },
    });
    expect(typeof score.highlight).toBe('boolean');

    const patched = ok<Doc>(await t.http().patch(`/api/v1/scores/${scoreID}`).set(bearer(token)).send({ highlight: true, comment: 'tachi' }));
    expect(keys(patched)).toEqual(SCORE_KEYS);
    expect(patched).toMatchObject({ highlight: true, comment: 'tachi' });
    const { pb } = ok<{ pb: Doc }>(await t.http().get(`/api/v1/users/${u.user.id}/games/sdvx/Single/pbs/${chartID()}`));
    expect(pb.highlight).toBe(true);
  });

  it('PB: highlight and Tachi’s scoreData', async () => {
    const { pb } = ok<{ pb: Doc }>(await t.http().get(`/api/v1/users/${u.user.id}/games/sdvx/Single/pbs/${chartID()}`));
    expect(keys(pb)).toEqual(PB_KEYS);
    expect(pb).toMatchObject({ userID: u.user.id, chartID: chartID(), songID: 1, game: 'sdvx', playtype: 'Single', isPrimary: true, highlight: true });
    expect(pb.rankingData).toEqual({ rank: 1, outOf: 1, rivalRank: null });
    expect(keys(pb.scoreData)).toEqual(SCORE_DATA_KEYS);
    expect((pb.scoreData as Doc).enumIndexes).toEqual({ lamp: SDVX.lamps.indexOf('EXCESSIVE CLEAR'), grade: expect.any(Number) });
    const lists = ok<{ pbs: Doc[] }>(await t.http().get(`/api/v1/users/${u.user.id}/games/sdvx/Single/pbs/best`));
    expect(lists.pbs).toHaveLength(2);
    for (const listed of lists.pbs) expect(keys(listed)).toEqual(PB_KEYS);
  });

  it('Session: scoreIDs in play order and highlight; PATCH takes highlight', async () => {
    const sessionID = (imported.createdSessions as { sessionID: string }[])[0].sessionID;
    const { session, scores: sessionScores } = ok<{ session: Doc; scores: Doc[] }>(await t.http().get(`/api/v1/sessions/${sessionID}`));
    expect(keys(session)).toEqual(SESSION_KEYS);
    expect(session).toMatchObject({
      sessionID,
      userID: u.user.id,
      game: 'sdvx',
      playtype: 'Single',
      highlight: false,
      timeStarted: T0,
      timeEnded: T0 + MINUTE,
    });
    expect(session.scoreIDs).toEqual(imported.scoreIDs);
    for (const score of sessionScores) expect(keys(score)).toEqual(SCORE_KEYS);

    const patched = ok<Doc>(await t.http().patch(`/api/v1/sessions/${sessionID}`).set(bearer(token)).send({ highlight: true }));
    expect(keys(patched)).toEqual(SESSION_KEYS);
    expect(patched.highlight).toBe(true);
    const highlighted = ok<Doc[]>(await t.http().get(`/api/v1/users/${u.user.id}/games/sdvx/Single/sessions/highlighted`));
    // as Tachi's session lists: each session with its scores' comparisons (__scoreInfo)
    expect(highlighted.map((s) => [s.sessionID, s.highlight, keys(s)])).toEqual([[sessionID, true, [...SESSION_KEYS, '__scoreInfo'].sort()]]);
  });

  it('UGPT profile: HEAD’s playtime (the sessions’ lengths) beside the spec’s fields, with Tachi’s documents inside', async () => {
    const summary = ok<Doc>(await t.http().get(`/api/v1/users/${u.user.id}/games/sdvx/Single`));
    expect(keys(summary)).toEqual(['gameStats', 'firstScore', 'mostRecentScore', 'totalScores', 'rankingData', 'playtime'].sort());
    // One session, from the first play (T0) to the last (T0 + 1 minute).
    expect(summary).toMatchObject({ totalScores: 2, playtime: MINUTE, rankingData: { VF6: { ranking: 1, outOf: 1 } } });
    expect(keys(summary.firstScore)).toEqual(SCORE_KEYS);
    expect((summary.firstScore as Doc).scoreID).toBe((imported.scoreIDs as string[])[0]);
  });

  it('UserGameStatsSnapshot: userID, game, playtype and rankings {alg: {ranking, outOf}}', async () => {
    const taken = await t.app.get(SnapshotsService).take(T0);
    expect(taken.taken).toBe(true);
    const before = Date.now();
    const history = ok<Doc[]>(await t.http().get(`/api/v1/users/${u.user.id}/games/sdvx/Single/history`));
    // as Tachi: the profile as it is now first, then the stored snapshots
    expect(history).toHaveLength(2);
    const [now, snapshot] = history;
    expect(keys(now)).toEqual(keys(snapshot));
    expect(now.timestamp as number).toBeGreaterThanOrEqual(before);
    expect({ ...now, timestamp: 0 }).toEqual({ ...snapshot, timestamp: 0 });
    expect(keys(snapshot)).toEqual(['userID', 'game', 'playtype', 'classes', 'ratings', 'timestamp', 'playcount', 'rankings'].sort());
    expect(snapshot).toMatchObject({ userID: u.user.id, game: 'sdvx', playtype: 'Single', timestamp: utcMidnight(T0), playcount: 2 });
    expect(snapshot.rankings).toEqual(Object.fromEntries(Object.keys(SDVX.profileRatingAlgs).map((alg) => [alg, { ranking: 1, outOf: 1 }])));
    expect(snapshot.ratings).toEqual({ VF6: expect.any(Number) });
  });

  it('UGPTSettings: {userID, game, playtype, preferences}, read and written', async () => {
    const url = `/api/v1/users/${u.user.id}/games/sdvx/Single/settings`;
    const preferences = {
      preferredScoreAlg: null,
      preferredSessionAlg: null,
      preferredProfileAlg: null,
      stats: [],
      preferredDefaultEnum: null,
      defaultTable: null,
      preferredRanking: null,
      gameSpecific: {},
    };
    expect(ok(await t.http().get(url))).toEqual({ userID: u.user.id, game: 'sdvx', playtype: 'Single', preferences, rivals: [] });
    const patched = ok(await t.http().patch(url).set(bearer(token)).send({ preferredScoreAlg: 'VF6' }));
    expect(patched).toEqual({ userID: u.user.id, game: 'sdvx', playtype: 'Single', preferences: { ...preferences, preferredScoreAlg: 'VF6' }, rivals: [] });
    failed(await t.http().patch(url).set(bearer(token)).send({ preferredScoreAlg: 'nope' }), 400);
  });

  it('APIKey: token is a string when issued and null in lists', async () => {
    const me = `/api/v1/users/${u.user.id}/api-tokens`;
    const issued = ok<Doc>(await u.agent.post(`${me}/create`).send({ permissions: ['submit_score'], identifier: 'listed' }));
    expect(keys(issued)).toEqual(['keyID', 'userID', 'token', 'identifier', 'permissions', 'fromAPIClient', 'createdAt'].sort());
    expect(issued.token).toMatch(/^[0-9a-f]{40}$/);
    const listed = ok<Doc[]>(await u.agent.get(me));
    expect(listed.length).toBeGreaterThanOrEqual(2);
    for (const key of listed) {
      expect(keys(key)).toEqual(['keyID', 'userID', 'token', 'identifier', 'permissions', 'fromAPIClient', 'createdAt'].sort());
      expect(key.token).toBeNull();
    }
    expect(listed.find((k) => k.keyID === issued.keyID)).toMatchObject({ identifier: 'listed', fromAPIClient: null, token: null });
  });

  it('OAuth2 client: apiKeyTemplate in the documents and in the create and patch bodies; apiKeyFormat is unknown', async () => {
    const created = ok<Doc>(
      await u.agent.post('/api/v1/clients/create').send({
        name: 'Tachi client',
        permissions: ['submit_score'],
        redirectUri: 'https://client.example/cb',
        webhookUri: null,
        apiKeyTemplate: 'key=%%SERVICE_KEY%%',
        apiKeyFilename: 'tachi.conf',
      }),
    );
    expect(keys(created)).toEqual([...CLIENT_KEYS, 'clientSecret', 'webhookSecret'].sort());
    expect(created).toMatchObject({
      name: 'Tachi client',
      author: u.user.id,
      requestedPermissions: ['submit_score'],
      redirectUri: 'https://client.example/cb',
      webhookUri: null,
      apiKeyTemplate: 'key=%%SERVICE_KEY%%',
      apiKeyFilename: 'tachi.conf',
    });
    const clientID = created.clientID as string;
    expect(failed(await u.agent.post('/api/v1/clients/create').send({ name: 'Old name', permissions: ['submit_score'], apiKeyFormat: 'x' }), 400)).toMatch(
      /apiKeyFormat should not exist.*apiKeyTemplate/,
    );
    expect(failed(await u.agent.patch(`/api/v1/clients/${clientID}`).send({ apiKeyTemplate: 'no placeholder' }), 400)).toMatch(
      /apiKeyTemplate must contain %%SERVICE_KEY%%/,
    );
    const patched = ok<Doc>(await u.agent.patch(`/api/v1/clients/${clientID}`).send({ apiKeyTemplate: 'token: %%SERVICE_KEY%%' }));
    expect(patched.apiKeyTemplate).toBe('token: %%SERVICE_KEY%%');
    const publicView = ok<Doc>(await u.agent.get(`/api/v1/clients/${clientID}`));
    expect(keys(publicView)).toEqual(CLIENT_KEYS);
    const list = ok<Doc[]>(await u.agent.get('/api/v1/clients'));
    // The secret is stored hashed: it is shown only when made.
    expect(list.map(keys)).toEqual([CLIENT_KEYS]);

    // The client's file flow: Tachi answers the key document alone.
    const forClient = ok<Doc>(await u.agent.post(`/api/v1/users/${u.user.id}/api-tokens/create`).send({ clientID }));
    expect(keys(forClient)).toEqual(['keyID', 'userID', 'token', 'identifier', 'permissions', 'fromAPIClient', 'createdAt'].sort());
    expect(forClient).toMatchObject({ fromAPIClient: clientID, identifier: 'Tachi client', token: expect.stringMatching(/^[0-9a-f]{40}$/) });
  });

  it('GamePTConfig: Tachi’s current keys, without gradeBoundaries; GameConfig with playtypes', async () => {
    const gptAnswer = ok<{ config: Doc }>(await t.http().get('/api/v1/games/sdvx/Single'));
    // Tachi's GPT answer carries the counts: the two scores imported, their player, the 14 fixture charts.
    expect(gptAnswer).toEqual({ config: expect.any(Object), scoreCount: 2, playerCount: 1, chartCount: 14 });
    const { config } = gptAnswer;
    expect(keys(config)).toEqual(
      [
        'providedMetrics',
        'derivedMetrics',
        'defaultMetric',
        'difficulties',
        'scoreRatingAlgs',
        'sessionRatingAlgs',
        'profileRatingAlgs',
        'defaultScoreRatingAlg',
        'defaultSessionRatingAlg',
        'defaultProfileRatingAlg',
        'classes',
        'orderedJudgements',
        'versions',
        'supportedMatchTypes',
        'optionalMetrics',
        'preferredDefaultEnum',
        'chartData',
        'scoreMeta',
        'preferences',
      ].sort(),
    );
    expect(config).toMatchObject({
      providedMetrics: { score: { type: 'INTEGER' }, lamp: { type: 'ENUM', values: [...SDVX.lamps], minimumRelevantValue: 'CLEAR' } },
      derivedMetrics: { grade: { type: 'ENUM', values: [...SDVX.grades] } },
      defaultMetric: 'score',
      preferredDefaultEnum: 'grade',
      optionalMetrics: {
        fast: { type: 'INTEGER' },
        slow: { type: 'INTEGER' },
        maxCombo: { type: 'INTEGER' },
        exScore: { type: 'INTEGER' },
        gauge: { type: 'DECIMAL' },
      },
      chartData: { type: 'object', properties: { inGameID: expect.any(Object) } },
      scoreMeta: { type: 'object', properties: { inSkillAnalyser: expect.any(Object) }, additionalProperties: false },
      preferences: { type: 'object', properties: { vf6Target: { type: 'number' } }, additionalProperties: false },
      difficulties: SDVX.difficulties,
      defaultScoreRatingAlg: 'VF6',
      defaultProfileRatingAlg: 'VF6',
      orderedJudgements: [...SDVX.judgements],
      versions: SDVX.versions,
      // HEAD's name for the spec's serviceSongID.
      supportedMatchTypes: ['sdvxInGameID', 'songTitle', 'tachiSongID'],
    });
    expect(keys(config.providedMetrics)).toEqual(['lamp', 'score']);
    expect(keys(config.derivedMetrics)).toEqual(['grade']);
    expect(config.scoreRatingAlgs).toEqual({ VF6: { description: expect.any(String) } });
    const classes = config.classes as Record<string, Doc>;
    expect(Object.keys(classes).sort()).toEqual(Object.keys(SDVX.classes).sort());
    for (const [name, set] of Object.entries(classes)) {
      expect(keys(set)).toEqual(['type', 'values']);
      expect(set.type).toBe(SDVX.classes[name].type);
      expect(set.values).toEqual(SDVX.classes[name].values.map((v, index) => ({ index, ...v })));
    }
    expect(ok(await t.http().get('/api/v1/games/sdvx'))).toEqual({
      name: 'SOUND VOLTEX',
      playtypes: ['Single'],
      songData: expect.objectContaining({ type: 'object', properties: expect.any(Object) }),
    });
    const games = ok<{ configs: Record<string, Doc> }>(await t.http().get('/api/v1/games'));
    expect(games.configs.iidx).toEqual({ name: expect.any(String), playtypes: ['SP', 'DP'], songData: expect.any(Object) });
  });

  it('UserDocument: without clan, which Tachi removed, with isSupporter', async () => {
    const user = ok<Doc>(await t.http().get(`/api/v1/users/${u.user.id}`));
    expect(keys(user)).toEqual(
      [
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
        'badges',
        'authLevel',
        'isSupporter',
      ].sort(),
    );
    expect(user).toMatchObject({
      id: u.user.id,
      username: u.username,
      usernameLowercase: u.username.toLowerCase(),
      badges: [],
      authLevel: 1,
      isSupporter: false,
    });
    expect(keys(u.user)).toEqual(keys(user));
  });

  it('FolderDocument and TableDocument: title, without the spec’s name', async () => {
    const { table, folders } = ok<{ table: Doc; folders: Doc[] }>(await t.http().get('/api/v1/games/chunithm/Single/tables/chunithm-Single-luminous-levels'));
    expect(keys(table)).toEqual(['tableID', 'title', 'game', 'playtype', 'description', 'folders', 'inactive', 'default'].sort());
    expect(table).toMatchObject({ tableID: 'chunithm-Single-luminous-levels', game: 'chunithm', playtype: 'Single', title: expect.any(String) });
    expect(folders).toHaveLength(1);
    expect(keys(folders[0])).toEqual(['folderID', 'title', 'game', 'playtype', 'type', 'data', 'inactive', 'searchTerms'].sort());
    expect(folders[0].folderID).toBe((table.folders as string[])[0]);
    const { folder } = ok<{ folder: Doc }>(await t.http().get(`/api/v1/games/chunithm/Single/folders/${folders[0].folderID as string}`));
    expect(folder).toEqual(folders[0]);
  });

  it('a rate-limited answer carries Tachi’s status and message', async () => {
    const ip = '198.51.100.7';
    let res = await t.http().post('/api/v1/auth/login').set('X-Forwarded-For', ip).send({ username: 'nobody', '!password': 'wrong password', captcha: 'x' });
    for (let i = 0; i < 30 && res.status !== 429; i++) {
      res = await t.http().post('/api/v1/auth/login').set('X-Forwarded-For', ip).send({ username: 'nobody', '!password': 'wrong password', captcha: 'x' });
    }
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ success: false, description: expect.stringMatching(/Too many requests/), status: 429, message: "You're being rate limited." });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });

  describe('Tachi’s read routes the spec leaves out', () => {
    it("GET /config: tachi-common HEAD's TachiServerCoreConfig (the name, the games, the import types, signups open)", async () => {
      const config = ok<Doc>(await t.http().get('/api/v1/config'));
      expect(keys(config)).toEqual(['GAMES', 'IMPORT_TYPES', 'NAME', 'SIGNUPS_ENABLED', 'TYPE']);
      expect(config).toMatchObject({ TYPE: 'omni', NAME: 'Score Tracker', SIGNUPS_ENABLED: true });
      expect(config.GAMES).toEqual(expect.arrayContaining(['iidx', 'sdvx', 'bms', 'chunithm']));
      expect(config.IMPORT_TYPES).toEqual(expect.arrayContaining(['file/batch-manual', 'ir/direct-manual', 'ir/fervidex']));
    });

    it('GET /users/:userID/imports: the completed imports, latest first, filtered by importType and userIntent', async () => {
      const later = await polledImport<Doc>(
        t,
        await t
          .http()
          .post('/api/v1/ir/direct-manual/import')
          .set(bearer(token))
          .send({ meta: { game: 'sdvx', playtype: 'Single', service: 'tachi-e2e' }, scores: [sdvxScore(2, 'EXH', 9_000_000, 'CLEAR', T0 + 2 * MINUTE)] }),
      );
      const url = `/api/v1/users/${u.username}/imports`;
      const all = ok<Doc[]>(await t.http().get(url));
      expect(all.map((i) => i.importID)).toEqual([later.importID, imported.importID]);
      expect(all[1]).toEqual(imported);
      expect(ok<Doc[]>(await t.http().get(`${url}?userIntent=true`)).map((i) => i.importID)).toEqual([imported.importID]);
      expect(ok<Doc[]>(await t.http().get(`${url}?userIntent=false`)).map((i) => i.importID)).toEqual([later.importID]);
      expect(ok<Doc[]>(await t.http().get(`${url}?importType=file/batch-manual`))).toEqual([]);
      expect(ok<Doc[]>(await t.http().get(`${url}?importType=ir/direct-manual`))).toHaveLength(2);
      failed(await t.http().get(`${url}?importType=nope`), 400);
      failed(await t.http().get(`${url}?userIntent=maybe`), 400);
      failed(await t.http().get(`${url}?other=1`), 400);
      failed(await t.http().get('/api/v1/users/nobody_here/imports'), 404);
    });

    it('GET /users/:userID/imports/failed: the failed imports with their error', async () => {
      const other = await signUpTachi(t);
      const importID = randomHex(20);
      await t.app.get(ImportsRepository).insert({
        importID,
        userID: other.user.id,
        importType: 'file/batch-manual',
        userIntent: true,
        status: 'ongoing',
        timeQueued: T0,
        timeStarted: T0 + 1,
      });
      await t.app.get(ImportsService).fail(importID, new BadRequestException('The file is not JSON.'));
      const listed = ok<Doc[]>(await t.http().get(`/api/v1/users/${other.user.id}/imports/failed`));
      expect(listed).toEqual([
        {
          type: 'FAILED',
          importID,
          importType: 'file/batch-manual',
          userID: other.user.id,
          timeStarted: T0 + 1,
          userIntent: true,
          error: { message: 'The file is not JSON.', statusCode: 400 },
        },
      ]);
      expect(ok<Doc[]>(await t.http().get(`/api/v1/users/${other.user.id}/imports`))).toEqual([]);
      expect(ok<Doc[]>(await t.http().get(`/api/v1/users/${u.user.id}/imports/failed`))).toEqual([]);
    });

    it("GET /imports and /imports/failed: everyone's latest imports and failed imports with their users, filtered alike; bad filters 400", async () => {
      const all = ok<{ imports: Doc[]; users: Doc[] }>(await t.http().get('/api/v1/imports'));
      const mine = ok<Doc[]>(await t.http().get(`/api/v1/users/${u.user.id}/imports`));
      // Everyone's, latest finished first: the player's own are among them, in their order.
      expect(all.imports.filter((i) => i.userID === u.user.id)).toEqual(mine);
      const finished = all.imports.map((i) => i.timeFinished as number);
      expect(finished).toEqual([...finished].sort((a, b) => b - a));
      expect(all.users.map((user) => user.id).sort()).toEqual([...new Set(all.imports.map((i) => i.userID))].sort());
      expect(all.users.find((user) => user.id === u.user.id)).toMatchObject({ id: u.user.id, username: u.username });
      expect(all.users[0]).not.toHaveProperty('clan');
      const direct = ok<{ imports: Doc[] }>(await t.http().get('/api/v1/imports?importType=ir/direct-manual&userIntent=false'));
      expect(direct.imports.length).toBeGreaterThan(0);
      expect(direct.imports.every((i) => i.importType === 'ir/direct-manual' && i.userIntent === false)).toBe(true);
      const failedAll = ok<{ failedImports: Doc[]; users: Doc[] }>(await t.http().get('/api/v1/imports/failed'));
      expect(failedAll.failedImports.length).toBeGreaterThan(0);
      expect(failedAll.failedImports.every((i) => i.type === 'FAILED')).toBe(true);
      expect(failedAll.failedImports[0]).toMatchObject({ error: { message: 'The file is not JSON.', statusCode: 400 } });
      expect(failedAll.users.map((user) => user.id)).toContain(failedAll.failedImports[0]!.userID);
      expect(ok<{ failedImports: Doc[] }>(await t.http().get('/api/v1/imports/failed?importType=ir/fervidex')).failedImports).toEqual([]);
      failed(await t.http().get('/api/v1/imports?importType=nope'), 400);
      failed(await t.http().get('/api/v1/imports/failed?userIntent=maybe'), 400);
      failed(await t.http().get('/api/v1/imports?other=1'), 400);
    });
  });
});

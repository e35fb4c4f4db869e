import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { SeedLoader } from '../../src/seeds/seed-loader.js';
import { SeedSource } from '../../src/seeds/seed-source.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { makeAdmin } from '../support/db-fixtures.js';
import { fixtureChartID, importSdvx, loadScoreFixtures, sdvxScore } from '../support/score-fixtures.js';
import { failed, issueTachiToken, ok, polledImport, signUpTachi } from '../support/tachi.js';
import { bearer, issueToken, signUp, type SignedUpUser } from '../support/users.js';

/**
 * The UGPT preferences Tachi's web client keeps (default enum, table and ranking, the GPT's own
 * preferences), the showcase written with PUT as the client writes it, and the supporter flag,
 * in both API profiles: the spec profile answers plain documents and {statusCode, error, message},
 * the tachi profile Tachi's {success, description, body}.
 */
const T0 = Date.UTC(2024, 4, 1, 12);
const LEVEL_17_UP = 'F1c272465d41e52cf1cc2b351493efe2a29753674310cb1f52802399c5bbe7c23';
const IIDX_FOLDER = 'Fa381b9d7680003af5a6c5623487f5d99acf17c0ca1b9e15f08b51bd75f404a43';
const LEVELS_TABLE = 'sdvx-Single-levels';
const OLD_TABLE = 'sdvx-Single-old';

interface Answer {
  status: number;
  body: unknown;
}

describe.each(['spec', 'tachi'] as const)('UGPT preferences, PUT showcase and supporters (API_PROFILE=%s)', (profile) => {
  let t: TestApp;
  let player: SignedUpUser;
  let other: SignedUpUser;
  let admin: SignedUpUser;
  let newcomer: SignedUpUser;
  const tachi = profile === 'tachi';

  const ugpt = (u: SignedUpUser, rest: string) => `/api/v1/users/${u.user.id}/games/sdvx/Single${rest}`;
  /** The answer's document: the body itself (spec) or the envelope's body (tachi), after checking the status. */
  const body = <T = Record<string, unknown>>(res: Answer, status = 200): T => {
    if (tachi) return ok<T>(res, status);
    expect([res.status, res.body]).toEqual([status, expect.anything()]);
    return res.body as T;
  };
  /** The error's message (spec) or description (tachi), after checking the status and shape. */
  const error = (res: Answer, status: number): string => {
    if (tachi) return failed(res, status);
    expect([res.status, res.body]).toEqual([status, { statusCode: status, error: expect.any(String), message: expect.any(String) }]);
    return (res.body as { message: string }).message;
  };
  /** The preferences of the settings document: the document itself (spec), or its `preferences` (tachi). */
  const preferencesOf = (doc: Record<string, unknown>) => (tachi ? (doc.preferences as Record<string, unknown>) : doc);
  const userSignUp = (): Promise<SignedUpUser> => (tachi ? signUpTachi(t) : signUp(t));
  const token = (u: SignedUpUser, permissions: Parameters<typeof issueToken>[1]) => (tachi ? issueTachiToken(u, permissions) : issueToken(u, permissions));
  const play = async (u: SignedUpUser) => {
    const scores = [sdvxScore(1, 'EXH', 9_500_000, 'EXCESSIVE CLEAR', T0)];
    if (!tachi) return void (await importSdvx(u.agent, scores));
    const res = await u.agent.post('/api/v1/ir/direct-manual/import').send({ meta: { game: 'sdvx', playtype: 'Single', service: 'e2e' }, scores });
    await polledImport(t, res);
  };

  const DEFAULTS = {
    preferredScoreAlg: null,
    preferredSessionAlg: null,
    preferredProfileAlg: null,
    stats: [],
    preferredDefaultEnum: null,
    defaultTable: null,
    preferredRanking: null,
    gameSpecific: {},
  };

  beforeAll(async () => {
    t = await createTestApp({ API_PROFILE: profile });
    await loadScoreFixtures(t);
    const report = await new SeedLoader(t.database).load(new SeedSource(path.resolve('test/fixtures/ugpt-folders')), { games: ['sdvx', 'iidx'] });
    expect(report.rejected).toEqual([]);
    player = await userSignUp();
    other = await userSignUp();
    admin = await userSignUp();
    newcomer = await userSignUp();
    await makeAdmin(t, admin.user.id);
    await play(player);
    await play(other);
  }, 60_000);
  afterAll(async () => {
    await t.close();
  });

  describe('PATCH /settings: preferredDefaultEnum, defaultTable, preferredRanking, gameSpecific', () => {
    it('starts every preference at its default, in the profile’s document', async () => {
      const doc = body(await t.http().get(ugpt(player, '/settings')));
      if (tachi) expect(doc).toEqual({ userID: player.user.id, game: 'sdvx', playtype: 'Single', preferences: DEFAULTS, rivals: [] });
      else expect(doc).toEqual(DEFAULTS);
    });

    it('sets each one, keeps the others, and null unsets', async () => {
      const set = body(
        await player.agent.patch(ugpt(player, '/settings')).send({
          preferredDefaultEnum: 'grade',
          defaultTable: LEVELS_TABLE,
          preferredRanking: 'rival',
          gameSpecific: { vf6Target: 0.4 },
        }),
      );
      const expected = { ...DEFAULTS, preferredDefaultEnum: 'grade', defaultTable: LEVELS_TABLE, preferredRanking: 'rival', gameSpecific: { vf6Target: 0.4 } };
      expect(preferencesOf(set)).toEqual(expected);
      // An inactive table of the GPT is still one of its tables.
      const changed = body(await player.agent.patch(ugpt(player, '/settings')).send({ defaultTable: OLD_TABLE, preferredRanking: null, gameSpecific: {} }));
      expect(preferencesOf(changed)).toEqual({ ...expected, defaultTable: OLD_TABLE, preferredRanking: null });
      expect(preferencesOf(body(await t.http().get(ugpt(player, '/settings'))))).toEqual({ ...expected, defaultTable: OLD_TABLE, preferredRanking: null });
      const reset = body(await player.agent.patch(ugpt(player, '/settings')).send({ preferredDefaultEnum: null, defaultTable: null, gameSpecific: null }));
      expect(preferencesOf(reset)).toEqual(DEFAULTS);
    });

    it.each([
      ['an enum metric the GPT does not keep', { preferredDefaultEnum: 'score' }, /preferredDefaultEnum 'score'.*grade, lamp or null/],
      ['a table that does not exist', { defaultTable: 'sdvx-Single-nope' }, /table 'sdvx-Single-nope' does not exist on sdvx Single/],
      ['a ranking other than global or rival', { preferredRanking: 'friends' }, /preferredRanking/],
      ['a game-specific key of another game', { gameSpecific: { bpiTarget: 10 } }, /gameSpecific.*sdvx Single takes: vf6Target/],
      ['a vf6Target over 0.5', { gameSpecific: { vf6Target: 0.6 } }, /gameSpecific\.vf6Target/],
      ['a gameSpecific that is not an object', { gameSpecific: 'x' }, /gameSpecific must be an object/],
    ])('400s %s and changes nothing', async (_what, patch, message) => {
      expect(error(await player.agent.patch(ugpt(player, '/settings')).send({ preferredRanking: 'global', ...patch }), 400)).toMatch(message);
      expect(preferencesOf(body(await t.http().get(ugpt(player, '/settings'))))).toEqual(DEFAULTS);
    });

    it('answers 401 to a guest, 403 to another user or a token without customise_profile, 404 to a GPT not played', async () => {
      const patch = { preferredRanking: 'global' };
      error(await t.http().patch(ugpt(player, '/settings')).send(patch), 401);
      error(await other.agent.patch(ugpt(player, '/settings')).send(patch), 403);
      const weak = await token(player, ['submit_score']);
      error(await t.http().patch(ugpt(player, '/settings')).set(bearer(weak)).send(patch), 403);
      error(await newcomer.agent.patch(ugpt(newcomer, '/settings')).send(patch), 404);
      const strong = await token(player, ['customise_profile']);
      expect(preferencesOf(body(await t.http().patch(ugpt(player, '/settings')).set(bearer(strong)).send(patch)))).toEqual({
        ...DEFAULTS,
        preferredRanking: 'global',
      });
      body(await player.agent.patch(ugpt(player, '/settings')).send({ preferredRanking: null }));
    });
  });

  describe('PUT /showcase', () => {
    const STATS = [
      { mode: 'chart', chartID: fixtureChartID(1, 'EXH'), property: 'score' },
      { mode: 'folder', folderID: LEVEL_17_UP, property: 'lamp', gte: 2 },
    ];

    /** Stats as the profile serves them: Tachi names `property` `metric`. */
    const served = (stats: Record<string, unknown>[]) => (tachi ? stats.map(({ property, ...rest }) => ({ ...rest, metric: property })) : stats);
    /** The same stats under Tachi's name, as Tachi's web client writes them. */
    const WITH_METRIC = STATS.map(({ property, ...rest }) => ({ ...rest, metric: property }));

    it('replaces the showcase and answers the settings document with it; GET evaluates it', async () => {
      const doc = body(await other.agent.put(ugpt(other, '/showcase')).send(STATS));
      expect(preferencesOf(doc)).toEqual({ ...DEFAULTS, stats: served(STATS) });
      if (tachi) expect(doc).toMatchObject({ userID: other.user.id, game: 'sdvx', playtype: 'Single', rivals: [] });
      const results = body<{ stat: unknown; value: unknown }[]>(await t.http().get(ugpt(other, '/showcase')));
      expect(results.map((r) => r.stat)).toEqual(served(STATS));
      // 9,500,000 on 1-EXH; 1-EXH is level 14, so no chart of level 17+ is played.
      expect(results.map((r) => r.value)).toEqual([{ value: 9_500_000 }, { value: 0, outOf: 10 }]);
      expect(preferencesOf(body(await other.agent.put(ugpt(other, '/showcase')).send([])))).toEqual(DEFAULTS);
    });

    it("takes Tachi's name metric for property in the body in both profiles; both at once is a 400", async () => {
      expect(preferencesOf(body(await other.agent.put(ugpt(other, '/showcase')).send(WITH_METRIC))).stats).toEqual(served(STATS));
      expect(body<unknown[]>(await other.agent.patch(ugpt(other, '/showcase')).send(WITH_METRIC))).toEqual(served(STATS));
      expect(error(await other.agent.put(ugpt(other, '/showcase')).send([{ ...STATS[0], metric: 'score' }]), 400)).toMatch(
        /stats\[0\]: give property or metric/,
      );
    });

    it(`reads showcase/custom's measured value as ${tachi ? "metric (Tachi's name, what its web client sends)" : 'property'}, and documents it so`, async () => {
      const [own, foreign] = tachi ? ['metric', 'property'] : ['property', 'metric'];
      // As Tachi's game profile page asks for each stat.
      const custom = body<{ stat: unknown; result: unknown }>(
        await t.http().get(ugpt(other, `/showcase/custom?mode=folder&${own}=lamp&folderID=${LEVEL_17_UP}&gte=2`)),
      );
      expect(custom).toMatchObject({ stat: served([STATS[1]])[0], result: { value: 0, outOf: 10 } });
      const chart = body<{ stat: unknown }>(await t.http().get(ugpt(other, `/showcase/custom?mode=chart&${own}=score&chartID=${fixtureChartID(1, 'EXH')}`)));
      expect(chart.stat).toEqual(served([STATS[0]])[0]);
      // The other profile's name is unknown here; without the value, the message names it as this profile does.
      expect(error(await t.http().get(ugpt(other, `/showcase/custom?mode=chart&${foreign}=score&chartID=${fixtureChartID(1, 'EXH')}`)), 400)).toMatch(
        new RegExp(`property ${tachi ? 'property' : 'metric'} should not exist`),
      );
      expect(error(await t.http().get(ugpt(other, `/showcase/custom?mode=chart&chartID=${fixtureChartID(1, 'EXH')}`)), 400)).toMatch(
        new RegExp(`^${own} must be one of`),
      );
      const docs = (await t.http().get('/api/v1/docs.json')).body as { paths: Record<string, { get: { parameters: { in: string; name: string }[] } }> };
      const parameters = docs.paths['/api/v1/users/{userID}/games/{game}/{playtype}/showcase/custom'].get.parameters;
      expect(parameters.filter((p) => p.in === 'query').map((p) => p.name)).toEqual(expect.arrayContaining([own]));
      expect(parameters.map((p) => p.name)).not.toContain(foreign);
    });

    it.each([
      ['a body that is not an array', { stats: STATS }, /JSON array/],
      ['7 stats', [...STATS, ...STATS, ...STATS, STATS[0]], /at most 6/],
      ['an array folderID (accepted by Tachi, whose reads it then breaks)', [{ ...STATS[1], folderID: [LEVEL_17_UP] }], /stats\[0\]\.folderID/],
      ['a folder of another GPT', [{ ...STATS[1], folderID: IIDX_FOLDER }], /does not exist in sdvx Single/],
      ['a chart that does not exist', [{ ...STATS[0], chartID: 'nope' }], /The chart nope does not exist in sdvx Single/],
      ['a lamp index past the last lamp', [{ ...STATS[1], gte: 6 }], /index of a lamp/],
    ])('400s %s and keeps the showcase', async (_what, stats, message) => {
      body(await other.agent.put(ugpt(other, '/showcase')).send(STATS));
      expect(error(await other.agent.put(ugpt(other, '/showcase')).send(stats), 400)).toMatch(message);
      expect(preferencesOf(body(await t.http().get(ugpt(other, '/settings')))).stats).toEqual(served(STATS));
    });

    it('answers 401 to a guest, 403 to another user or a token without customise_profile, 404 to a GPT not played', async () => {
      error(await t.http().put(ugpt(player, '/showcase')).send(STATS), 401);
      error(await other.agent.put(ugpt(player, '/showcase')).send(STATS), 403);
      const weak = await token(player, ['submit_score']);
      error(await t.http().put(ugpt(player, '/showcase')).set(bearer(weak)).send(STATS), 403);
      error(await newcomer.agent.put(ugpt(newcomer, '/showcase')).send(STATS), 404);
      expect(preferencesOf(body(await t.http().get(ugpt(player, '/settings')))).stats).toEqual([]);
      const strong = await token(player, ['customise_profile']);
      expect(preferencesOf(body(await t.http().put(ugpt(player, '/showcase')).set(bearer(strong)).send(STATS))).stats).toEqual(served(STATS));
    });
  });

  describe('POST and DELETE /admin/supporter/:userID', () => {
    const supporter = (userID: number | string) => `/api/v1/admin/supporter/${userID}`;
    const isSupporter = async (u: SignedUpUser) => body<Record<string, unknown>>(await t.http().get(`/api/v1/users/${u.user.id}`)).isSupporter;

    it('marks a user (by id or username) a supporter and unmarks them; Tachi’s UserDocument shows it', async () => {
      expect(await isSupporter(player)).toBe(tachi ? false : undefined);
      expect(body(await admin.agent.post(supporter(player.user.id)))).toEqual({});
      expect(await isSupporter(player)).toBe(tachi ? true : undefined);
      expect(body(await admin.agent.delete(supporter(player.username)))).toEqual({});
      expect(await isSupporter(player)).toBe(tachi ? false : undefined);
      // Both are idempotent.
      body(await admin.agent.delete(supporter(player.user.id)));
      expect(await isSupporter(player)).toBe(tachi ? false : undefined);
    });

    it('answers 401 to a guest, 403 to a non-admin, 404 to an unknown user', async () => {
      error(await t.http().post(supporter(player.user.id)), 401);
      error(await player.agent.post(supporter(player.user.id)), 403);
      error(await player.agent.delete(supporter(player.user.id)), 403);
      error(await admin.agent.post(supporter(99_999_999)), 404);
      error(await admin.agent.delete(supporter('no_such_user')), 404);
      expect(await isSupporter(player)).toBe(tachi ? false : undefined);
    });
  });
});

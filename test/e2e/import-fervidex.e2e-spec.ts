import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { ImportDocument } from '../../src/presenters/import.presenter.js';
import type { ImportWorker } from '../../src/imports/import-worker.js';
import { createTestApp, usingRedis, type TestApp } from '../support/app.js';
import { startImportWorker } from '../support/import-worker.js';
import { importFormatContract } from '../support/import-format-contract.js';
import { loadFixtureCatalog, player, seededRandom, type Player } from '../support/imports.js';
import { countRows, importRows, storedGameStats, storedImport, storedOrphans, storedScore, storedScores } from '../support/stored.js';
import { bearer } from '../support/users.js';

const CATALOG = path.resolve('test/fixtures/imports/fervidex/catalog');
const chartID = (tag: string) => createHash('sha1').update(`fervidex-${tag}`).digest('hex');
const KICHIKU_SHA = createHash('sha256').update('fervidex-kichiku').digest('hex');

const UA = 'fervidex/1.3.0';
const BISTROVER = 'LDJ:J:B:A:2021091500';
const INFINITAS = 'P2D:J:B:A:2022010100';

/** The reference's worked example, on the fixture chart 28001 SP ANOTHER (1500 notes). */
const PLAY = {
  chart: 'spa',
  entry_id: 28001,
  pgreat: 900,
  great: 150,
  good: 10,
  bad: 3,
  poor: 7,
  fast: 40,
  slow: 30,
  combo_break: 5,
  ex_score: 1950,
  clear_type: 5,
  gauge: [80, 75, 255, 62],
  ghost: [],
  option: { style: 'RANDOM' },
};

describe('Fervidex hook (ir/fervidex, ir/fervidex-static, class submit)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    await loadFixtureCatalog(t.database, CATALOG);
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (route: string, token: string | null, body: unknown, headers: Record<string, string> = {}, prefix = '/ir') =>
    t
      .http()
      .post(`${prefix}/fervidex/${route}`)
      .set({ 'User-Agent': UA, 'X-Software-Model': BISTROVER, ...(token ? bearer(token) : {}), ...headers })
      .send(body as object);
  const submit = (token: string, body: unknown, headers: Record<string, string> = {}) => post('score/submit', token, body, headers);

  async function imported(token: string, body: unknown, headers: Record<string, string> = {}): Promise<ImportDocument> {
    const res = await submit(token, body, headers);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, description: 'Import successful.' });
    return res.body.body as ImportDocument;
  }

  const settingsOf = async (u: Player) =>
    (await u.agent.get(`/api/v1/users/${u.user.id}/integrations/fervidex/settings`)).body as { cards: string[] | null; forceStaticImport: boolean };

  const importsOf = (userID: number) => countRows(t, 'imports', { userID });
  const CLASS_CLEAR = { cleared: true, course_id: 3, play_style: 0, scores: {} };

  importFormatContract({
    importType: 'ir/fervidex',
    app: () => t,
    send: (token, body, headers) => post('score/submit', token, body, headers),
    input: PLAY,
    stores: { scores: 1, sessions: 1 },
    otherResults: [{ ...PLAY, pgreat: 899, great: 152 }],
    readsUserIntent: false,
    sameInputLater: true,
    answers: {
      imported: {
        status: 200,
        body: expect.objectContaining({ success: true, description: 'Import successful.', body: expect.objectContaining({ errors: [] }) }),
      },
      duplicate: { status: 200, body: expect.objectContaining({ success: true, body: expect.objectContaining({ scoreIDs: [], errors: [] }) }) },
      unauthenticated: { status: 401, body: { success: false, error: expect.any(String) } },
      unknownToken: { status: 401, body: { success: false, error: expect.any(String) } },
      otherScheme: { status: 401, body: { success: false, error: expect.any(String) } },
      forbidden: { status: 403, body: { success: false, description: expect.stringMatching(/submit_score/) } },
      banned: { status: 403, body: { success: false, description: expect.stringMatching(/banned/) } },
    },
    // The profile dump and the course clear take the same token, and answer alike without it.
    otherRoutes: ['profile/submit', 'class/submit'].map((route) => ({ name: route, send: (token, headers) => post(route, token, PLAY, headers) })),
    refused: [
      // Refusals use the key Fervidex reads: error.
      ...(
        [
          [{ 'User-Agent': 'curl/8.0' }, /^Invalid User-Agent/],
          [{ 'User-Agent': 'fervidex/1.2.0' }, /^Versions of fervidex < 1\.3\.0 are not supported\.$/],
          [{ 'User-Agent': 'fervidex/1.3' }, /^Invalid fervidex version/],
          [{ 'X-Software-Model': 'LDJ:J:B:Z:2021091500' }, /^2DX_BMS is not supported\.$/],
          [{ 'X-Software-Model': 'LDJ:J:B:A:2099010100' }, /^Invalid extension 2099010100/],
          [{ 'X-Software-Model': 'LDJ:J:B:E:2022082400' }, /^Unsupported Software Model LDJ:J:B:E:2022082400\.$/],
          [{ 'X-Software-Model': 'nonsense' }, /^Invalid X-Software-Model/],
        ] as const
      ).flatMap(([headers, message]) =>
        ['score/submit', 'profile/submit', 'class/submit'].map((route) => ({
          name: `${route} with ${JSON.stringify(headers)}`,
          send: (token: string) => post(route, token, route === 'score/submit' ? PLAY : CLASS_CLEAR, headers),
          answer: { status: 400, body: { success: false, error: expect.stringMatching(message) } },
        })),
      ),
      {
        name: 'no X-Software-Model',
        send: (token) =>
          t
            .http()
            .post('/ir/fervidex/score/submit')
            .set({ 'User-Agent': UA, ...bearer(token) })
            .send(PLAY),
        answer: { status: 400, body: expect.objectContaining({ error: expect.stringMatching(/X-Software-Model header is required/) }) },
      },
      ...(
        [
          ['a bad chart code', { ...PLAY, chart: 'spx' }],
          ['a negative judgement', { ...PLAY, great: -1 }],
          ['clear_type 9', { ...PLAY, clear_type: 9 }],
          ['an unknown option', { ...PLAY, option: { gauge: 'SUPER' } }],
          ['an array', [PLAY]],
          ['an empty object', {}],
        ] as const
      ).map(([name, body]) => ({
        name: `a body with ${name}`,
        send: (token: string) => submit(token, body),
        answer: { status: 400, body: { success: false, error: expect.stringMatching(/^Invalid Fervidex Request\? /) } },
      })),
      {
        name: 'malformed JSON',
        send: (token) =>
          t
            .http()
            .post('/ir/fervidex/score/submit')
            .set({ 'User-Agent': UA, 'X-Software-Model': BISTROVER, ...bearer(token), 'Content-Type': 'application/json' })
            .send('{"chart":'),
        answer: { status: 400, body: { success: false, error: expect.any(String) } },
      },
    ],
  });

  describe('a play', () => {
    let p: Player;
    let first: ImportDocument;
    beforeAll(async () => {
      p = await player(t);
      first = await imported(p.token, PLAY);
    });

    it('is imported as the reference works the example out, on the chart of the header version', async () => {
      expect(first.importType).toBe('ir/fervidex');
      expect(first.scoreIDs).toHaveLength(1);
      expect(first.errors).toEqual([]);
      const [score] = await storedScores(t, p.user.id);
      expect(score).toMatchObject({
        chartID: chartID('28001-SP-A'),
        service: 'Fervidex',
        importType: 'ir/fervidex',
        scoreMeta: { random: 'RANDOM', gauge: 'NORMAL', range: 'NONE', assist: 'NO ASSIST' },
      });
      expect(score.scoreData).toMatchObject({
        score: 1950,
        lamp: 'HARD CLEAR',
        judgements: { pgreat: 900, great: 150, good: 10, bad: 3, poor: 7 },
        optional: { fast: 40, slow: 30, comboBreak: 5, bp: 10, gauge: 62, gaugeHistory: [80, 75, null, 62] },
      });
      expect(score.scoreData.percent).toBeCloseTo((100 * 1950) / 3000, 6);
      expect(Date.now() - (score.timeAchieved ?? 0)).toBeLessThan(60_000);
      const pb = await t.http().get(`/api/v1/users/${p.user.id}/games/iidx/SP/pbs/${chartID('28001-SP-A')}`);
      expect(pb.body.pb.scoreData.lamp).toBe('HARD CLEAR');
    });

    it('sent again with highlight highlights the stored score', async () => {
      const again = await imported(p.token, { ...PLAY, highlight: true });
      expect(again.scoreIDs).toEqual([]);
      const [score] = await storedScores(t, p.user.id);
      expect(score.highlighted).toBe(true);
    });

    it('a different result on the same chart (the same EX score, other judgements) with highlight is a new score, highlighted', async () => {
      const doc = await imported(p.token, { ...PLAY, pgreat: 899, great: 152, highlight: true });
      expect(doc.scoreIDs).toHaveLength(1);
      expect((await storedScore(t, doc.scoreIDs[0]))?.highlighted).toBe(true);
    });

    it('is served under /api/v1/ir too', async () => {
      const res = await post('score/submit', p.token, { ...PLAY, chart: 'sph', pgreat: 700, ex_score: 1550 }, {}, '/api/v1/ir');
      expect(res.status).toBe(200);
      expect(res.body.body.scoreIDs).toHaveLength(1);
    });
  });

  describe('chart choice', () => {
    let p: Player;
    beforeAll(async () => {
      p = await player(t);
    });

    it('takes the version from X-Software-Model: a version the chart lacks makes an orphan (HTTP 200, errors[0])', async () => {
      const doc = await imported(p.token, PLAY, { 'X-Software-Model': 'LDJ:J:B:A:2020092900' });
      expect(doc.scoreIDs).toEqual([]);
      expect(doc.errors).toHaveLength(1);
      expect(doc.errors[0]).toMatchObject({ type: 'SongOrChartNotFound' });
      expect(doc.errors[0].message).toMatch(/in version 27/);
      const orphans = await storedOrphans(t, p.user.id);
      expect(orphans).toHaveLength(1);
      expect(orphans[0].context).toEqual({ service: 'Fervidex', version: '27' });
    });

    it('matches by in-game id in the version: CastHour, BISTROVER omnimix and a DP chart', async () => {
      const casthour = await imported(p.token, { ...PLAY, pgreat: 800, ex_score: 1750 }, { 'X-Software-Model': 'TDJ:J:B:A:2022082400' });
      const omni = await imported(p.token, { ...PLAY, pgreat: 801, ex_score: 1752 }, { 'X-Software-Model': 'LDJ:J:B:X:2021091500' });
      const dp = await imported(p.token, { ...PLAY, chart: 'dpa', option: { style: 'MIRROR', style_2p: 'S_RANDOM' } });
      for (const doc of [casthour, omni, dp]) expect(doc.scoreIDs).toHaveLength(1);
      const dpScore = (await storedScore(t, dp.scoreIDs[0]))!;
      expect(dpScore).toMatchObject({ chartID: chartID('28001-DP-A'), playtype: 'DP', scoreMeta: { random: ['MIRROR', 'S-RANDOM'] } });
    });

    it('remaps 21201 ANOTHER to 12250 LEGGENDARIA', async () => {
      const doc = await imported(p.token, { ...PLAY, entry_id: 21201 });
      const row = (await storedScore(t, doc.scoreIDs[0]))!;
      expect(row.chartID).toBe(chartID('12250-SP-L'));
    });

    it('finds a custom (2dxtra) chart by its SHA256', async () => {
      const doc = await imported(p.token, { ...PLAY, custom: true, chart_sha256: KICHIKU_SHA.toUpperCase() }, { 'X-Software-Model': 'LDJ:J:B:E:2021091500' });
      expect(doc.errors).toEqual([]);
      const row = (await storedScore(t, doc.scoreIDs[0]))!;
      expect(row.chartID).toBe(chartID('28001-SP-KA'));
    });

    it('keeps a custom chart it cannot find as an orphan (the iidxChartHash match type), retried by hash', async () => {
      const unknown = await imported(p.token, { ...PLAY, custom: true, chart_sha256: 'F'.repeat(64) });
      expect(unknown.errors).toEqual([{ type: 'SongOrChartNotFound', message: expect.stringMatching(/no iidx chart has the hash f{64}/i) }]);
      const orphan = (await storedOrphans(t, p.user.id)).find((o) => JSON.stringify(o.data).includes('f'.repeat(64)));
      expect(orphan?.data).toMatchObject({ matchType: 'iidxChartHash', identifier: 'f'.repeat(64), difficulty: null });
    });

    it('iidxChartHash is a batch-manual match type of IIDX too (the same shared matcher)', async () => {
      const element = { matchType: 'iidxChartHash', score: 1900, lamp: 'CLEAR', judgements: { pgreat: 900, great: 100 }, timeAchieved: null };
      const res = await t
        .http()
        .post('/api/v1/ir/direct-manual/import')
        .set(bearer(p.token))
        .send({
          meta: { game: 'iidx', playtype: 'SP', service: 'test' },
          scores: [
            { ...element, identifier: KICHIKU_SHA },
            { ...element, identifier: 'abc' },
          ],
        });
      expect(res.status).toBe(200);
      expect(res.body.errors).toEqual([
        { type: 'InvalidDatapoint', message: expect.stringMatching(/^scores\[1\]: .*SHA256 chart hash \(64 hex characters\)/) },
      ]);
      const row = (await storedScore(t, res.body.scoreIDs[0]))!;
      expect(row.chartID).toBe(chartID('28001-SP-KA'));
    });

    it('reports a custom chart without a SHA256 as an invalid score', async () => {
      const notSha = await imported(p.token, { ...PLAY, custom: true, chart_sha256: 'xyz' });
      expect(notSha.errors[0].message).toMatch(/is not a SHA256/);
      const missing = await imported(p.token, { ...PLAY, custom: true });
      expect(missing.errors[0].message).toMatch(/chart_sha256 is missing/);
    });

    it('skips BEGINNER silently and refuses a final gauge above 100 as a per-score error', async () => {
      const beginner = await imported(p.token, { ...PLAY, chart: 'spb' });
      expect(beginner).toMatchObject({ scoreIDs: [], errors: [] });
      const gauge = await imported(p.token, { ...PLAY, gauge: [50, 150] });
      expect(gauge.errors).toEqual([{ type: 'InvalidDatapoint', message: 'scores[0]: The final gauge value 150 is above 100.' }]);
    });

    it('reports an EX score above the chart maximum as an invalid score', async () => {
      const doc = await imported(p.token, { ...PLAY, pgreat: 1500, great: 1, ex_score: 3001 });
      expect(doc.scoreIDs).toEqual([]);
      expect(doc.errors[0].type).toBe('InvalidDatapoint');
      expect(doc.errors[0].message).toMatch(/3000/);
      const mismatch = await imported(p.token, { ...PLAY, ex_score: 1951 });
      expect(mismatch.errors[0].message).toMatch(/pgreat × 2 \+ great is 1950, but the EX score is 1951/);
    });
  });

  describe('profile dumps (ir/fervidex-static)', () => {
    const DUMP = {
      sp_dan: 16,
      dp_dan: 12,
      scores: {
        '27010': {
          spa: { ex_score: 2100, miss_count: -1, clear_type: 4 },
          dph: { ex_score: 1500, miss_count: 12, clear_type: 5 },
          spb: { ex_score: 5, clear_type: 1 },
        },
        '99999': { spn: { ex_score: 10, clear_type: 1 } },
      },
    };
    const ACCEPTED = { success: true, description: 'Your import has been loaded for further processing.', body: {} };

    it('from INFINITAS: 202, then the scores of both playtypes and both dans, in one import', async () => {
      const p = await player(t);
      const res = await post('profile/submit', p.token, DUMP, { 'X-Software-Model': INFINITAS });
      expect(res.status).toBe(202);
      expect(res.body).toEqual(ACCEPTED);
      const stored = await storedScores(t, p.user.id);
      expect(stored.map((s) => [s.chartID, s.scoreData.lamp, s.scoreData.optional.bp, s.timeAchieved, s.service, s.importType]).sort()).toEqual(
        [
          [chartID('27010-SP-A'), 'CLEAR', null, null, 'Fervidex Static', 'ir/fervidex-static'],
          [chartID('27010-DP-H'), 'HARD CLEAR', 12, null, 'Fervidex Static', 'ir/fervidex-static'],
        ].sort(),
      );
      expect((await storedGameStats(t, p.user.id, 'iidx', 'SP'))?.classes).toMatchObject({ dan: 'DAN_10' });
      expect((await storedGameStats(t, p.user.id, 'iidx', 'DP'))?.classes).toMatchObject({ dan: 'DAN_6' });
      // 99999 is no chart: kept as an orphan of INFINITAS.
      expect((await storedOrphans(t, p.user.id)).map((o) => o.context)).toEqual([{ service: 'Fervidex Static', version: 'inf' }]);
      expect(await importsOf(p.user.id)).toBe(1);
      const [row] = await importRows(t, { userID: p.user.id });
      const doc = (await storedImport(t, row.importID))!;
      expect(doc).toMatchObject({ importType: 'ir/fervidex-static', idStrings: ['iidx:SP', 'iidx:DP'] });
      expect(doc.classDeltas).toEqual([
        { game: 'iidx', playtype: 'SP', set: 'dan', old: null, new: 'DAN_10' },
        { game: 'iidx', playtype: 'DP', set: 'dan', old: null, new: 'DAN_6' },
      ]);

      const again = await post('profile/submit', p.token, DUMP, { 'X-Software-Model': INFINITAS });
      expect(again.status).toBe(202);
      expect(await storedScores(t, p.user.id)).toHaveLength(2);
      expect(await storedOrphans(t, p.user.id)).toHaveLength(1);
    });

    it('from an arcade model: only the dans, of a profile that exists', async () => {
      const p = await player(t);
      await imported(p.token, PLAY);
      const res = await post('profile/submit', p.token, DUMP);
      expect(res.status).toBe(202);
      expect(await storedScores(t, p.user.id)).toHaveLength(1);
      expect((await storedGameStats(t, p.user.id, 'iidx', 'SP'))?.classes).toMatchObject({ dan: 'DAN_10' });
    });

    it("from an arcade model with the user's forceStaticImport: the scores too, once (the setting is used up)", async () => {
      const p = await player(t);
      await p.agent.patch(`/api/v1/users/${p.user.id}/integrations/fervidex/settings`).send({ forceStaticImport: true }).expect(200);
      // A malformed dump imports nothing and leaves the setting for the next one.
      expect((await post('profile/submit', p.token, { scores: [] })).status).toBe(400);
      expect((await settingsOf(p)).forceStaticImport).toBe(true);

      const res = await post('profile/submit', p.token, {
        ...DUMP,
        scores: { ...DUMP.scores, '28001': { spa: { ex_score: 2000, miss_count: 3, clear_type: 4 } } },
      });
      expect(res.status).toBe(202);
      const stored = await storedScores(t, p.user.id);
      expect(stored.map((s) => [s.chartID, s.scoreData.score, s.scoreData.lamp, s.service])).toEqual([
        [chartID('28001-SP-A'), 2000, 'CLEAR', 'Fervidex Static'],
      ]);
      // The fixtures have 27010 in 27 and INFINITAS only: in BISTROVER (28) its scores, and 99999's, are orphans.
      const orphans = await storedOrphans(t, p.user.id);
      expect(orphans).toHaveLength(3);
      expect(orphans.every((o) => (o.context as { version: string }).version === '28')).toBe(true);
      expect((await settingsOf(p)).forceStaticImport).toBe(false);

      // The next arcade dump takes the dans only.
      const before = orphans.length;
      await post('profile/submit', p.token, { ...DUMP, scores: { '99998': { spn: { ex_score: 10, clear_type: 1 } } } }).expect(202);
      expect(await storedOrphans(t, p.user.id)).toHaveLength(before);
    });

    it('a malformed dump is a 400 with error, and imports nothing', async () => {
      const p = await player(t);
      // The last, JSON that is no object ("dump"); a string sent as a form would be a 415 (Fervidex sends JSON).
      for (const body of [{ scores: { '1': { spx: { ex_score: 1, clear_type: 1 } } } }, { scores: { abc: {} } }, { scores: [] }, JSON.stringify('dump')]) {
        const res = await post('profile/submit', p.token, body, { 'X-Software-Model': INFINITAS, 'Content-Type': 'application/json' });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ success: false, error: expect.any(String) });
      }
      expect(await importsOf(p.user.id)).toBe(0);
    });
  });

  describe('class submit', () => {
    let p: Player;
    beforeAll(async () => {
      p = await player(t);
      await imported(p.token, PLAY);
    });
    const clear = (body: unknown) => post('class/submit', p.token, body);

    it('an uncleared course changes nothing', async () => {
      const res = await clear({ cleared: false, course_id: 18, play_style: 0 });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, description: 'No Update Made.', body: {} });
      expect(await importsOf(p.user.id)).toBe(1);
    });

    it('a cleared course raises the dan, recorded as a class change of an import', async () => {
      const res = await clear({ cleared: true, course_id: 17, play_style: 0 });
      expect(res.body).toEqual({ success: true, description: 'Dan changed!', body: {} });
      expect((await storedGameStats(t, p.user.id, 'iidx', 'SP'))?.classes).toMatchObject({ dan: 'CHUUDEN' });
      const [row] = await importRows(t, { userID: p.user.id, importType: 'ir/fervidex-static' });
      const doc = (await storedImport(t, row.importID))!;
      expect(doc.classDeltas).toEqual([{ game: 'iidx', playtype: 'SP', set: 'dan', old: null, new: 'CHUUDEN' }]);
    });

    it('a lower or equal course leaves the dan as it is', async () => {
      for (const course_id of [10, 17]) {
        const res = await clear({ cleared: true, course_id, play_style: 0 });
        expect(res.body).toEqual({ success: true, description: 'Dan unchanged, was worse than your current dan.', body: {} });
      }
      expect((await storedGameStats(t, p.user.id, 'iidx', 'SP'))?.classes).toMatchObject({ dan: 'CHUUDEN' });
    });

    it("a cleared course of a playtype never played creates its profile with the dan (as Tachi, unlike an import's classes)", async () => {
      expect(await storedGameStats(t, p.user.id, 'iidx', 'DP')).toBeUndefined();
      const res = await clear({ cleared: true, course_id: 9, play_style: 1 });
      expect(res.body).toEqual({ success: true, description: 'Dan changed!', body: {} });
      expect((await storedGameStats(t, p.user.id, 'iidx', 'DP'))?.classes).toEqual({ dan: 'DAN_3' });
      const profile = await t.http().get(`/api/v1/users/${p.user.id}/games/iidx/DP`);
      expect(profile.status).toBe(200);
      expect(JSON.stringify(profile.body)).toContain('DAN_3');
    });

    it.each([
      [{ cleared: true, course_id: 19, play_style: 0 }],
      [{ cleared: true, course_id: -1, play_style: 0 }],
      [{ cleared: true, course_id: 3, play_style: 2 }],
      [{ cleared: 'yes', course_id: 3, play_style: 0 }],
      [{ course_id: 3, play_style: 0 }],
      [[]],
    ])('refuses %p with a 400 error', async (body) => {
      const res = await clear(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, error: expect.stringMatching(/^Invalid Fervidex Request\? /) });
    });
  });

  describe('Fervidex settings (GET/PATCH /users/:userID/integrations/fervidex/settings) and the card filter', () => {
    const url = (u: Player) => `/api/v1/users/${u.user.id}/integrations/fervidex/settings`;

    it('has the defaults until set; PATCH sets the given fields and answers the whole settings', async () => {
      const p = await player(t);
      expect((await p.agent.get(url(p))).body).toEqual({ cards: null, forceStaticImport: false });
      const set = await p.agent.patch(url(p)).send({ cards: ['E004010000000001', 'C02'] });
      expect(set.status).toBe(200);
      expect(set.body).toEqual({ cards: ['E004010000000001', 'C02'], forceStaticImport: false });
      expect((await p.agent.patch(url(p)).send({ forceStaticImport: true })).body).toEqual({ cards: ['E004010000000001', 'C02'], forceStaticImport: true });
      expect((await p.agent.patch(url(p)).send({})).body).toEqual({ cards: ['E004010000000001', 'C02'], forceStaticImport: true });
      expect((await p.agent.patch(url(p)).send({ cards: [] })).body).toEqual({ cards: null, forceStaticImport: true });
      expect((await p.agent.patch(url(p)).send({ cards: null })).body.cards).toBeNull();
      expect((await p.agent.get(`/api/v1/users/me/integrations/fervidex/settings`)).body).toEqual({ cards: null, forceStaticImport: true });
    });

    it.each([
      ['seven cards', { cards: ['1', '2', '3', '4', '5', '6', '7'] }, /cards/],
      ['a card with a space', { cards: ['E004 01'] }, /card/],
      ['an empty card', { cards: [''] }, /card/],
      ['a card twice', { cards: ['A', 'A'] }, /cards/],
      ['cards not a list', { cards: 'E004' }, /cards/],
      ['forceStaticImport not a boolean', { forceStaticImport: 'yes' }, /forceStaticImport/],
      ['an unknown key', { card: ['A'] }, /card/],
    ])('PATCH with %s is a 400', async (_, body, message) => {
      const p = await player(t);
      const res = await p.agent.patch(url(p)).send(body);
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body.message)).toMatch(message);
      expect((await p.agent.get(url(p))).body).toEqual({ cards: null, forceStaticImport: false });
    });

    it("takes a session of the user: 401 without one, 403 for a token or another user's session", async () => {
      const p = await player(t);
      const other = await player(t);
      expect((await t.http().get(url(p))).status).toBe(401);
      expect((await t.http().patch(url(p)).send({ forceStaticImport: true })).status).toBe(401);
      expect((await t.http().get(url(p)).set(bearer(p.token))).status).toBe(403);
      expect((await t.http().patch(url(p)).set(bearer(p.token)).send({ forceStaticImport: true })).status).toBe(403);
      expect((await other.agent.get(url(p))).status).toBe(403);
      expect((await other.agent.patch(url(p)).send({ forceStaticImport: true })).status).toBe(403);
      expect((await p.agent.get(url(p))).body).toEqual({ cards: null, forceStaticImport: false });
      expect((await t.http().get(`/api/v1/users/999999/integrations/fervidex/settings`)).status).toBe(404);
    });

    it('with cards set, every route needs X-Account-Id naming one of them (400 with error otherwise, nothing stored)', async () => {
      const p = await player(t);
      await p.agent
        .patch(url(p))
        .send({ cards: ['E004010000000001'] })
        .expect(200);
      const bodies: Record<string, unknown> = {
        'score/submit': PLAY,
        'profile/submit': { sp_dan: 3, scores: {} },
        'class/submit': { cleared: true, course_id: 3, play_style: 0 },
      };
      for (const [route, body] of Object.entries(bodies)) {
        const missing = await post(route, p.token, body);
        expect(missing.status).toBe(400);
        expect(missing.body).toEqual({ success: false, error: expect.stringMatching(/X-Account-Id header is required/) });
        const other = await post(route, p.token, body, { 'X-Account-Id': 'E004010000000002' });
        expect(other.status).toBe(400);
        expect(other.body).toEqual({ success: false, error: 'The card E004010000000002 is not in your list of filters. Ignoring.' });
      }
      expect(await importsOf(p.user.id)).toBe(0);
      // Header checks come first: a bad User-Agent is refused as such, whatever the card.
      expect((await post('score/submit', p.token, PLAY, { 'User-Agent': 'curl/8.0' })).body.error).toMatch(/^Invalid User-Agent/);

      const ok = await post('score/submit', p.token, PLAY, { 'X-Account-Id': 'E004010000000001' });
      expect(ok.status).toBe(200);
      expect(ok.body.body.scoreIDs).toHaveLength(1);
      expect((await post('class/submit', p.token, bodies['class/submit'], { 'X-Account-Id': 'E004010000000001' })).body.description).toBe('Dan changed!');
      expect((await post('profile/submit', p.token, bodies['profile/submit'], { 'X-Account-Id': 'E004010000000001' })).status).toBe(202);
    });

    it('without cards (null or emptied) any card or none is accepted', async () => {
      const p = await player(t);
      await p.agent
        .patch(url(p))
        .send({ cards: ['A1'] })
        .expect(200);
      await p.agent.patch(url(p)).send({ cards: [] }).expect(200);
      expect((await post('score/submit', p.token, PLAY)).status).toBe(200);
      expect((await post('score/submit', p.token, { ...PLAY, pgreat: 899, great: 152 }, { 'X-Account-Id': 'ZZZ' })).status).toBe(200);
    });
  });

  it('property: random and truncated bodies on the three routes only ever answer 200, 202 or 4xx', async () => {
    const p = await player(t);
    const next = seededRandom(97);
    const text = JSON.stringify(PLAY);
    const values = [null, -1, 0, 7, 300, 1.5, 'spa', 'EX_HARD', true, [], {}, [1, 2], { a: 1 }];
    const routes = ['score/submit', 'profile/submit', 'class/submit'];
    for (let i = 0; i < 45; i++) {
      const route = routes[i % 3];
      let res;
      if (i % 2 === 0) {
        res = await t
          .http()
          .post(`/ir/fervidex/${route}`)
          .set({ 'User-Agent': UA, 'X-Software-Model': next() < 0.5 ? BISTROVER : INFINITAS, ...bearer(p.token), 'Content-Type': 'application/json' })
          .send(text.slice(0, Math.floor(next() * text.length)));
      } else {
        const body: Record<string, unknown> = {
          ...PLAY,
          cleared: true,
          course_id: 3,
          play_style: 0,
          scores: { '27010': { spa: { ex_score: 5, clear_type: 1 } } },
        };
        for (const key of Object.keys(body)) if (next() < 0.3) body[key] = values[Math.floor(next() * values.length)];
        res = await post(route, p.token, body, { 'X-Software-Model': next() < 0.5 ? BISTROVER : INFINITAS });
      }
      expect([200, 202, 400, 413]).toContain(res.status);
      if (res.status >= 400) expect(res.body).toEqual({ success: false, error: expect.any(String) });
    }
  });
});

(usingRedis ? describe : describe.skip)(usingRedis ? 'Fervidex hook in queue mode' : 'Fervidex hook in queue mode — skipped: TEST_REDIS_URL is not set', () => {
  let t: TestApp;
  let worker: ImportWorker;
  beforeAll(async () => {
    t = await createTestApp({}, { importQueue: 'queue' });
    await loadFixtureCatalog(t.database, CATALOG);
    worker = await startImportWorker(t);
  });
  afterAll(async () => {
    await worker.close();
    await t.close();
  });

  const post = (route: string, token: string, body: unknown, model = BISTROVER) =>
    t
      .http()
      .post(`/ir/fervidex/${route}`)
      .set({ 'User-Agent': UA, 'X-Software-Model': model, ...bearer(token) })
      .send(body as object);

  it('imports plays and course clears in the request, and queues profile dumps', async () => {
    const p = await player(t);
    const play = await post('score/submit', p.token, PLAY);
    expect(play.status).toBe(200);
    expect(play.body.body.scoreIDs).toHaveLength(1);
    const course = await post('class/submit', p.token, { cleared: true, course_id: 12, play_style: 0 });
    expect(course.body.description).toBe('Dan changed!');

    const dump = await post('profile/submit', p.token, { sp_dan: 18, scores: { '27010': { spa: { ex_score: 2000, clear_type: 6 } } } }, INFINITAS);
    expect(dump.status).toBe(202);
    expect(dump.body).toEqual({ success: true, description: 'Your import has been loaded for further processing.', body: {} });
    for (let i = 0; i < 100 && (await storedScores(t, p.user.id)).length < 2; i++) await new Promise((r) => setTimeout(r, 100));
    expect((await storedScores(t, p.user.id)).map((s) => s.importType).sort()).toEqual(['ir/fervidex', 'ir/fervidex-static']);
    expect((await storedGameStats(t, p.user.id, 'iidx', 'SP'))?.classes).toMatchObject({ dan: 'KAIDEN' });
  });
});

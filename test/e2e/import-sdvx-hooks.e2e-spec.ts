import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ImportDocument } from '../../src/presenters/import.presenter.js';
import { SeedLoader } from '../../src/seeds/seed-loader.js';
import { SeedSource } from '../../src/seeds/seed-source.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { importFormatContract } from '../support/import-format-contract.js';
import { loadFixtureCatalog, player, type Player } from '../support/imports.js';
import { countRows, storedOrphans, storedScore, storedScores } from '../support/stored.js';
import { bearer } from '../support/users.js';
import { IntegrationSettingsRepository } from '../../src/repositories/integration-settings.repository.js';
import { kshookExportEntry, kshookSave, sdvx5, sdvx6 } from '../fixtures/imports/sdvx-hooks/payloads.js';
import { TACHI_SEEDS } from '../support/tachi-seeds.js';

/** Chart ids of test/fixtures/imports/sdvx-hooks: sha1 of "sdvx-hooks-<inGameID>-<difficulty>". */
const chartID = (inGameID: number, difficulty: string) => createHash('sha1').update(`sdvx-hooks-${inGameID}-${difficulty}`).digest('hex');

const KSHOOK_HEADERS: Record<string, string> = { 'User-Agent': 'kshook/1.0.4', 'X-Software-Model': 'QCV:J:B:A:2023121200' };
const BARBATOS = '/ir/barbatos/score/submit';
const SAVE = '/ir/kshook/sv6c/score/save';
const EXPORT = '/ir/kshook/sv6c/score/export';

interface HookAnswer {
  success: boolean;
  description?: string;
  error?: string;
  body?: ImportDocument;
}

describe('SOUND VOLTEX score hooks: Barbatos and kshook', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    await loadFixtureCatalog(t.database, '../imports/sdvx-hooks');
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (url: string, token: string | undefined, body: unknown, headers: Record<string, string> = {}) =>
    t
      .http()
      .post(url)
      .set({ ...(token ? bearer(token) : {}), ...headers })
      .send(body as object);
  const barbatos = (p: Player, body: unknown, url = BARBATOS) => post(url, p.token, body);
  const save = (p: Player, body: unknown, headers = KSHOOK_HEADERS) => post(SAVE, p.token, body, headers);
  /** Turns on the player's forceStaticImport (the web client's switch), which an export uses up. */
  const forceStatic = (p: Player) =>
    p.agent.patch(`/api/v1/users/${p.user.id}/integrations/kshook-sv6c/settings`).send({ forceStaticImport: true }).expect(200);
  /** An export with forceStaticImport turned on first, for the token's user (found by /status), when there is one. */
  const postExport = async (token: string | undefined, body: unknown, headers: Record<string, string>) => {
    const whoami = token ? ((await t.http().get('/api/v1/status').set(bearer(token))).body as { whoami: number | null }).whoami : null;
    if (whoami) await t.app.get(IntegrationSettingsRepository).saveKshookSv6c(whoami, { forceStaticImport: true });
    return post(EXPORT, token, body, headers);
  };
  const exportProfile = async (p: Player, body: unknown, headers = KSHOOK_HEADERS) => {
    await forceStatic(p);
    return post(EXPORT, p.token, body, headers);
  };

  const ugpt = (p: Player, route: string) => t.http().get(`/api/v1/users/${p.user.id}/games/sdvx/Single/${route}`);

  describe('Barbatos', () => {
    it('imports an SDVX6 score into the EXCEED GEAR chart, answered as Tachi does; it shows in the UGPT routes', async () => {
      const p = await player(t);
      const before = Date.now();
      const res = await barbatos(p, sdvx6({ song_id: 501, difficulty: 2 }));
      expect(res.status).toBe(200);
      const answer = res.body as HookAnswer;
      expect(answer).toMatchObject({ success: true, description: 'Import successful.', body: { importType: 'ir/barbatos', errors: [], userID: p.user.id } });
      expect(answer.body!.scoreIDs).toHaveLength(1);
      expect(answer.body!.createdSessions).toHaveLength(1);

      const [row] = await storedScores(t, p.user.id);
      expect(row).toMatchObject({ chartID: chartID(501, 'EXH'), service: 'Barbatos (exceed)', importType: 'ir/barbatos' });
      expect(row.timeAchieved).toBeGreaterThanOrEqual(before);
      expect(row.timeAchieved).toBeLessThanOrEqual(Date.now());
      expect(row.scoreData).toMatchObject({
        score: 9_900_000,
        lamp: 'CLEAR',
        grade: 'S',
        percent: 99,
        judgements: { critical: 1050, near: 11, miss: 3 },
        optional: { fast: 7, slow: 4, maxCombo: 1200, gauge: 82, exScore: 3210 },
      });
      expect(row.scoreMeta).toEqual({ inSkillAnalyser: null });

      const recent = await ugpt(p, 'scores/recent');
      expect(recent.status).toBe(200);
      expect((recent.body as { scores: { scoreID: string }[] }).scores.map((s) => s.scoreID)).toEqual(answer.body!.scoreIDs);
      const pbs = await ugpt(p, 'pbs/best');
      expect((pbs.body as { pbs: { chartID: string }[] }).pbs.map((pb) => pb.chartID)).toEqual([chartID(501, 'EXH')]);
      const sessions = await ugpt(p, 'sessions/recent');
      expect((sessions.body as { scores: string[] }[]).map((s) => s.scores)).toEqual([answer.body!.scoreIDs]);
    });

    it('imports an SDVX5 score into the VIVID WAVE chart; difficulty 3 finds the INF-type chart (GRV here)', async () => {
      const p = await player(t);
      const res = await barbatos(p, sdvx5({ song_id: 502, difficulty: 3, level: 18 }));
      expect(res.status).toBe(200);
      expect((res.body as HookAnswer).body!.errors).toEqual([]);
      const [row] = await storedScores(t, p.user.id);
      expect(row).toMatchObject({ chartID: chartID(502, 'GRV'), service: 'Barbatos (vivid)' });
      expect(row.scoreMeta).toEqual({ inSkillAnalyser: true });
      expect(row.scoreData).toMatchObject({ lamp: 'EXCESSIVE CLEAR', optional: { exScore: null, gauge: 73.5 } });
    });

    it('is served at /api/v1/ir/… too', async () => {
      const p = await player(t);
      const res = await barbatos(p, sdvx6({ song_id: 501, difficulty: 0 }), `/api/v1${BARBATOS}`);
      expect(res.status).toBe(200);
      expect((await storedScores(t, p.user.id))[0].chartID).toBe(chartID(501, 'NOV'));
    });

    it("a chart not in the payload's version is an orphan: 200 with the error in body.errors, kept for later", async () => {
      const p = await player(t);
      // 503 exists only from EXCEED GEAR on.
      const res = await barbatos(p, sdvx5({ song_id: 503, difficulty: 2 }));
      expect(res.status).toBe(200);
      const doc = (res.body as HookAnswer).body!;
      expect(doc.scoreIDs).toEqual([]);
      expect(doc.errors).toEqual([{ type: 'SongOrChartNotFound', message: expect.stringMatching(/^scores\[0\]: .*in version vivid/) }]);
      expect(await storedOrphans(t, p.user.id)).toHaveLength(1);
      // The same song as SDVX6 is found.
      expect((await barbatos(p, sdvx6({ song_id: 503, difficulty: 2 }))).body).toMatchObject({ body: { errors: [] } });
    });

    it('a score the game rules refuse is an InvalidDatapoint in body.errors, with HTTP 200', async () => {
      const p = await player(t);
      const res = await barbatos(p, sdvx6({ song_id: 501, difficulty: 2, clear_type: 5, score: 9_000_000 }));
      expect(res.status).toBe(200);
      expect((res.body as HookAnswer).body!.errors).toEqual([
        { type: 'InvalidDatapoint', message: 'scores[0]: A PERFECT ULTIMATE CHAIN must have a score of 10,000,000.' },
      ]);
      expect(await storedScores(t, p.user.id)).toEqual([]);
    });
  });

  /** An import answered as Tachi does: the ImportDocument in body. */
  const importedAs = (importType: string, scoreIDs: unknown = expect.any(Array)) => ({
    status: 200,
    body: expect.objectContaining({ success: true, description: 'Import successful.', body: expect.objectContaining({ importType, scoreIDs }) }),
  });
  const nothingNew = { status: 200, body: expect.objectContaining({ success: true, body: expect.objectContaining({ scoreIDs: [], errors: [] }) }) };

  const barbatosPlay = sdvx6({ song_id: 501, difficulty: 4, score: 9_700_000 });
  importFormatContract({
    importType: 'ir/barbatos',
    app: () => t,
    send: (token, body, headers) => post(BARBATOS, token ?? undefined, body, headers),
    input: barbatosPlay,
    stores: { scores: 1, sessions: 1 },
    // the same score with another EX score (an identifying metric) is another play
    otherResults: [{ ...barbatosPlay, ex_score: 3211 }],
    readsUserIntent: false,
    // its time is when it arrived
    sameInputLater: true,
    answers: {
      imported: importedAs('ir/barbatos', [expect.any(String)]),
      duplicate: nothingNew,
      unauthenticated: { status: 401, body: { success: false, description: expect.any(String) } },
      unknownToken: { status: 401, body: expect.objectContaining({ success: false }) },
      forbidden: { status: 403, body: { success: false, description: expect.stringMatching(/submit_score/) } },
    },
    refused: [
      {
        name: 'a malformed payload',
        send: (token) => post(BARBATOS, token, sdvx6({ song_id: 501, surprise: true })),
        answer: { status: 400, body: { success: false, description: expect.stringMatching(/^Invalid Barbatos SDVX6 \(EXCEED GEAR\) score: .*surprise/) } },
      },
      {
        name: 'malformed JSON',
        send: (token) => t.http().post(BARBATOS).set(bearer(token)).set('Content-Type', 'application/json').send('{"score": '),
        answer: { status: 400, body: { success: false, description: expect.stringMatching(/^Malformed JSON body/) } },
      },
    ],
  });

  /** Refusals of kshook's two routes: {success: false, error}. */
  const kshookError = (status: number, message: RegExp | null = null) => ({
    status,
    body: { success: false, error: message ? expect.stringMatching(message) : expect.any(String) },
  });
  const KSHOOK_HEADER_REFUSALS: [string, Record<string, string>, RegExp][] = [
    ['no User-Agent', { 'X-Software-Model': KSHOOK_HEADERS['X-Software-Model'] }, /User-Agent must start with 'kshook\/'/],
    ['a browser User-Agent', { ...KSHOOK_HEADERS, 'User-Agent': 'Mozilla/5.0' }, /User-Agent/],
    ['no X-Software-Model', { 'User-Agent': 'kshook/1.0.4' }, /X-Software-Model header is required/],
    ['a malformed X-Software-Model', { ...KSHOOK_HEADERS, 'X-Software-Model': 'QCV' }, /Invalid X-Software-Model/],
    ['the arcade model', { ...KSHOOK_HEADERS, 'X-Software-Model': 'KFC:J:A:A:2022083000' }, /Unsupported software model KFC/],
  ];

  const kshookPlay = kshookSave({ music_id: 502 });
  importFormatContract({
    importType: 'ir/kshook-sv6c',
    app: () => t,
    send: (token, body, headers) => post(SAVE, token ?? undefined, body, { ...KSHOOK_HEADERS, ...headers }),
    input: kshookPlay,
    stores: { scores: 1, sessions: 1 },
    otherResults: [{ ...kshookPlay, near: 14, error: 6 }],
    readsUserIntent: false,
    sameInputLater: true,
    answers: {
      imported: importedAs('ir/kshook-sv6c', [expect.any(String)]),
      duplicate: nothingNew,
      // kshook needs submit_score (Tachi forgot this check): 401 and 403 also come as {success: false, error}
      unauthenticated: kshookError(401),
      forbidden: kshookError(403, /submit_score/),
    },
    otherRoutes: [
      {
        name: 'score/export',
        send: (token, headers) => postExport(token ?? undefined, { scores: [kshookExportEntry()] }, { ...KSHOOK_HEADERS, ...headers }),
      },
    ],
    refused: [
      ...KSHOOK_HEADER_REFUSALS.map(([name, headers, message]) => ({
        name,
        send: (token: string) => post(SAVE, token, kshookSave(), headers),
        answer: kshookError(400, message),
      })),
      {
        name: 'a malformed body',
        send: (token) => post(SAVE, token, kshookSave({ difficulty: 'DIFFICULTY_GRAVITY' }), KSHOOK_HEADERS),
        answer: kshookError(400, /^Invalid kshook score: difficulty/),
      },
    ],
  });

  describe('kshook score/save', () => {
    it('imports a Konaste score; DIFFICULTY_INFINITE finds the INF-type chart; answered with the ImportDocument', async () => {
      const p = await player(t);
      const res = await save(p, kshookSave({ music_id: 502 }));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: true, description: 'Import successful.', body: { importType: 'ir/kshook-sv6c', errors: [] } });
      const [row] = await storedScores(t, p.user.id);
      expect(row).toMatchObject({ chartID: chartID(502, 'GRV'), service: 'kshook SV6C' });
      expect(row.scoreData).toMatchObject({
        lamp: 'EXCESSIVE CLEAR',
        grade: 'S',
        judgements: { critical: 1180, near: 15, miss: 5 },
        optional: { maxCombo: 1200, exScore: 3000, gauge: 84.37 },
      });
      expect((await ugpt(p, 'pbs/best')).body).toMatchObject({ pbs: [{ chartID: chartID(502, 'GRV') }] });
    });

    it('a chart not on Konaste is an orphan; an unknown clear is an InvalidDatapoint; both with HTTP 200', async () => {
      const p = await player(t);
      const orphan = await save(p, kshookSave({ music_id: 504, difficulty: 'DIFFICULTY_EXHAUST' }));
      expect(orphan.status).toBe(200);
      expect((orphan.body as HookAnswer).body!.errors).toEqual([{ type: 'SongOrChartNotFound', message: expect.stringMatching(/in version konaste/) }]);
      const invalid = await save(p, kshookSave({ music_id: 501, difficulty: 'DIFFICULTY_MAXIMUM', clear: 'CLEAR_UNKNOWN' }));
      expect(invalid.status).toBe(200);
      expect((invalid.body as HookAnswer).body!.errors).toEqual([
        { type: 'InvalidDatapoint', message: expect.stringMatching(/^scores\[0\]: Unknown clear 'CLEAR_UNKNOWN'/) },
      ]);
      expect(await storedScores(t, p.user.id)).toEqual([]);
    });
  });

  describe('kshook score/export', () => {
    const profile = () => ({
      scores: [
        kshookExportEntry({ music_id: 501, difficulty: 'DIFFICULTY_MAXIMUM', timestamp: 1_700_000_000 }),
        kshookExportEntry({ music_id: 502, difficulty: 'DIFFICULTY_INFINITE', score: 9_500_000, clear: 'CLEAR_EFFECTIVE', timestamp: 1_700_000_300 }),
        kshookExportEntry({ music_id: 504, difficulty: 'DIFFICULTY_EXHAUST', timestamp: 1_700_000_600 }),
      ],
    });

    it('imports each best score at its own time; a chart not on Konaste is an orphan', async () => {
      const p = await player(t);
      const res = await exportProfile(p, profile());
      expect(res.status).toBe(200);
      const doc = (res.body as HookAnswer).body!;
      expect(doc).toMatchObject({ importType: 'ir/kshook-sv6c-static' });
      expect(doc.scoreIDs).toHaveLength(2);
      expect(doc.errors).toEqual([{ type: 'SongOrChartNotFound', message: expect.stringMatching(/^scores\[2\]: /) }]);
      const rows = await storedScores(t, p.user.id);
      expect(rows.map((r) => [r.chartID, r.timeAchieved, r.service])).toEqual([
        [chartID(501, 'MXM'), 1_700_000_000_000, 'kshook SV6C Static'],
        [chartID(502, 'GRV'), 1_700_000_300_000, 'kshook SV6C Static'],
      ]);
      expect(rows[0].scoreData).toMatchObject({ judgements: {}, optional: { maxCombo: 1200, exScore: 3000 } });
      expect((await ugpt(p, 'sessions/recent')).body).toHaveLength(1);
      expect(await storedOrphans(t, p.user.id)).toHaveLength(1);
    });

    it('imports nothing unless the player turned forceStaticImport on, which one export uses up', async () => {
      const p = await player(t);
      const settings = `/api/v1/users/${p.user.id}/integrations/kshook-sv6c/settings`;
      const ignored = { success: true, description: 'Static importing is disabled. Ignoring static import request.', body: {} };
      const off = await post(EXPORT, p.token, profile(), KSHOOK_HEADERS);
      expect(off.status).toBe(200);
      expect(off.body).toEqual(ignored);
      expect(await storedScores(t, p.user.id)).toEqual([]);

      await forceStatic(p);
      const on = await post(EXPORT, p.token, profile(), KSHOOK_HEADERS);
      expect((on.body as HookAnswer).body!.scoreIDs).toHaveLength(2);
      expect((await p.agent.get(settings)).body).toEqual({ forceStaticImport: false });
      expect((await post(EXPORT, p.token, profile(), KSHOOK_HEADERS)).body).toEqual(ignored);
    });

    it('an export refused whole (a malformed entry) leaves forceStaticImport on for the next one', async () => {
      const p = await player(t);
      await forceStatic(p);
      const bad = await post(EXPORT, p.token, { scores: [kshookExportEntry({ timestamp: 'soon' })] }, KSHOOK_HEADERS);
      expect(bad.status).toBe(400);
      expect((await p.agent.get(`/api/v1/users/${p.user.id}/integrations/kshook-sv6c/settings`)).body).toEqual({ forceStaticImport: true });
      expect((await post(EXPORT, p.token, profile(), KSHOOK_HEADERS)).status).toBe(200);
      expect(await storedScores(t, p.user.id)).toHaveLength(2);
    });

    importFormatContract({
      importType: 'ir/kshook-sv6c-static',
      app: () => t,
      send: (token, body, headers) => postExport(token ?? undefined, body, { ...KSHOOK_HEADERS, ...headers }),
      input: profile(),
      // the orphan of 504 aside
      stores: { scores: 2, sessions: 1 },
      readsUserIntent: false,
      sameInputLater: true,
      answers: {
        imported: importedAs('ir/kshook-sv6c-static'),
        duplicate: { status: 200, body: expect.objectContaining({ success: true, body: expect.objectContaining({ scoreIDs: [], createdSessions: [] }) }) },
        unauthenticated: kshookError(401),
        forbidden: kshookError(403, /submit_score/),
      },
      refused: [
        ...KSHOOK_HEADER_REFUSALS.map(([name, headers, message]) => ({
          name,
          send: (token: string) => postExport(token, { scores: [kshookExportEntry()] }, headers),
          answer: kshookError(400, message),
        })),
        {
          name: 'one malformed entry (it rejects the whole export)',
          send: (token) => postExport(token, { scores: [...profile().scores, kshookExportEntry({ timestamp: '2023-11-14' })] }, KSHOOK_HEADERS),
          answer: kshookError(400, /^Invalid kshook export: scores\[3\]: timestamp/),
        },
      ],
    });
  });

  it('random and truncated bodies on every route get 200 or 400, never 500', async () => {
    const p = await player(t);
    let seed = 11;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const values = [0, -1, 2.5, 99_999_999, '', 'CLEAR_PERFECT', null, true, [], {}, '\u0000'];
    const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
    /** Truncated (keys dropped from a random point on), one value replaced, or left as it is. */
    const mutate = (base: Record<string, unknown>) => {
      const body: Record<string, unknown> = { ...base };
      const keys = Object.keys(body);
      const r = random();
      if (r < 0.3) for (const key of keys.slice(Math.floor(random() * keys.length))) delete body[key];
      else if (r < 0.8) body[pick(keys)] = pick(values);
      return body;
    };
    const statuses = new Set<number>();
    for (let i = 0; i < 20; i++) {
      const responses = [
        await barbatos(p, mutate(i % 2 ? sdvx6({ song_id: 501 }) : sdvx5({ song_id: 501 }))),
        await save(p, mutate(kshookSave({ music_id: 501 }))),
        await exportProfile(p, { scores: [mutate(kshookExportEntry({ music_id: 501 }))] }),
        await t
          .http()
          .post(SAVE)
          .set(bearer(p.token))
          .set(KSHOOK_HEADERS)
          .set('Content-Type', 'application/json')
          .send(JSON.stringify(kshookSave()).slice(0, i * 10)),
      ];
      for (const res of responses) {
        statuses.add(res.status);
        expect([200, 400]).toContain(res.status);
        expect((res.body as HookAnswer).success).toBe(res.status === 200);
      }
    }
    expect(statuses).toEqual(new Set([200, 400]));
  });
});

/** The real Tachi seeds, when this machine has them (never copied into the project). */
const haveSeeds = fs.existsSync(path.join(TACHI_SEEDS, 'charts-sdvx.json'));

(haveSeeds ? describe : describe.skip)('SOUND VOLTEX score hooks into the real SDVX seed charts', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    const report = await new SeedLoader(t.database).load(new SeedSource(TACHI_SEEDS), { games: ['sdvx'] });
    expect(report.rejected).toEqual([]);
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  const chartOf = async (scoreID: string) => (await storedScore(t, scoreID))?.chartID;
  const chartIDOf = (inGameID: number, difficulty: string) => {
    const all = JSON.parse(fs.readFileSync(path.join(TACHI_SEEDS, 'charts-sdvx.json'), 'utf8')) as {
      chartID: string;
      difficulty: string;
      data: { inGameID: number };
    }[];
    return all.find((c) => c.data.inGameID === inGameID && c.difficulty === difficulty)!.chartID;
  };

  it('Barbatos SDVX6 and SDVX5, kshook save and export land on the real charts', async () => {
    const p = await player(t);
    const exceed = await t
      .http()
      .post(BARBATOS)
      .set(bearer(p.token))
      .send(sdvx6({ song_id: 2000, difficulty: 4 }));
    expect(exceed.body).toMatchObject({ success: true, body: { errors: [] } });
    // Broken 8cmix (2): its fourth chart is HEAVENLY.
    const vivid = await t
      .http()
      .post(BARBATOS)
      .set(bearer(p.token))
      .send(sdvx5({ song_id: 2, difficulty: 3 }));
    expect(vivid.body).toMatchObject({ success: true, body: { errors: [] } });
    const konaste = await t
      .http()
      .post(SAVE)
      .set(bearer(p.token))
      .set(KSHOOK_HEADERS)
      .send(kshookSave({ music_id: 1500, difficulty: 'DIFFICULTY_EXHAUST' }));
    expect(konaste.body).toMatchObject({ success: true, body: { errors: [] } });
    await t.app.get(IntegrationSettingsRepository).saveKshookSv6c(p.user.id, { forceStaticImport: true });
    const exported = await t
      .http()
      .post(EXPORT)
      .set(bearer(p.token))
      .set(KSHOOK_HEADERS)
      .send({ scores: [kshookExportEntry({ music_id: 1, difficulty: 'DIFFICULTY_INFINITE' })] });
    expect(exported.body).toMatchObject({ success: true, body: { errors: [] } });

    const [a, b, c, d] = [exceed, vivid, konaste, exported].map((r) => (r.body as HookAnswer).body!.scoreIDs[0]);
    expect(await chartOf(a)).toBe(chartIDOf(2000, 'MXM'));
    expect(await chartOf(b)).toBe(chartIDOf(2, 'HVN'));
    expect(await chartOf(c)).toBe(chartIDOf(1500, 'EXH'));
    expect(await chartOf(d)).toBe(chartIDOf(1, 'INF'));
    // 2000 came with EXCEED GEAR: as an SDVX5 score it is an orphan.
    const old = await t
      .http()
      .post(BARBATOS)
      .set(bearer(p.token))
      .send(sdvx5({ song_id: 2000, difficulty: 4 }));
    expect((old.body as HookAnswer).body!.errors).toEqual([{ type: 'SongOrChartNotFound', message: expect.any(String) }]);
    expect(await countRows(t, 'orphans', { userID: p.user.id })).toBe(1);
  });
});

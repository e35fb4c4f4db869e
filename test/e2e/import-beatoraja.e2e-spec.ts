import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { SeedLoader } from '../../src/seeds/seed-loader.js';
import { SeedSource } from '../../src/seeds/seed-source.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { holdImportLock } from '../support/db-fixtures.js';
import { importFormatContract } from '../support/import-format-contract.js';
import { player, seededRandom, type Player } from '../support/imports.js';
import { catalogVersion, countRows, importRows, storedGameStats, storedImport, storedOrphans, storedScores, storedSessions } from '../support/stored.js';
import { bearer } from '../support/users.js';

const FIXTURES = path.resolve('test/fixtures/imports/beatoraja/catalog');
const md5 = (s: string) => createHash('md5').update(s).digest('hex');
const sha = (s: string) => createHash('sha256').update(s).digest('hex');
const fixtureChartID = (tag: string) => createHash('sha1').update(`beatoraja-fixture-${tag}`).digest('hex');
const VERSION = { 'X-TachiIR-Version': 'v2.1.0' };
const DAY = 24 * 60 * 60 * 1000;

const chart = (tag: string, over: Record<string, unknown> = {}) => ({
  md5: md5(tag),
  sha256: sha(tag),
  title: 'Seven Keys',
  subtitle: '',
  genre: 'FIXTURE',
  artist: 'Fixture Artist',
  subartist: '',
  total: 300,
  judge: 100,
  lntype: 0,
  mode: 'BEAT_7K',
  notes: 1000,
  hasUndefinedLN: false,
  hasRandom: false,
  ...over,
});

/** A play worth (epg + lpg) × 2 + egr + lgr; the counts are the same on every call unless given. */
const score = (tag: string, over: Record<string, unknown> = {}) => {
  const s = { epg: 400, lpg: 350, egr: 100, lgr: 80, egd: 20, lgd: 15, ebd: 5, lbd: 4, epr: 3, lpr: 2, ems: 1, lms: 0, ...over };
  return {
    sha256: sha(tag),
    exscore: (s.epg + s.lpg) * 2 + s.egr + s.lgr,
    passnotes: 1000,
    gauge: 85.5,
    deviceType: 'BM_CONTROLLER',
    minbp: 12,
    option: 1,
    lntype: 0,
    clear: 'Hard',
    assist: 0,
    maxcombo: 300,
    ...s,
  };
};

const bms = (tag: string, chartOver: Record<string, unknown> = {}, scoreOver: Record<string, unknown> = {}) => ({
  client: 'LR2oraja 0.8.5',
  chart: chart(tag, chartOver),
  score: score(tag, scoreOver),
});
const pms = (tag: string, chartOver: Record<string, unknown> = {}, scoreOver: Record<string, unknown> = {}) => ({
  client: 'beatoraja 0.8.7',
  chart: chart(tag, { mode: 'POPN_9K', title: 'Nine Buttons', notes: 500, ...chartOver }),
  score: score(tag, { epg: 200, lpg: 150, egr: 50, lgr: 40, ...scoreOver }),
});

interface HookBody {
  success: boolean;
  description: string;
  body?: Record<string, unknown>;
}

describe('ir/beatoraja', () => {
  let t: TestApp;
  let p: Player;

  const submit = (token: string | null, body: unknown, headers: Record<string, string> = VERSION, prefix = '') =>
    t
      .http()
      .post(`${prefix}/ir/beatoraja/submit-score`)
      .set({ ...(token ? bearer(token) : {}), ...headers })
      .send(body as object);
  const course = (token: string, body: unknown) =>
    t
      .http()
      .post('/ir/beatoraja/submit-course')
      .set({ ...bearer(token), ...VERSION })
      .send(body as object);
  const ranking = (token: string, hash: string) =>
    t
      .http()
      .get(`/ir/beatoraja/charts/${hash}/scores`)
      .set({ ...bearer(token), ...VERSION });

  beforeAll(async () => {
    t = await createTestApp();
    const report = await new SeedLoader(t.database).load(new SeedSource(FIXTURES), { games: ['bms', 'pms'] });
    if (report.rejected.length) throw new Error(JSON.stringify(report.rejected));
    p = await player(t);
  });
  afterAll(async () => {
    await t.close();
  });

  describe('submit-score into known charts', () => {
    it('imports a 7K score and answers with the score, song, chart and import', async () => {
      const res = await submit(p.token, bms('bms-7k'));
      expect(res.status).toBe(200);
      const body = res.body as HookBody & { body: Record<string, Record<string, unknown>> };
      expect(body.success).toBe(true);
      expect(body.description).toBe('Imported score.');
      expect(body.body.chart.chartID).toBe(fixtureChartID('bms-7k'));
      expect(body.body.song.title).toBe('Seven Keys');
      expect(body.body.import.importType).toBe('ir/beatoraja');
      expect(body.body.import.scoreIDs).toEqual([body.body.score.scoreID]);
      expect(body.body.score).toMatchObject({
        game: 'bms',
        playtype: '7K',
        service: 'Beatoraja IR',
        importType: 'ir/beatoraja',
        scoreMeta: { client: 'lr2oraja', random: 'MIRROR', inputDevice: 'BM_CONTROLLER' },
        // (400 + 350) × 2 + 100 + 80 = 1680 of 2000
        scoreData: { score: 1680, percent: 84, lamp: 'HARD CLEAR', judgements: { pgreat: 750, great: 180, good: 35, bad: 9, poor: 6 } },
      });
      expect(Math.abs((body.body.score.timeAchieved as number) - Date.now())).toBeLessThan(60_000);

      const pb = await t.http().get(`/api/v1/users/${p.user.id}/games/bms/7K/pbs/${fixtureChartID('bms-7k')}`);
      expect(pb.status).toBe(200);
      expect((pb.body as { pb: { scoreData: { score: number } } }).pb.scoreData.score).toBe(1680);
      expect(await storedSessions(t, p.user.id)).toHaveLength(1);
    });

    it('imports 14K on a keyboard and PMS on a controller, and is served under /api/v1 too', async () => {
      const dp = await submit(p.token, bms('bms-14k', { mode: 'BEAT_14K', notes: 2000 }, { deviceType: 'KEYBOARD', option: 3 }), VERSION, '/api/v1');
      expect(dp.status).toBe(200);
      expect((dp.body as { body: { score: Record<string, unknown> } }).body.score).toMatchObject({
        playtype: '14K',
        scoreMeta: { client: 'lr2oraja', inputDevice: 'KEYBOARD' },
      });
      const popn = await submit(p.token, pms('pms-9k'));
      expect(popn.status).toBe(200);
      expect((popn.body as { body: { score: Record<string, unknown> } }).body.score).toMatchObject({
        game: 'pms',
        playtype: 'Controller',
        scoreMeta: { client: 'beatoraja', random: 'MIRROR' },
        scoreData: { judgements: { cool: 350, great: 90 } },
      });
    });

    it.each([
      ['a CN chart', bms('bms-7k', { lntype: 1 }), '[InvalidDatapoint] - CN or HCN mode is not supported by this IR.'],
      ['a #RANDOM chart', bms('bms-7k', { hasRandom: true }), '[InvalidDatapoint] - Charts with #RANDOM declarations are not supported by this IR.'],
      ['PMS on MIDI', pms('pms-9k', {}, { deviceType: 'MIDI' }), '[InvalidDatapoint] - MIDI input is not supported for PMS.'],
    ])('answers 400 with the per-score error for %s, and keeps nothing', async (_, body, description) => {
      const q = await player(t);
      const res = await submit(q.token, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, description });
      expect(await storedScores(t, q.user.id)).toHaveLength(0);
      expect(await storedOrphans(t, q.user.id)).toHaveLength(0);
    });

    it('answers 400 for an EX score above the chart maximum', async () => {
      const res = await submit(p.token, bms('bms-7k', {}, { epg: 1000, lpg: 1, egr: 0, lgr: 0 }));
      expect(res.status).toBe(400);
      expect((res.body as HookBody).description).toMatch(/^\[InvalidDatapoint\] - /);
    });
  });

  describe('whole-request failures', () => {
    it('accepts X-TachiIR-Version v3', async () => {
      expect((await submit(p.token, bms('bms-7k', {}, { epg: 402 }), { 'X-TachiIR-Version': 'v3.0.0' })).status).toBe(200);
    });
  });

  describe('the orphan-chart queue', () => {
    const tag = 'queued-bms-chart';

    it('orphans an unknown chart with its score until 3 distinct players have sent it, then creates it and imports all their scores', async () => {
      const [a, b, c] = [await player(t), await player(t), await player(t)];
      const version = () => catalogVersion(t);
      const versionBefore = await version();
      const songsBefore = await countRows(t, 'songs');

      const first = await submit(a.token, bms(tag, { title: 'Queue Song' }));
      expect(first.status).toBe(202);
      expect(first.body).toEqual({
        success: true,
        description: 'Chart and score have been orphaned. This chart will be un-orphaned when 3 players have played the chart (Currently: 1).',
        body: {},
      });
      // another play of A's: still one player
      const second = await submit(a.token, bms(tag, { title: 'Queue Song' }, { epg: 410 }));
      expect(second.status).toBe(202);
      expect((second.body as HookBody).description).toMatch(/\(Currently: 1\)\.$/);
      // the same play again, an hour later: nothing new
      const clock = jest.spyOn(Date, 'now').mockReturnValue(Date.now() + DAY / 24);
      try {
        const resent = await submit(a.token, bms(tag, { title: 'Queue Song' }));
        expect(resent.status).toBe(400);
        expect((resent.body as HookBody).description).toBe('No scores were imported.');
      } finally {
        clock.mockRestore();
      }

      const fromB = await submit(b.token, bms(tag, { title: 'Queue Song (typo)' }));
      expect(fromB.status).toBe(202);
      expect((fromB.body as HookBody).description).toMatch(/\(Currently: 2\)\.$/);
      expect(await storedOrphans(t, a.user.id)).toHaveLength(2);
      expect(await storedOrphans(t, b.user.id)).toHaveLength(1);
      expect(await countRows(t, 'songs')).toBe(songsBefore);
      expect(await version()).toBe(versionBefore);

      const fromC = await submit(c.token, bms(tag, { title: 'Queue Song' }));
      expect(fromC.status).toBe(200);
      const imported = fromC.body as { description: string; body: Record<string, Record<string, unknown>> };
      expect(imported.description).toBe('Imported score.');
      expect(imported.body.song).toMatchObject({ title: 'Queue Song', artist: 'Fixture Artist', data: { genre: 'FIXTURE', subtitle: '', subartist: '' } });
      expect(imported.body.chart).toMatchObject({
        playtype: '7K',
        difficulty: 'CHART',
        level: '?',
        levelNum: 0,
        isPrimary: true,
        data: { notecount: 1000, hashMD5: md5(tag), hashSHA256: sha(tag), tableFolders: [] },
      });
      const chartID = imported.body.chart.chartID as string;

      expect(await countRows(t, 'songs')).toBe(songsBefore + 1);
      expect(await version()).toBe(versionBefore + 1);
      expect(await countRows(t, 'orphanChartQueue', { chartHash: sha(tag) })).toBe(0);
      for (const [u, n] of [
        [a, 2],
        [b, 1],
        [c, 1],
      ] as const) {
        expect(await storedOrphans(t, u.user.id)).toEqual([]);
        const played = (await storedScores(t, u.user.id)).filter((s) => s.chartID === chartID);
        expect(played).toHaveLength(n);
      }
      // readers see the new song and chart
      const recent = await t.http().get(`/api/v1/users/${a.user.id}/games/bms/7K/scores/recent`);
      expect((recent.body as { songs: { title: string }[] }).songs.map((s) => s.title)).toContain('Queue Song');
      const board = await ranking(a.token, sha(tag));
      expect(board.status).toBe(200);
      expect((board.body as { body: unknown[] }).body).toHaveLength(3);

      // a fourth player's score goes straight in
      const d = await player(t);
      expect((await submit(d.token, bms(tag))).status).toBe(200);
    });

    it('answers 400 "This chart is not supported." for an unknown chart that cannot be queued, keeping the score as an orphan', async () => {
      const q = await player(t);
      const res = await submit(q.token, bms('unqueueable', { md5: 'not-an-md5' }));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, description: 'This chart is not supported.' });
      expect(await storedOrphans(t, q.user.id)).toHaveLength(1);
      expect(await countRows(t, 'orphanChartQueue')).toBe(0);
    });

    it('queues a PMS Keyboard chart whose file is known only as a Controller chart, then creates the Keyboard chart', async () => {
      const players = [await player(t), await player(t), await player(t)];
      const statuses: number[] = [];
      for (const q of players) statuses.push((await submit(q.token, pms('pms-9k', {}, { deviceType: 'KEYBOARD' }))).status);
      expect(statuses).toEqual([202, 202, 200]);
      expect(await countRows(t, 'charts', { game: 'pms', playtype: 'Keyboard' })).toBe(1);
      const played = (await Promise.all(players.map((q) => storedScores(t, q.user.id)))).flat();
      expect(played.map((s) => s.playtype)).toEqual(['Keyboard', 'Keyboard', 'Keyboard']);
      expect(new Set(played.map((s) => s.chartID)).size).toBe(1);
      const created = await t.http().get(`/api/v1/games/pms/Keyboard/charts/${played[0].chartID}`);
      expect(created.body.chart.data).toMatchObject({ hashSHA256: sha('pms-9k'), notecount: 500 });
    });

    it('does not count a player whose submission failed (409: an import of theirs was running)', async () => {
      const q = await player(t);
      const release = await holdImportLock(t, q.user.id, { owner: 'another-import' });
      const res = await submit(q.token, bms('busy-chart'));
      expect(res.status).toBe(409);
      expect((res.body as HookBody).success).toBe(false);
      expect(await countRows(t, 'orphanChartQueue')).toBe(0);
      await release();
      const later = await submit(q.token, bms('busy-chart'));
      expect(later.status).toBe(202);
      expect((later.body as HookBody).description).toMatch(/\(Currently: 1\)\.$/);
    });
  });

  describe('submit-course', () => {
    const dan = (n: number, over: { clear?: string; lntype?: number; constraint?: string[] } = {}) => ({
      course: {
        name: `Fixture 7K ${n} Dan`,
        charts: [1, 2, 3, 4].map((i) => ({ md5: md5(`dan${n}-${i}`), title: `${n}-${i}` })),
        constraint: over.constraint ?? ['MIRROR', 'GAUGE_LR2'],
      },
      score: { clear: over.clear ?? 'Hard', lntype: over.lntype ?? 0, option: 0 },
    });

    it('raises a dan through the import pipeline, and only upwards', async () => {
      const q = await player(t);
      expect((await submit(q.token, bms('bms-7k'))).status).toBe(200);

      const second = await course(q.token, dan(2));
      expect(second.status).toBe(200);
      expect(second.body).toEqual({ success: true, description: 'Successfully updated class.', body: { set: 'genocideDan', value: 'NORMAL_2' } });
      expect((await storedGameStats(t, q.user.id, 'bms', '7K'))?.classes).toMatchObject({ genocideDan: 'NORMAL_2' });
      const latest = (await importRows(t, { userID: q.user.id, status: 'completed' })).at(-1)!;
      const doc = (await storedImport(t, latest.importID))!;
      expect(doc.classDeltas).toEqual([{ game: 'bms', playtype: '7K', set: 'genocideDan', old: null, new: 'NORMAL_2' }]);

      const lower = await course(q.token, dan(1, { constraint: ['GAUGE_LR2', 'MIRROR', 'LN'] }));
      expect(lower.body).toEqual({ success: true, description: 'Class not updated.', body: { set: 'genocideDan', value: 'NORMAL_1' } });
      expect((await storedGameStats(t, q.user.id, 'bms', '7K'))?.classes).toMatchObject({ genocideDan: 'NORMAL_2' });
    });

    it('gives a player who never played BMS 7K the profile, with the dan (a course clear, as Tachi)', async () => {
      const q = await player(t);
      expect(await storedGameStats(t, q.user.id, 'bms', '7K')).toBeUndefined();
      const res = await course(q.token, dan(2));
      expect(res.body).toEqual({ success: true, description: 'Successfully updated class.', body: { set: 'genocideDan', value: 'NORMAL_2' } });
      expect((await storedGameStats(t, q.user.id, 'bms', '7K'))?.classes).toEqual({ genocideDan: 'NORMAL_2' });
      const profile = await t.http().get(`/api/v1/users/${q.user.id}/games/bms/7K`);
      expect(profile.status).toBe(200);
    });

    it.each(['Failed', 'NoPlay', 'Easy', 'LightAssistEasy', 'AssistEasy'])('does not raise a dan on a %s clear', async (clear) => {
      const res = await course(p.token, dan(1, { clear }));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, description: 'Class not updated: the course was not cleared.' });
    });

    it.each([
      ['a CN play', dan(1, { lntype: 1 }), 400, 'Only LN mode is supported for dans.'],
      ['a CN constraint', dan(1, { constraint: ['MIRROR', 'GAUGE_LR2', 'CN'] }), 400, 'CN mode is not allowed in dans.'],
      ['an HCN constraint', dan(1, { constraint: ['HCN'] }), 400, 'HCN mode is not allowed in dans.'],
      ['another gauge', dan(1, { constraint: ['MIRROR', 'GAUGE_5KEYS'] }), 400, 'A dan must be played on GAUGE_LR2.'],
      ['an unknown course', { ...dan(1), course: { ...dan(1).course, charts: [1, 2, 3, 4].map((i) => ({ md5: md5(`x${i}`) })) } }, 404, 'Unsupported course.'],
    ])('refuses %s', async (_, body, status, description) => {
      const res = await course(p.token, body);
      expect(res.status).toBe(status);
      expect(res.body).toEqual({ success: false, description });
    });

    it('answers 400 for a malformed course', async () => {
      const res = await course(p.token, { course: { charts: [{ md5: 'a' }] }, score: { clear: 'Hard', lntype: 0 } });
      expect(res.status).toBe(400);
      expect((res.body as HookBody).description).toMatch(/^Invalid Course Submission: /);
    });
  });

  describe('chart rankings', () => {
    it("lists the chart's PBs best first, the requester's as player ''", async () => {
      const other = await player(t);
      const res = await ranking(other.token, sha('bms-7k'));
      expect(res.status).toBe(200);
      const body = res.body as { success: boolean; description: string; body: { player: string; clear: number; notes: number; epg: number }[] };
      expect(body.success).toBe(true);
      expect(body.description).toBe(`Successfully returned ${body.body.length}`);
      expect(body.body.length).toBeGreaterThan(0);
      expect(body.body.map((e) => e.player)).toContain(p.username);
      expect(body.body.every((e) => e.notes === 1000 && e.clear === 6)).toBe(true);

      const own = await ranking(p.token, sha('bms-7k'));
      expect((own.body as typeof body).body.map((e) => e.player)).toContain('');
    });

    it('answers 404 for a chart it does not have', async () => {
      const res = await ranking(p.token, sha('nowhere'));
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, description: 'Chart does not exist on IR yet.' });
    });
  });

  importFormatContract({
    importType: 'ir/beatoraja',
    app: () => t,
    send: (token, body, headers = {}) => submit(token, body, { ...VERSION, ...headers }),
    input: bms('bms-7k'),
    stores: { scores: 1, sessions: 1 },
    otherResults: [
      // a better play, and the same EX score with other judgements: both another play
      bms('bms-7k', {}, { epg: 401, lpg: 350, egr: 99 }),
      bms('bms-7k', {}, { epg: 399, egr: 102 }),
    ],
    readsUserIntent: false,
    // its time is only when it arrived
    sameInputLater: true,
    answers: {
      imported: { status: 200, body: expect.objectContaining({ success: true, description: 'Imported score.' }) },
      duplicate: { status: 400, body: { success: false, description: 'No scores were imported.' } },
      unauthenticated: { status: 401, body: expect.objectContaining({ success: false }) },
      forbidden: { status: 403, body: expect.objectContaining({ success: false }) },
    },
    refused: [
      ...(
        [
          ['a body that is no object', [1, 2], /^Invalid Beatoraja Import - the body must be a JSON object/],
          ['a bad score', { ...bms('bms-7k'), score: { exscore: 'a lot' } }, /^Invalid Beatoraja Import - Score: /],
          ['a bad chart', { ...bms('bms-7k'), chart: { ...chart('bms-7k'), mode: 'BEAT_5K' } }, /^Invalid Beatoraja Import - Chart: mode/],
          ['the wrong client', { ...bms('bms-7k'), client: 'beatoraja 0.8.7' }, /^Unsupported client beatoraja 0\.8\.7 -- Expected a variant of LR2oraja\.$/],
        ] as const
      ).map(([name, body, description]) => ({
        name,
        send: (token: string) => submit(token, body),
        answer: { status: 400, body: { success: false, description: expect.stringMatching(description) } },
      })),
      {
        name: 'malformed JSON, in the hook shape',
        send: (token) =>
          t
            .http()
            .post('/ir/beatoraja/submit-score')
            .set({ ...bearer(token), ...VERSION, 'Content-Type': 'application/json' })
            .send('{"client": "LR2oraja", "chart": {'),
        answer: { status: 400, body: expect.objectContaining({ success: false, description: expect.any(String) }) },
      },
      ...(
        [
          ['missing', {}],
          ['v1', { 'X-TachiIR-Version': 'v1.3.0' }],
          ['not a version', { 'X-TachiIR-Version': '2.0.0' }],
        ] as const
      ).map(([name, headers]) => ({
        name: `an X-TachiIR-Version that is ${name}`,
        send: (token: string) => submit(token, bms('bms-7k'), headers),
        answer: { status: 400, body: { success: false, description: 'Invalid X-TachiIR-Version.' } },
      })),
    ],
  });

  describe('random and truncated input', () => {
    it('only ever answers 2xx or 4xx, never 500', async () => {
      const random = seededRandom(7);
      const odd: unknown[] = [null, -1, 0, 2.5, '', 'x', true, [], {}, 'BEAT_14K', 'Max', 1e300];
      const statuses = new Set<number>();
      for (let i = 0; i < 60; i++) {
        const body = JSON.parse(JSON.stringify(random() < 0.5 ? bms('bms-7k') : pms('pms-9k'))) as Record<string, Record<string, unknown>>;
        const part = random() < 0.5 ? body.chart : body.score;
        const keys = Object.keys(part);
        const key = keys[Math.floor(random() * keys.length)];
        part[key] = odd[Math.floor(random() * odd.length)];
        const text = JSON.stringify(body);
        const sent =
          i % 3 === 0
            ? t
                .http()
                .post('/ir/beatoraja/submit-score')
                .set({ ...bearer(p.token), ...VERSION, 'Content-Type': 'application/json' })
                .send(text.slice(0, Math.floor(random() * text.length)))
            : submit(p.token, body);
        const res = await sent;
        statuses.add(res.status);
        expect([200, 202, 400, 404]).toContain(res.status);
        expect((res.body as HookBody).success).toBe(res.status < 300);
      }
      expect(statuses.has(400)).toBe(true);
    });
  });
});

import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { REPLAY_LIMIT_BYTES } from '../../src/ir/usc/usc-ir.controller.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { importFormatContract } from '../support/import-format-contract.js';
import { loadFixtureCatalog, player, T0, type Player } from '../support/imports.js';
import { countRows, storedOrphans, storedPb, storedScores, storedSessions } from '../support/stored.js';
import { bearer } from '../support/users.js';

const FIXTURES = path.resolve('test/fixtures/imports/usc');
/** The fixture chart file on both playtypes, and a second file charted for Controller only. */
const HASH = '55f5f3a19f5864d9fd8693419404ee818d499e51';
const HASH_CONTROLLER_ONLY = '0ce291519429e6d179559014ce94dc0f3c8aa756';
const CHART_CONTROLLER = 'bea6d48ec44b07fa2e8aef7bfbc95650ccba616b';
const CHART_KEYBOARD = 'c73ef9050ed2ec732ca60f5845ab63c58d1fcd31';
const UNKNOWN_HASH = 'ffffffffffffffffffffffffffffffffffffffff';
const PLAYED_S = T0 / 1000;

function submission(score: Record<string, unknown> = {}, chart: Record<string, unknown> = {}) {
  return {
    chart: {
      chartHash: HASH,
      artist: 'USC Tester',
      title: 'IR Test Song',
      effector: 'fixture',
      illustrator: 'someone',
      bpm: '180',
      level: 17,
      difficulty: 2,
      ...chart,
    },
    score: {
      score: 9_500_000,
      gauge: 0.8,
      timestamp: PLAYED_S,
      crit: 1000,
      near: 30,
      error: 2,
      early: 20,
      late: 10,
      combo: 700,
      options: { gaugeType: 0, mirror: false, random: false, autoFlags: 0 },
      windows: { perfect: 46, good: 150, hold: 150, miss: 300, slam: 84 },
      ...score,
    },
  };
}

describe('ir/usc: the USC IR', () => {
  let t: TestApp;
  let alice: Player;

  beforeAll(async () => {
    t = await createTestApp();
    await loadFixtureCatalog(t.database, FIXTURES);
    alice = await player(t);
  });
  afterAll(async () => {
    await t.close();
  });

  const submit = (token: string, body: unknown, playtype = 'Controller') =>
    t
      .http()
      .post(`/ir/usc/${playtype}/scores`)
      .set(bearer(token))
      .send(body as object);
  const get = (token: string, route: string) => t.http().get(`/ir/usc/${route}`).set(bearer(token));
  const scoreCount = (userID: number) => countRows(t, 'scores', { userID });

  describe('heartbeat and auth (every answer is HTTP 200 with a USC code)', () => {
    it('GET / answers 20 with the server time and the spec version, also under /api/v1', async () => {
      for (const url of ['/ir/usc/Controller/', '/ir/usc/Keyboard', '/api/v1/ir/usc/Controller']) {
        const res = await t.http().get(url).set(bearer(alice.token));
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ statusCode: 20, body: { irVersion: '0.4.0-a', serverName: expect.any(String) } });
        expect(Math.abs((res.body as { body: { serverTime: number } }).body.serverTime - Date.now() / 1000)).toBeLessThan(60);
      }
    });

    it('GET / without an Authorization header → 40, with a malformed one → 40 (POST /scores: the contract below)', async () => {
      const none = await t.http().get('/ir/usc/Controller/');
      expect([none.status, none.body.statusCode]).toEqual([200, 40]);
      expect(typeof none.body.description).toBe('string');
      const basic = await t.http().get('/ir/usc/Controller/').set('Authorization', 'Basic abc');
      expect([basic.status, basic.body.statusCode]).toEqual([200, 40]);
    });

    it('the read routes need only a token, without submit_score', async () => {
      const reader = await player(t, ['customise_profile']);
      expect((await get(reader.token, `Controller/charts/${HASH}`)).body.statusCode).toBe(20);
    });

    it('a playtype other than Controller or Keyboard is a real HTTP 400', async () => {
      for (const res of [await get(alice.token, 'Single/'), await submit(alice.token, submission(), 'keyboard')]) {
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ success: false, description: expect.stringMatching(/is not a USC playtype: use Controller or Keyboard/) });
      }
    });

    it('an unknown route under /ir/usc/ → 44', async () => {
      const res = await get(alice.token, 'Controller/nothing/here');
      expect([res.status, res.body.statusCode]).toEqual([200, 44]);
    });
  });

  describe('GET /charts/:hash', () => {
    it('20 for a chart of the playtype (any hex case), 44 otherwise', async () => {
      expect((await get(alice.token, `Controller/charts/${HASH}`)).body).toEqual({ statusCode: 20, description: 'This chart is tracked by the IR.' });
      expect((await get(alice.token, `Keyboard/charts/${HASH.toUpperCase()}`)).body.statusCode).toBe(20);
      expect((await get(alice.token, `Controller/charts/${HASH_CONTROLLER_ONLY}`)).body.statusCode).toBe(20);
      expect((await get(alice.token, `Keyboard/charts/${HASH_CONTROLLER_ONLY}`)).body.statusCode).toBe(44);
      expect((await get(alice.token, `Controller/charts/${UNKNOWN_HASH}`)).body).toEqual({
        statusCode: 44,
        description: 'This chart is not tracked by the IR.',
      });
      expect((await get(alice.token, 'Controller/charts/not-a-hash')).body.statusCode).toBe(44);
    });
  });

  describe('POST /scores', () => {
    let aliceScoreID: string;

    it('imports a score: 20 with the ServerScore, the record and the replay identifier', async () => {
      const res = await submit(alice.token, submission());
      expect(res.status).toBe(200);
      expect(res.body.statusCode).toBe(20);
      const body = res.body.body as Record<string, unknown>;
      const expected = {
        score: 9_500_000,
        timestamp: PLAYED_S,
        crit: 1000,
        near: 30,
        error: 2,
        ranking: 1,
        lamp: 2,
        username: alice.username,
        noteMod: 'NORMAL',
        gaugeMod: 'NORMAL',
      };
      expect(body).toEqual({
        score: expected,
        serverRecord: expected,
        isServerRecord: true,
        isPB: true,
        sendReplay: expect.stringMatching(/^S[0-9a-f]{64}$/),
        adjacentAbove: [],
        adjacentBelow: [],
      });
      aliceScoreID = body.sendReplay as string;

      const [row] = await storedScores(t, alice.user.id);
      expect(row).toMatchObject({
        scoreID: aliceScoreID,
        chartID: CHART_CONTROLLER,
        game: 'usc',
        playtype: 'Controller',
        service: 'USC-IR',
        importType: 'ir/usc',
        timeAchieved: T0,
        scoreMeta: { noteMod: 'NORMAL', gaugeMod: 'NORMAL' },
      });
      expect(row.scoreData).toMatchObject({
        score: 9_500_000,
        percent: 95,
        lamp: 'CLEAR',
        grade: 'AA+',
        judgements: { critical: 1000, near: 30, miss: 2 },
        optional: { fast: 20, slow: 10, maxCombo: 700, gauge: 0.8 },
      });
      expect((await storedPb(t, alice.user.id, CHART_CONTROLLER))?.rankingData.rank).toBe(1);
      expect(await storedSessions(t, alice.user.id)).toHaveLength(1);
    });

    it('shows the score, PB and session in the UGPT routes', async () => {
      const base = `/api/v1/users/${alice.user.id}/games/usc/Controller`;
      const pbs = await t.http().get(`${base}/pbs/all`);
      expect(pbs.status).toBe(200);
      expect(pbs.body.pbs).toEqual([expect.objectContaining({ chartID: CHART_CONTROLLER, scoreData: expect.objectContaining({ score: 9_500_000 }) })]);
      const recent = await t.http().get(`${base}/scores/recent`);
      expect(recent.body.scores.map((s: { scoreID: string }) => s.scoreID)).toEqual([aliceScoreID]);
      const sessions = await t.http().get(`${base}/sessions/recent`);
      expect(sessions.status).toBe(200);
      expect(sessions.body).toHaveLength(1);
    });

    it('records the import of a re-sent score (20 "identical"), with nothing in it', async () => {
      const before = await countRows(t, 'imports', { userID: alice.user.id });
      const res = await submit(alice.token, submission());
      expect(res.body.statusCode).toBe(20);
      expect(await scoreCount(alice.user.id)).toBe(1);
      expect(await storedSessions(t, alice.user.id)).toHaveLength(1);
      expect(await countRows(t, 'imports', { userID: alice.user.id })).toBe(before + 1);
    });

    it('ranks players: the record holder, neighbours above and below, isPB false for a worse play', async () => {
      const bob = await player(t);
      const carol = await player(t);
      const perfect = await submit(
        bob.token,
        submission({ score: 10_000_000, near: 0, error: 0, gauge: 1, options: { gaugeType: 1, mirror: true, random: true, autoFlags: 0 } }),
      );
      expect(perfect.body.statusCode).toBe(20);
      const bobScore = {
        score: 10_000_000,
        timestamp: PLAYED_S,
        crit: 1000,
        near: 0,
        error: 0,
        ranking: 1,
        lamp: 5,
        username: bob.username,
        noteMod: 'MIR-RAN',
        gaugeMod: 'HARD',
      };
      expect(perfect.body.body).toMatchObject({
        isServerRecord: true,
        isPB: true,
        serverRecord: bobScore,
        adjacentAbove: [],
        adjacentBelow: [{ username: alice.username, ranking: 2 }],
      });

      const low = await submit(carol.token, submission({ score: 8_000_000, error: 40, gauge: 0.5 }));
      const lowBody = low.body.body as Record<string, unknown>;
      expect(lowBody).toMatchObject({ isServerRecord: false, isPB: true, serverRecord: bobScore, adjacentBelow: [] });
      expect(lowBody.score).toMatchObject({ ranking: 3, lamp: 1, score: 8_000_000 });
      expect(lowBody.adjacentAbove).toEqual([bobScore, expect.objectContaining({ username: alice.username, ranking: 2, lamp: 2 })]);

      // Alice plays worse later: the play ranks where her PB stands, and is no PB.
      const worse = await submit(alice.token, submission({ score: 7_000_000, timestamp: PLAYED_S + 300 }));
      expect(worse.body.body).toMatchObject({ isPB: false, isServerRecord: false, score: { score: 7_000_000, ranking: 2, timestamp: PLAYED_S + 300 } });

      const record = await get(alice.token, `Controller/charts/${HASH}/record`);
      expect(record.body).toEqual({ statusCode: 20, description: expect.any(String), body: bobScore });

      const top2 = await get(alice.token, `Controller/charts/${HASH}/leaderboard?mode=best&n=2`);
      expect(top2.body.statusCode).toBe(20);
      expect((top2.body.body as { username: string; ranking: number }[]).map((s) => [s.username, s.ranking])).toEqual([
        [bob.username, 1],
        [alice.username, 2],
      ]);
      const all = await get(alice.token, `Controller/charts/${HASH}/leaderboard?mode=best&n=10`);
      expect((all.body.body as { username: string }[]).map((s) => s.username)).toEqual([bob.username, alice.username, carol.username]);
    });

    it('keeps Keyboard apart from Controller: the same file is another chart', async () => {
      const res = await submit(alice.token, submission({ score: 9_100_000 }), 'Keyboard');
      expect(res.body.statusCode).toBe(20);
      expect(res.body.body).toMatchObject({ isServerRecord: true, score: { ranking: 1 } });
      expect((await storedPb(t, alice.user.id, CHART_KEYBOARD))?.scoreData.score).toBe(9_100_000);
      expect((await get(alice.token, `Keyboard/charts/${HASH}/record`)).body.body).toMatchObject({ username: alice.username, score: 9_100_000 });
    });

    it('an unknown chart: 22, kept as an orphan once, re-sent 22 again', async () => {
      const dave = await player(t);
      const body = submission({}, { chartHash: UNKNOWN_HASH });
      const first = await submit(dave.token, body);
      expect(first.body).toEqual({ statusCode: 22, description: 'This score has been saved, but the chart is not currently on the IR.' });
      const again = await submit(dave.token, body);
      expect(again.body.statusCode).toBe(22);
      expect(await storedOrphans(t, dave.user.id)).toHaveLength(1);
      expect(await scoreCount(dave.user.id)).toBe(0);
    });

    it.each([
      [
        'autoplay',
        submission({ options: { gaugeType: 0, mirror: false, random: false, autoFlags: 1 } }),
        /^InvalidDatapoint scores\[0\]: Autoplay was enabled/,
      ],
      [
        'modified hit windows',
        submission({ windows: { perfect: 46, good: 150, hold: 150, miss: 350, slam: 84 } }),
        /^InvalidDatapoint scores\[0\]: HitWindows have been modified \(miss 350\)/,
      ],
      // The shared validation's rule: an ULTIMATE CHAIN needs at least 5,000,000.
      ['an impossible ULTIMATE CHAIN', submission({ score: 4_000_000, error: 0 }), /^InvalidDatapoint scores\[0\]: .*5,000,000/],
    ])('%s: 40 with the error type and message, nothing stored', async (_name, body, message) => {
      const erin = await player(t);
      const res = await submit(erin.token, body);
      expect([res.status, res.body.statusCode]).toEqual([200, 40]);
      expect(res.body.description).toMatch(message);
      expect(await scoreCount(erin.user.id)).toBe(0);
      expect(await storedOrphans(t, erin.user.id)).toHaveLength(0);
    });

    it("keeps the time in score ids, as it is USC's own record of the play: the same payload a day later is identical, the same result at another client time is another play", async () => {
      const gina = await player(t);
      const body = submission({ score: 5_000_000, error: 60 });
      expect((await submit(gina.token, body, 'Keyboard')).body.statusCode).toBe(20);
      const clock = jest.spyOn(Date, 'now').mockReturnValue(Date.now() + 24 * 60 * 60 * 1000);
      try {
        expect((await submit(gina.token, body, 'Keyboard')).body.description).toBe('Score was identical to another score you already have.');
        const replayed = await submit(gina.token, submission({ score: 5_000_000, error: 60, timestamp: PLAYED_S + 600 }), 'Keyboard');
        expect(replayed.body).toMatchObject({ statusCode: 20, body: { score: { timestamp: PLAYED_S + 600 } } });
        const other = await submit(gina.token, submission({ score: 5_000_001, error: 60 }), 'Keyboard');
        expect(other.body).toMatchObject({ statusCode: 20, body: { score: { score: 5_000_001 } } });
      } finally {
        clock.mockRestore();
      }
      expect(await scoreCount(gina.user.id)).toBe(3);
    });
  });

  describe('record and leaderboard', () => {
    it('record: 44 for an unknown chart and for a chart nobody played', async () => {
      expect((await get(alice.token, `Controller/charts/${UNKNOWN_HASH}/record`)).body.statusCode).toBe(44);
      expect((await get(alice.token, `Controller/charts/${HASH_CONTROLLER_ONLY}/record`)).body).toEqual({
        statusCode: 44,
        description: 'No one has a score on this chart yet.',
      });
    });

    it('leaderboard: mode=best with n 1..10; rivals, other modes and other n → 40; unknown chart → 44; empty chart → []', async () => {
      const lb = (query: string, hash = HASH) => get(alice.token, `Controller/charts/${hash}/leaderboard${query}`);
      expect((await lb('?mode=best&n=1')).body.body).toHaveLength(1);
      expect((await lb('?mode=rivals&n=5')).body).toEqual({ statusCode: 40, description: 'This IR has no rivals: use mode=best.' });
      for (const query of [
        '',
        '?n=5',
        '?mode=worst&n=5',
        '?mode=best',
        '?mode=best&n=0',
        '?mode=best&n=11',
        '?mode=best&n=2.5',
        '?mode=best&n=x',
        '?mode=best&n=1&n=2',
      ])
        expect([query, (await lb(query)).body.statusCode]).toEqual([query, 40]);
      expect((await lb('?mode=best&n=5', UNKNOWN_HASH)).body.statusCode).toBe(44);
      expect((await lb('?mode=best&n=5', HASH_CONTROLLER_ONLY)).body).toMatchObject({ statusCode: 20, body: [] });
    });
  });

  describe('POST /replays', () => {
    const upload = (token: string, identifier: string | undefined, data: Buffer | undefined, playtype = 'Controller') => {
      const req = t.http().post(`/ir/usc/${playtype}/replays`).set(bearer(token));
      if (identifier !== undefined) void req.field('identifier', identifier);
      if (data) void req.attach('replay', data, { filename: 'replay.urf', contentType: 'application/octet-stream' });
      else void req.field('other', 'x');
      return req;
    };
    let scoreID: string;

    beforeAll(async () => {
      scoreID = (await storedScores(t, alice.user.id)).find((s) => s.playtype === 'Controller')!.scoreID;
    });

    it("stores the replay of one of the caller's scores under DATA_DIR/uploads: 20", async () => {
      const data = Buffer.from('a replay file');
      const res = await upload(alice.token, scoreID, data);
      expect(res.body).toEqual({ statusCode: 20, description: 'Saved replay.' });
      expect(fs.readFileSync(path.join(t.dataDir, 'uploads', 'replays', 'usc', scoreID))).toEqual(data);
    });

    it('refuses: no identifier or no file → 40, an unknown or other-playtype score → 44, another player’s → 43, over 1 MB → 40, no token → 40', async () => {
      const data = Buffer.from('replay');
      expect((await upload(alice.token, undefined, data)).body.statusCode).toBe(40);
      expect((await upload(alice.token, scoreID, undefined)).body.statusCode).toBe(40);
      expect((await upload(alice.token, 'S0000', data)).body.statusCode).toBe(44);
      expect((await upload(alice.token, scoreID, data, 'Keyboard')).body.statusCode).toBe(44);
      const mallory = await player(t);
      expect((await upload(mallory.token, scoreID, data)).body).toEqual({ statusCode: 43, description: 'That score is not yours.' });
      const big = await upload(alice.token, scoreID, Buffer.alloc(REPLAY_LIMIT_BYTES + 1));
      expect([big.status, big.body.statusCode]).toEqual([200, 40]);
      const anonymous = await t.http().post('/ir/usc/Controller/replays').field('identifier', scoreID).attach('replay', data, 'r.urf');
      expect([anonymous.status, anonymous.body.statusCode]).toEqual([200, 40]);
      const reader = await player(t, ['customise_profile']);
      expect((await upload(reader.token, scoreID, data)).body.statusCode).toBe(43);
    });

    it('takes a replay of exactly 1 MB', async () => {
      const res = await upload(alice.token, scoreID, Buffer.alloc(REPLAY_LIMIT_BYTES, 1));
      expect(res.body.statusCode).toBe(20);
    });
  });

  describe('random and truncated submissions only ever get 20, 22 or 40 (never 50, never a non-200)', () => {
    // A small deterministic PRNG, so that a failure can be replayed.
    function prng(seed: number) {
      return () => {
        seed = (seed + 0x6d2b79f5) | 0;
        let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
        x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
        return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
      };
    }
    const VALUES: unknown[] = [null, -1, 0, 1, 0.5, 2.5, 1e12, -1e12, '', 'x', '\u0000', [], {}, true, false, 'ffff', HASH, 10_000_000];

    function leaves(value: unknown, prefix: string[] = []): string[][] {
      if (typeof value !== 'object' || value === null) return [prefix];
      return [prefix, ...Object.entries(value).flatMap(([k, v]) => leaves(v, [...prefix, k]))];
    }
    function mutate(body: unknown, pathTo: string[], value: unknown, remove: boolean): unknown {
      if (pathTo.length === 0) return value;
      const copy = structuredClone(body) as Record<string, unknown>;
      let node = copy;
      for (const key of pathTo.slice(0, -1)) {
        const next = node[key];
        // An earlier mutation replaced a parent: nothing left to change on this path.
        if (typeof next !== 'object' || next === null) return copy;
        node = next as Record<string, unknown>;
      }
      const last = pathTo[pathTo.length - 1];
      if (remove) delete node[last];
      else node[last] = value;
      return copy;
    }

    it('mutated fields, removed fields and truncated JSON', async () => {
      const fuzzer = await player(t);
      const random = prng(11);
      const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
      const base = submission();
      const paths = leaves(base);
      const seen = new Set<number>();
      for (let i = 0; i < 60; i++) {
        let res;
        if (i % 3 === 2) {
          const text = JSON.stringify(mutate(base, pick(paths), pick(VALUES), false));
          res = await t
            .http()
            .post('/ir/usc/Controller/scores')
            .set(bearer(fuzzer.token))
            .set('Content-Type', 'application/json')
            .send(text.slice(0, Math.floor(random() * text.length)));
        } else {
          // A second mutation half the time, so that deeper combinations come up.
          let body = mutate(base, pick(paths), pick(VALUES), random() < 0.2);
          if (random() < 0.5 && typeof body === 'object' && body !== null) body = mutate(body, pick(leaves(body)), pick(VALUES), false);
          if (random() < 0.5 && typeof body === 'object' && body !== null)
            body = mutate(body, ['score', 'timestamp'], PLAYED_S + Math.floor(random() * 1000), false);
          res = await t.http().post('/ir/usc/Controller/scores').set(bearer(fuzzer.token)).set('Content-Type', 'application/json').send(JSON.stringify(body));
        }
        expect({ i, status: res.status }).toEqual({ i, status: 200 });
        expect([20, 22, 40]).toContain(res.body.statusCode);
        seen.add(res.body.statusCode as number);
      }
      // The inputs reach both sides: some imported or kept, most refused.
      expect(seen.has(40)).toBe(true);
      expect(seen.has(20) || seen.has(22)).toBe(true);
    });
  });

  // Last: its players' PBs would change the rankings the tests above count.
  importFormatContract({
    importType: 'ir/usc',
    app: () => t,
    send: (token, body, headers = {}) =>
      t
        .http()
        .post('/ir/usc/Controller/scores')
        .set({ ...(token ? bearer(token) : {}), ...headers })
        .send(body as object),
    input: submission(),
    stores: { scores: 1, sessions: 1 },
    // another score, and the same result at another client time
    otherResults: [submission({ score: 9_400_000, near: 40 }), submission({ score: 9_400_000, near: 40, timestamp: PLAYED_S + 600 })],
    readsUserIntent: false,
    sameInputLater: true,
    // Every answer is HTTP 200, with a USC code.
    answers: {
      imported: { status: 200, body: expect.objectContaining({ statusCode: 20, body: expect.objectContaining({ isPB: expect.any(Boolean) }) }) },
      duplicate: { status: 200, body: { statusCode: 20, description: 'Score was identical to another score you already have.' } },
      unauthenticated: { status: 200, body: expect.objectContaining({ statusCode: 40, description: expect.any(String) }) },
      otherScheme: { status: 200, body: expect.objectContaining({ statusCode: 40 }) },
      unknownToken: { status: 200, body: expect.objectContaining({ statusCode: 41 }) },
      forbidden: { status: 200, body: expect.objectContaining({ statusCode: 43, description: expect.stringMatching(/submit_score/) }) },
      banned: { status: 200, body: expect.objectContaining({ statusCode: 43 }) },
    },
    refused: [
      ...(
        [
          ['no chart', { score: submission().score }],
          ['a bad chart hash', submission({}, { chartHash: 'xyz' })],
          ['level 25', submission({}, { level: 25 })],
          ['a score over 10,000,000', submission({ score: 10_000_001 })],
          ['gauge 50 (0..1 expected)', submission({ gauge: 50 })],
          ['gaugeType 3', submission({ options: { gaugeType: 3, mirror: false, random: false, autoFlags: 0 } })],
          ['no windows', submission({ windows: undefined })],
          ['an array', [submission()]],
        ] as const
      ).map(([name, body]) => ({
        name: `${name}: 40 "Invalid USC score submission"`,
        send: (token: string) =>
          t
            .http()
            .post('/ir/usc/Controller/scores')
            .set(bearer(token))
            .send(body as object),
        answer: { status: 200, body: expect.objectContaining({ statusCode: 40, description: expect.stringMatching(/^Invalid USC score submission: /) }) },
      })),
      {
        name: 'malformed JSON: 40',
        send: (token) => t.http().post('/ir/usc/Controller/scores').set(bearer(token)).set('Content-Type', 'application/json').send('{"chart": '),
        answer: { status: 200, body: expect.objectContaining({ statusCode: 40 }) },
      },
    ],
  });
});

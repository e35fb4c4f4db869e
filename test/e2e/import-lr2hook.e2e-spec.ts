import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ImportDocument } from '../../src/presenters/import.presenter.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { importFormatContract } from '../support/import-format-contract.js';
import { loadFixtureCatalog, player, seededRandom, type Player } from '../support/imports.js';
import { countRows, storedGameStats, storedOrphans, storedPb, storedScores } from '../support/stored.js';
import { bearer, uniqueUsername } from '../support/users.js';
import { TACHI_SEEDS } from '../support/tachi-seeds.js';

const FIXTURES = path.resolve('test/fixtures/imports/lr2hook');
const SCORE = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'score.json'), 'utf8')) as Body;
const COURSES = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'bms-course-lookup.json'), 'utf8')) as { md5sums: string; value: string }[];
const CHARTS = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'charts-bms.json'), 'utf8')) as {
  chartID: string;
  data: { hashMD5: string; hashSHA256: string };
}[];
const TACHI_COURSES = path.join(TACHI_SEEDS, 'bms-course-lookup.json');

type Body = Record<string, unknown> & { md5: string; playerData: Record<string, unknown>; scoreData: Record<string, unknown> };
const body = (changes: (b: Body) => void = () => undefined): Body => {
  const b = structuredClone(SCORE);
  changes(b);
  return b;
};
/** A chart's ids: sha1 of "imports-bms-<n>". */
const chartID = (n: number) => createHash('sha1').update(`imports-bms-${n}`).digest('hex');

interface HookAnswer {
  success: boolean;
  description: string;
  body: ImportDocument;
}

function post(t: TestApp, token: string | null, route: 'import' | 'import/course', payload: unknown, prefix = '') {
  const req = t.http().post(`${prefix}/ir/lr2hook/${route}`);
  if (token) req.set(bearer(token));
  return req.send(payload as object);
}

describe('ir/lr2hook', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    await loadFixtureCatalog(t.database, FIXTURES);
  });
  afterAll(async () => {
    await t.close();
  });

  const scoreCount = (userID: number) => countRows(t, 'scores', { userID });

  describe('a score on a known chart', () => {
    let p: Player;
    let answer: HookAnswer;

    beforeAll(async () => {
      p = await player(t);
      const res = await post(t, p.token, 'import', SCORE);
      expect(res.status).toBe(200);
      answer = res.body as HookAnswer;
    });

    it("answers in Tachi's shape with the ImportDocument", () => {
      expect(answer.success).toBe(true);
      expect(answer.description).toBe('Import successful.');
      expect(answer.body).toMatchObject({ importType: 'ir/lr2hook', idStrings: ['bms:7K'], errors: [], userIntent: false });
      expect(answer.body.scoreIDs).toHaveLength(1);
      expect(answer.body.createdSessions).toEqual([{ sessionID: expect.any(String), type: 'Created' }]);
    });

    it('stores the score as the hook sent it', async () => {
      const [score] = await storedScores(t, p.user.id);
      expect(score).toMatchObject({
        chartID: chartID(1),
        service: 'LR2Hook',
        importType: 'ir/lr2hook',
        timeAchieved: 1_705_320_000_000,
        scoreMeta: { client: 'LR2', random: 'RANDOM', gauge: 'HARD' },
      });
      expect(score.scoreData).toMatchObject({
        score: 1600,
        lamp: 'HARD CLEAR',
        // 1600 / 2000
        percent: 80,
        judgements: { pgreat: 700, great: 200, good: 60, bad: 20, poor: 20 },
        optional: { bp: 40, maxCombo: 412, gauge: 64 },
      });
    });

    it('makes its PB of the score', async () => {
      expect((await storedPb(t, p.user.id, chartID(1)))?.scoreData).toMatchObject({ lamp: 'HARD CLEAR', score: 1600 });
    });

    it('takes the same result for the same score whatever its time (unixTimestamp is sent only by newer hooks): without it, a day later, or at another one', async () => {
      const clock = jest.spyOn(Date, 'now').mockReturnValue(Date.now() + 24 * 60 * 60 * 1000);
      try {
        for (const payload of [body((b) => delete b.unixTimestamp), body((b) => (b.unixTimestamp = (b.unixTimestamp as number) + 3600)), SCORE]) {
          const res = await post(t, p.token, 'import', payload);
          expect((res.body as HookAnswer).body).toMatchObject({ scoreIDs: [], errors: [] });
        }
      } finally {
        clock.mockRestore();
      }
      expect(await scoreCount(p.user.id)).toBe(1);
    });

    it('matches a chart by its SHA256 too, and dates a score without unixTimestamp when it arrives', async () => {
      const before = Date.now();
      const payload = body((b) => {
        b.md5 = CHARTS[1].data.hashSHA256;
        delete b.unixTimestamp;
      });
      const res = await post(t, p.token, 'import', payload);
      expect((res.body as HookAnswer).body.scoreIDs).toHaveLength(1);
      const pb = await storedPb(t, p.user.id, chartID(2));
      expect(pb?.scoreData.score).toBe(1600);
      const score = (await storedScores(t, p.user.id)).find((s) => s.chartID === chartID(2))!;
      expect(score.timeAchieved).toBeGreaterThanOrEqual(before);
      expect(score.timeAchieved).toBeLessThanOrEqual(Date.now());
    });
  });

  describe('per-score problems are no HTTP error: they are in body.errors', () => {
    let p: Player;
    beforeAll(async () => {
      p = await player(t);
    });

    it('an unknown chart is an orphan (no orphan-chart queue for LR2Hook); re-sending it is silent', async () => {
      const payload = body((b) => (b.md5 = 'f'.repeat(32)));
      const res = await post(t, p.token, 'import', payload);
      expect(res.status).toBe(200);
      const doc = (res.body as HookAnswer).body;
      expect(doc.scoreIDs).toEqual([]);
      expect(doc.errors).toEqual([{ type: 'SongOrChartNotFound', message: expect.stringContaining(`No bms chart has the hash ${'f'.repeat(32)}.`) }]);
      expect(await storedOrphans(t, p.user.id)).toHaveLength(1);
      const again = await post(t, p.token, 'import', payload);
      expect((again.body as HookAnswer).body.errors).toEqual([]);
    });

    const cases: [string, (b: Body) => void, RegExp][] = [
      ['a 14K chart', (b) => (b.md5 = CHARTS[2].data.hashMD5), /is a 14K chart, not 7K/],
      ['judgements that do not add up to the EX score', (b) => (b.scoreData.exScore = 1601), /pgreat × 2 \+ great is 1600, but the EX score is 1601/],
      [
        'an EX score above the chart maximum',
        (b) => Object.assign(b.scoreData, { pgreat: 1000, great: 1, exScore: 2001 }),
        /score 2001 is out of range: it must be between 0 and 2000/,
      ],
      ['an md5 that is no hash', (b) => (b.md5 = 'song.bms'), /identifier 'song\.bms' must be an MD5/],
    ];
    it.each(cases)('%s is InvalidDatapoint', async (_, change, message) => {
      const res = await post(t, p.token, 'import', body(change));
      expect(res.status).toBe(200);
      expect((res.body as HookAnswer).body.errors).toEqual([{ type: 'InvalidDatapoint', message: expect.stringMatching(message) }]);
    });
  });

  const refusal = (message: RegExp) => ({ success: false, description: expect.stringMatching(message) });
  importFormatContract({
    importType: 'ir/lr2hook',
    app: () => t,
    send: (token, payload, headers = {}) =>
      t
        .http()
        .post('/api/v1/ir/lr2hook/import')
        .set({ ...(token ? bearer(token) : {}), ...headers })
        .send(payload as object),
    input: SCORE,
    stores: { scores: 1, sessions: 1 },
    // the same EX score, other judgements
    otherResults: [body((b) => Object.assign(b.scoreData, { pgreat: 699, great: 202, good: 58 }))],
    readsUserIntent: false,
    sameInputLater: true,
    answers: {
      imported: {
        status: 200,
        body: expect.objectContaining({ success: true, description: 'Import successful.', body: expect.objectContaining({ errors: [] }) }),
      },
      duplicate: { status: 200, body: expect.objectContaining({ success: true, body: expect.objectContaining({ scoreIDs: [] }) }) },
      unauthenticated: { status: 401, body: { success: false, description: expect.any(String) } },
      forbidden: { status: 403, body: { success: false, description: expect.any(String) } },
    },
    otherRoutes: [
      { name: 'import (without /api/v1)', send: (token, headers) => post(t, token, 'import', SCORE).set(headers ?? {}) },
      { name: 'import/course', send: (token, headers) => post(t, token, 'import/course', SCORE).set(headers ?? {}) },
      { name: 'import/course (under /api/v1)', send: (token, headers) => post(t, token, 'import/course', SCORE, '/api/v1').set(headers ?? {}) },
    ],
    refused: [
      ...(
        [
          ['autoScr', body((b) => (b.playerData.autoScr = 1)), /^Invalid LR2Hook request: playerData\.autoScr: must be 0/],
          ['random H-RAN', body((b) => (b.playerData.random = 'H-RAN')), /^Invalid LR2Hook request: playerData\.random/],
          ['a short hpGraph', body((b) => (b.scoreData.hpGraph = [1, 2, 3])), /^Invalid LR2Hook request: scoreData\.hpGraph/],
          ['an array body', [SCORE], /^Invalid LR2Hook request: body: /],
        ] as const
      ).map(([name, payload, message]) => ({
        name: `${name}: 400`,
        send: (token: string) => post(t, token, 'import', payload),
        answer: { status: 400, body: refusal(message) },
      })),
      {
        name: 'malformed JSON: 400',
        send: (token) => t.http().post('/ir/lr2hook/import').set(bearer(token)).set('content-type', 'application/json').send('{"md5": '),
        answer: { status: 400, body: refusal(/^Malformed JSON body/) },
      },
    ],
  });

  describe('POST /ir/lr2hook/import/course', () => {
    let p: Player;
    const course = (md5sums: string, changes: (b: Body) => void = () => undefined) =>
      body((b) => {
        b.md5 = md5sums;
        changes(b);
      });

    beforeAll(async () => {
      p = await player(t);
      expect((await post(t, p.token, 'import', SCORE)).status).toBe(200);
    });

    it('a course not played to its end (or failed) changes nothing', async () => {
      for (const change of [(b: Body) => (b.scoreData.notesPlayed = 900), (b: Body) => (b.scoreData.lamp = 'FAIL')]) {
        const res = await post(t, p.token, 'import/course', course(COURSES[0].md5sums, change));
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ success: true, description: 'Class not updated: the course was not cleared.', body: {} });
      }
      expect((await storedGameStats(t, p.user.id, 'bms', '7K'))?.classes).toEqual({});
    });

    it('a cleared course raises the dan, never lowers it', async () => {
      const second = await post(t, p.token, 'import/course', course(COURSES[1].md5sums.toUpperCase()));
      expect(second.status).toBe(200);
      expect(second.body).toMatchObject({
        success: true,
        description: 'Class updated: Fixture 7K Insane 2nd Dan cleared.',
        body: { course: 'Fixture 7K Insane 2nd Dan', set: 'genocideDan', value: 'INSANE_2' },
      });
      expect(second.body.body.import).toMatchObject({
        importType: 'ir/lr2hook-course',
        scoreIDs: [],
        classDeltas: [{ game: 'bms', playtype: '7K', set: 'genocideDan', old: null, new: 'INSANE_2' }],
      });
      expect((await storedGameStats(t, p.user.id, 'bms', '7K'))?.classes).toEqual({ genocideDan: 'INSANE_2' });

      const first = await post(t, p.token, 'import/course', course(COURSES[0].md5sums));
      expect(first.status).toBe(200);
      expect(first.body.description).toBe('Class not updated: your genocideDan is already INSANE_1 or higher.');
      expect(first.body.body.import.classDeltas).toEqual([]);
      expect((await storedGameStats(t, p.user.id, 'bms', '7K'))?.classes).toEqual({ genocideDan: 'INSANE_2' });
    });

    it('a 14K course applies to BMS 14K: a user without 14K scores gets the profile, with the dan (as Tachi)', async () => {
      expect(await storedGameStats(t, p.user.id, 'bms', '14K')).toBeUndefined();
      const res = await post(t, p.token, 'import/course', course(COURSES[2].md5sums));
      expect(res.status).toBe(200);
      expect(res.body.description).toMatch(/^Class updated: /);
      expect(res.body.body.import.classDeltas).toEqual([{ game: 'bms', playtype: '14K', set: res.body.body.set, old: null, new: res.body.body.value }]);
      expect((await storedGameStats(t, p.user.id, 'bms', '14K'))?.classes).toEqual({ [res.body.body.set]: res.body.body.value });
      const again = await post(t, p.token, 'import/course', course(COURSES[2].md5sums));
      expect(again.body.description).toMatch(/^Class not updated: /);
    });

    it('an unknown course: 404; an md5 that is not four MD5s: 400; a bad body: 400', async () => {
      const unknown = await post(t, p.token, 'import/course', course('a'.repeat(128)));
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ success: false, description: 'Unsupported course.' });
      const short = await post(t, p.token, 'import/course', course('a'.repeat(96)));
      expect(short.status).toBe(400);
      expect(short.body).toEqual({ success: false, description: expect.stringMatching(/128 hex characters/) });
      const autoScr = await post(
        t,
        p.token,
        'import/course',
        course(COURSES[0].md5sums, (b) => (b.playerData.autoScr = 1)),
      );
      expect(autoScr.status).toBe(400);
      expect(autoScr.body.description).toMatch(/playerData\.autoScr/);
    });
  });

  it('answers random and truncated bodies with 200 or a 4xx, never a 500', async () => {
    const p = await player(t);
    const next = seededRandom(5);
    const values: unknown[] = [null, -1, 0, 1.5, 'x', 'FAIL', [], {}, true, 'a'.repeat(128), CHARTS[0].data.hashMD5];
    const keys: [string, string | null][] = [
      ['md5', null],
      ['autoScr', 'playerData'],
      ['random', 'playerData'],
      ['gauge', 'playerData'],
      ['lamp', 'scoreData'],
      ['exScore', 'scoreData'],
      ['pgreat', 'scoreData'],
      ['notesPlayed', 'scoreData'],
      ['hpGraph', 'scoreData'],
      ['unixTimestamp', null],
      ['scoreData', null],
    ];
    const text = JSON.stringify(SCORE);
    for (let k = 0; k < 30; k += 1) {
      const payload = body((b) => {
        for (let m = 0; m < 2; m += 1) {
          const [key, under] = keys[Math.floor(next() * keys.length)];
          const holder = (under ? b[under] : b) as Record<string, unknown>;
          holder[key] = values[Math.floor(next() * values.length)];
        }
      });
      for (const route of ['import', 'import/course'] as const) {
        const res = await post(t, p.token, route, payload);
        expect([route, JSON.stringify(payload).slice(0, 200), res.status < 500]).toEqual([route, JSON.stringify(payload).slice(0, 200), true]);
        expect(res.body.success === true ? 200 : 'error').toBe(res.status < 300 ? 200 : 'error');
      }
      const cut = text.slice(0, Math.floor(next() * text.length));
      const res = await t.http().post('/ir/lr2hook/import').set(bearer(p.token)).set('content-type', 'application/json').send(cut);
      expect([cut.length, res.status]).toEqual([cut.length, 400]);
    }
  });
});

describe('ir/lr2hook with API_ENVELOPE=tachi', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ API_ENVELOPE: 'tachi' });
    await loadFixtureCatalog(t.database, FIXTURES);
  });
  afterAll(async () => {
    await t.close();
  });

  it('is not wrapped twice', async () => {
    // The support helpers read unwrapped answers: register and issue the token by hand.
    const agent = t.agent();
    const username = uniqueUsername('env');
    const registered = await agent
      .post('/api/v1/auth/register')
      .send({ username, '!password': 'pw-123456789', email: `${username}@example.test`, captcha: 'x' });
    const userID = (registered.body as { body: { id: number } }).body.id;
    const issued = await agent.post(`/api/v1/users/${userID}/api-tokens/create`).send({ permissions: ['submit_score'] });
    const token = (issued.body as { body: { token: string } }).body.token;
    const p = { token };
    const res = await post(t, p.token, 'import', SCORE);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, description: 'Import successful.', body: { importType: 'ir/lr2hook' } });
    const bad = await post(t, p.token, 'import', {});
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ success: false, description: expect.stringMatching(/^Invalid LR2Hook request/) });
  });
});

(fs.existsSync(TACHI_COURSES) ? describe : describe.skip)('ir/lr2hook courses from the real Tachi course table', () => {
  let t: TestApp;
  let dir: string;
  const real = () => JSON.parse(fs.readFileSync(TACHI_COURSES, 'utf8')) as { md5sums: string; playtype: string; set: string; title: string; value: string }[];

  beforeAll(async () => {
    t = await createTestApp();
    // The fixture charts with the real course table (BMS charts are not in the seeds).
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lr2hook-courses-'));
    for (const file of ['songs-bms.json', 'charts-bms.json']) fs.copyFileSync(path.join(FIXTURES, file), path.join(dir, file));
    fs.copyFileSync(TACHI_COURSES, path.join(dir, 'bms-course-lookup.json'));
    await loadFixtureCatalog(t.database, dir);
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('gives the class of a real 7K dan course', async () => {
    const p = await player(t);
    expect((await post(t, p.token, 'import', SCORE)).status).toBe(200);
    const dan = real().find((c) => c.playtype === '7K' && c.set === 'genocideDan' && c.value === 'INSANE_1')!;
    const res = await post(
      t,
      p.token,
      'import/course',
      body((b) => (b.md5 = dan.md5sums)),
    );
    expect(res.status).toBe(200);
    expect(res.body.body.import.classDeltas).toEqual([{ game: 'bms', playtype: '7K', set: 'genocideDan', old: null, new: 'INSANE_1' }]);
    expect((await storedGameStats(t, p.user.id, 'bms', '7K'))?.classes).toEqual({ genocideDan: 'INSANE_1' });
  });
});

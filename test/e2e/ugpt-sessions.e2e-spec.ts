import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from '../support/app.js';
import { importSdvx, loadScoreFixtures, sdvxScore, type SdvxDifficulty } from '../support/score-fixtures.js';
import { countRows, storedSession, storedSessions } from '../support/stored.js';
import { signUp, type SignedUpUser } from '../support/users.js';

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const T0 = Date.UTC(2023, 0, 2, 18);

/** Ten charts; ten PUCs on them make a session of ProfileVF6 19.255 (worked out in sessions.e2e-spec.ts). */
const TEN_CHARTS: [number, SdvxDifficulty][] = [
  [1, 'EXH'],
  [2, 'EXH'],
  [3, 'EXH'],
  [4, 'EXH'],
  [5, 'EXH'],
  [6, 'EXH'],
  [7, 'EXH'],
  [1, 'MXM'],
  [2, 'MXM'],
  [3, 'MXM'],
];

/** Sessions 0–101 hold ten scores each, a day apart; sessions 102 and 103 one score each (no ProfileVF6). */
const RATED_SESSIONS = 102;
const SESSIONS = 104;

/**
 * Session k > 0: ten CLEARs of 9,900,000 − 50,000·k. VF6 = level × 2 × score/1e7 × grade
 * coefficient × lamp coefficient / 1e6, floored to 0.001; each step lowers it by at least
 * 14 × 2 × 0.005 × 80 (grade D) × 100 (CLEAR) / 1e6 = 0.00112 > 0.001, which survives the flooring:
 * ProfileVF6 falls strictly with k, and session 0 (PUCs) is the best.
 */
function sessionScores(k: number) {
  return TEN_CHARTS.map(([song, diff], i) =>
    k === 0
      ? sdvxScore(song, diff, 10_000_000, 'PERFECT ULTIMATE CHAIN', T0 + i * 5 * MIN)
      : sdvxScore(song, diff, 9_900_000 - 50_000 * k, 'CLEAR', T0 + k * DAY + i * 5 * MIN),
  );
}

interface SessionDoc {
  sessionID: string;
  name: string;
  userID: number;
  game: string;
  playtype: string;
  scores: string[];
  calculatedData: Record<string, number | null>;
  highlighted: boolean;
  timeEnded: number;
}

describe('UGPT sessions (/users/:userID/games/:game/:playtype/sessions…)', () => {
  let t: TestApp;
  let alice: SignedUpUser;
  let bob: SignedUpUser;
  let carol: SignedUpUser;
  let dave: SignedUpUser;
  /** alice's session ids by k (time order). */
  let ids: string[];
  let bobSessionIDs: string[];

  const path = (user: string | number, rest = '') => `/api/v1/users/${user}/games/sdvx/Single/sessions${rest}`;
  const get = (url: string) => t.http().get(url);
  const sessionIDs = (body: unknown) => (body as SessionDoc[]).map((s) => s.sessionID);
  const patchSession = async (u: SignedUpUser, id: string, body: object) => {
    const res = await u.agent.patch(`/api/v1/sessions/${id}`).send(body);
    if (res.status !== 200) throw new Error(`session patch failed: ${res.status} ${JSON.stringify(res.body)}`);
  };

  beforeAll(async () => {
    t = await createTestApp();
    await loadScoreFixtures(t);
    [alice, bob, carol, dave] = [await signUp(t), await signUp(t), await signUp(t), await signUp(t)];

    const elements = [];
    for (let k = 0; k < RATED_SESSIONS; k++) elements.push(...sessionScores(k));
    elements.push(sdvxScore(4, 'MXM', 9_000_000, 'CLEAR', T0 + 102 * DAY), sdvxScore(5, 'MXM', 9_100_000, 'CLEAR', T0 + 103 * DAY));
    const doc = await importSdvx(alice.agent, elements);
    expect(doc.createdSessions).toHaveLength(SESSIONS);
    // More than sessions/recent lists: each created session's own document, earliest first.
    const created = await Promise.all(doc.createdSessions.map(async ({ sessionID }) => (await storedSession(t, sessionID))!));
    ids = created.sort((x, y) => x.timeStarted - y.timeStarted).map((s) => s.sessionID);
    expect(ids).toHaveLength(SESSIONS);
    expect(await countRows(t, 'sessions', { userID: alice.user.id })).toBe(SESSIONS);

    // Names: "Session k", three marathon names (two holding the whole word, one a longer word); highlights: all but 0–2.
    const special: Record<number, string> = { 10: 'Evening Marathon Session', 20: 'Marathon Session', 30: 'Marathons Galore Session' };
    for (let k = 0; k < SESSIONS; k++) await patchSession(alice, ids[k], { name: special[k] ?? `Session ${k}`, ...(k >= 3 ? { highlight: true } : {}) });

    // bob: two one-score sessions, one named like alice's; carol: a score without a time, so no session.
    await importSdvx(bob.agent, [sdvxScore(1, 'EXH', 9_000_000, 'CLEAR', T0), sdvxScore(2, 'EXH', 9_000_000, 'CLEAR', T0 + DAY)]);
    bobSessionIDs = (await storedSessions(t, bob.user.id)).map((s) => s.sessionID);
    // Both named: a generated name can hold the word "Marathon" (one noun in ~60), which would match the search.
    await patchSession(bob, bobSessionIDs[0], { name: 'Warm-up' });
    await patchSession(bob, bobSessionIDs[1], { name: 'Marathon Session', highlight: true });
    await importSdvx(carol.agent, [sdvxScore(1, 'EXH', 9_000_000, 'CLEAR', null)]);
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  describe('GET /sessions/recent', () => {
    it('returns the 100 latest SessionDocuments by timeEnded, descending', async () => {
      const res = await get(path(alice.user.id, '/recent'));
      expect(res.status).toBe(200);
      expect(sessionIDs(res.body)).toEqual(ids.slice(4).reverse());
      const [latest] = res.body as SessionDoc[];
      expect(Object.keys(latest).sort()).toEqual([
        'calculatedData',
        'desc',
        'game',
        'highlighted',
        'name',
        'playtype',
        'scores',
        'sessionID',
        'timeEnded',
        'timeInserted',
        'timeStarted',
        'userID',
      ]);
      expect(latest).toMatchObject({
        userID: alice.user.id,
        game: 'sdvx',
        playtype: 'Single',
        name: 'Session 103',
        highlighted: true,
        timeEnded: T0 + 103 * DAY,
      });
      expect(latest.calculatedData).toEqual({ ProfileVF6: null });
      expect(latest.scores).toHaveLength(1);
    });

    it('gives each session its own score ids, in play order', async () => {
      const rows = await t.http().get(`/api/v1/sessions/${ids[50]}`);
      const inPlayOrder = (rows.body.scores as { scoreID: string }[]).map((s) => s.scoreID);
      const listed = (await get(path(alice.user.id, '/recent'))).body as SessionDoc[];
      expect(listed.find((s) => s.sessionID === ids[50])!.scores).toEqual(inPlayOrder);
      expect(inPlayOrder).toHaveLength(10);
    });

    it("lists only that user's sessions on that GPT", async () => {
      expect(sessionIDs((await get(path(bob.user.id, '/recent'))).body)).toEqual([...bobSessionIDs].reverse());
      expect((await get(path(carol.user.id, '/recent'))).body).toEqual([]);
    });
  });

  describe('GET /sessions/last', () => {
    it('returns the latest session', async () => {
      const res = await get(path(alice.username, '/last'));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ sessionID: ids[103], name: 'Session 103', timeEnded: T0 + 103 * DAY });
      expect(res.body.scores).toHaveLength(1);
    });

    it('404s a player without sessions', async () => {
      const res = await get(path(carol.user.id, '/last'));
      expect(res.status).toBe(404);
      expect(res.body.message).toMatch(/has no sessions/);
    });
  });

  describe('GET /sessions/best', () => {
    it("returns the 100 best by the GPT's default session rating, leaving out sessions without one", async () => {
      const res = await get(path(alice.user.id, '/best'));
      expect(res.status).toBe(200);
      const best = res.body as SessionDoc[];
      // Sessions 0–99 in order; 100 and 101 are the worst rated, 102 and 103 have no ProfileVF6.
      expect(sessionIDs(best)).toEqual(ids.slice(0, 100));
      expect(best[0].calculatedData.ProfileVF6).toBeCloseTo(19.255, 10);
      expect(best[0].scores).toHaveLength(10);
      const values = best.map((s) => s.calculatedData.ProfileVF6!);
      values.slice(1).forEach((v, i) => expect(v).toBeLessThan(values[i]));
    });

    it('takes the algorithm by name, and 400s one that is not a session algorithm of the GPT', async () => {
      expect(sessionIDs((await get(path(alice.user.id, '/best?alg=ProfileVF6'))).body)).toEqual(ids.slice(0, 100));
      for (const alg of ['VF6', 'nope', '']) {
        const res = await get(path(alice.user.id, `/best?alg=${alg}`));
        expect(res.status).toBe(400);
        expect(res.body.message).toMatch(alg ? /ProfileVF6/ : /alg/);
      }
    });

    it('is empty for a player whose sessions have no rating', async () => {
      expect((await get(path(bob.user.id, '/best'))).body).toEqual([]);
    });
  });

  describe('GET /sessions/highlighted', () => {
    it('returns the 100 latest highlighted sessions by timeEnded', async () => {
      const res = await get(path(alice.user.id, '/highlighted'));
      expect(res.status).toBe(200);
      // 101 are highlighted (3–103): the oldest, 3, is past the limit.
      expect(sessionIDs(res.body)).toEqual(ids.slice(4).reverse());
      expect((res.body as SessionDoc[]).every((s) => s.highlighted)).toBe(true);
      expect(sessionIDs((await get(path(bob.user.id, '/highlighted'))).body)).toEqual([bobSessionIDs[1]]);
      expect((await get(path(carol.user.id, '/highlighted'))).body).toEqual([]);
    });

    it('follows un-highlighting', async () => {
      await patchSession(alice, ids[103], { highlight: false });
      try {
        expect(sessionIDs((await get(path(alice.user.id, '/highlighted'))).body)).toEqual(ids.slice(3, 103).reverse());
      } finally {
        await patchSession(alice, ids[103], { highlight: true });
      }
    });
  });

  describe('GET /sessions?search=', () => {
    it('matches whole words first, then closeness; ties by the latest', async () => {
      const res = await get(path(alice.user.id, '?search=marathon'));
      expect(res.status).toBe(200);
      expect(sessionIDs(res.body)).toEqual([ids[20], ids[10], ids[30]]);
    });

    it('finds names by a close word (trigram) as well as by substring, case-insensitively', async () => {
      expect(sessionIDs((await get(path(alice.user.id, '?search=MARATHON%20SESS'))).body).slice(0, 2)).toEqual([ids[20], ids[10]]);
      // "marathn" is no substring, but 6 of its 8 trigrams are in "marathon" and "marathons": 0.75 each, so the latest first.
      expect(sessionIDs((await get(path(alice.user.id, '?search=marathn'))).body)).toEqual([ids[30], ids[20], ids[10]]);
    });

    it('searches session names only, and only that user', async () => {
      expect((await get(path(alice.user.id, '?search=Pipeline'))).body).toEqual([]);
      expect(sessionIDs((await get(path(bob.user.id, '?search=marathon'))).body)).toEqual([bobSessionIDs[1]]);
    });

    it('ignores spaces around the search, as the PB and score searches do', async () => {
      const plain = (await get(path(alice.user.id, '?search=marathon'))).body;
      expect((await get(path(alice.user.id, '?search=%20%20marathon%20'))).body).toEqual(plain);
      // 200 characters between spaces are within the limit once trimmed
      const long = await get(path(alice.user.id, `?search=%20${'a'.repeat(200)}%20`));
      expect(long.status).toBe(200);
      expect(long.body).toEqual([]);
    });

    it('returns at most 100, the latest first among equals', async () => {
      const res = await get(path(alice.user.id, '?search=session'));
      expect(res.body).toHaveLength(100);
      expect(sessionIDs(res.body)).toEqual(ids.slice(4).reverse());
    });

    it.each([
      ['no search', ''],
      ['an empty search', '?search='],
      ['a blank search', '?search=%20%20'],
      ['a search of 201 characters', `?search=${'a'.repeat(201)}`],
      ['an unknown parameter', '?search=marathon&limit=5'],
    ])('400s %s', async (_what, query) => {
      expect((await get(path(alice.user.id, query))).status).toBe(400);
    });
  });

  describe('404s', () => {
    it.each(['', '/best', '/recent', '/last', '/highlighted'])(
      '/sessions%s for a user who has not played the GPT, an unknown user, game or playtype',
      async (rest) => {
        const suffix = rest === '' ? '?search=x' : rest;
        const notPlayed = await get(path(dave.user.id, suffix));
        expect(notPlayed.status).toBe(404);
        expect(notPlayed.body.message).toMatch(/has not played/);
        expect((await get(path(999_999, suffix))).status).toBe(404);
        expect((await get(`/api/v1/users/${alice.user.id}/games/nosuchgame/Single/sessions${suffix}`)).status).toBe(404);
        expect((await get(`/api/v1/users/${alice.user.id}/games/sdvx/Double/sessions${suffix}`)).status).toBe(404);
        // alice has played sdvx only.
        expect((await get(`/api/v1/users/${alice.user.id}/games/iidx/SP/sessions${suffix}`)).status).toBe(404);
      },
    );
  });
});

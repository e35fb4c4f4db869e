import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { createTestApp, type TestApp } from '../support/app.js';
import { makeAdmin } from '../support/db-fixtures.js';
import { batchManual, fixtureChart, HOUR, imported, loadFixtureCatalog, player, T0, type Player } from '../support/imports.js';
import {
  countRows,
  rowsHeldBy,
  storedApiClient,
  storedGameStats,
  storedPb,
  storedProfiles,
  storedScores,
  storedSessions,
  storedUserPbs,
} from '../support/stored.js';
import { bearer } from '../support/users.js';

const md5 = (s: string) => createHash('md5').update(s).digest('hex');

/** A user's scores, PBs, sessions and profile ratings (as the API serves them) without what depends on the user or the import. */
async function profileOf(t: TestApp, userID: number) {
  const scoreRows = await storedScores(t, userID);
  const pbRows = await storedUserPbs(t, userID);
  const ratings = (await storedProfiles(t, userID)).flatMap(({ game, playtype, ratings: values }) =>
    Object.entries(values)
      .filter(([, value]) => value !== null)
      .map(([alg, value]) => ({ game, playtype, alg, value })),
  );
  const sessionRows = await storedSessions(t, userID);
  const byKey = <T>(rows: T[], key: (r: T) => string) => rows.sort((a, b) => key(a).localeCompare(key(b)));
  return {
    scores: byKey(
      scoreRows.map(({ chartID, scoreData, calculatedData, scoreMeta, timeAchieved, comment, isPrimary }) => ({
        chartID,
        scoreData,
        calculatedData,
        scoreMeta,
        timeAchieved,
        comment,
        isPrimary,
      })),
      (s) => `${s.chartID}|${s.timeAchieved}|${s.scoreData.score}`,
    ),
    pbs: byKey(
      pbRows.map(({ chartID, scoreData, calculatedData, timeAchieved, rankingData }) => ({ chartID, scoreData, calculatedData, timeAchieved, rankingData })),
      (p) => p.chartID,
    ),
    sessions: byKey(
      sessionRows.map(({ game, playtype, calculatedData, timeStarted, timeEnded }) => ({ game, playtype, calculatedData, timeStarted, timeEnded })),
      (x) => `${x.game}|${x.timeStarted}`,
    ),
    ratings: byKey(
      ratings.map(({ game, playtype, alg, value }) => ({ game, playtype, alg, value })),
      (r) => `${r.game}|${r.playtype}|${r.alg}`,
    ),
  };
}

describe("Players' data", () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    await loadFixtureCatalog(t.database);
  });
  afterAll(async () => {
    await t.close();
  });

  describe('GET /users/:userID/games/:game/:playtype/export', () => {
    let fresh: TestApp;
    let p: Player;
    const documents: { game: string; playtype: string; elements: Record<string, unknown>[] }[] = [
      {
        game: 'sdvx',
        playtype: 'Single',
        elements: [
          {
            matchType: 'sdvxInGameID',
            identifier: '1001',
            difficulty: 'MXM',
            score: 9_000_000,
            lamp: 'EXCESSIVE CLEAR',
            timeAchieved: T0,
            optional: { exScore: 2900 },
          },
          { matchType: 'sdvxInGameID', identifier: '1001', difficulty: 'MXM', score: 9_100_000, lamp: 'CLEAR', timeAchieved: T0 + HOUR, comment: 'better' },
          { matchType: 'songTitle', identifier: 'Pipeline Anthem', difficulty: 'EXH', score: 9_500_000, lamp: 'CLEAR', timeAchieved: null },
        ],
      },
      {
        game: 'iidx',
        playtype: 'SP',
        elements: [{ matchType: 'inGameID', identifier: '30001', difficulty: 'ANOTHER', score: 1500, lamp: 'HARD CLEAR', timeAchieved: T0 + 2 * HOUR }],
      },
      {
        game: 'bms',
        playtype: '7K',
        elements: [{ matchType: 'bmsChartHash', identifier: md5('bms-alpha-7k'), score: 1200, lamp: 'CLEAR', timeAchieved: T0 + 3 * HOUR }],
      },
    ];

    beforeAll(async () => {
      fresh = await createTestApp();
      await loadFixtureCatalog(fresh.database);
      p = await player(t);
      for (const d of documents) {
        const doc = await imported(t, p.token, batchManual(d.game, d.playtype, d.elements));
        expect(doc.errors).toEqual([]);
      }
    });
    afterAll(async () => {
      await fresh.close();
    });

    it('answers a batch-manual download that re-imports on a fresh instance to the same scores, PBs, sessions and ratings', async () => {
      const importer = await player(fresh);
      for (const d of documents) {
        const res = await t.http().get(`/api/v1/users/${p.user.id}/games/${d.game}/${d.playtype}/export`);
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(res.headers['content-disposition']).toBe(`attachment; filename="${p.username}-${d.game}-${d.playtype}.json"`);
        const exported = JSON.parse(res.text as string) as { meta: unknown; scores: unknown[] };
        expect(exported.meta).toEqual({ game: d.game, playtype: d.playtype, service: 'Export' });
        expect(exported.scores).toHaveLength(d.elements.length);
        const doc = await imported(fresh, importer.token, exported);
        expect(doc.errors).toEqual([]);
        expect(doc.scoreIDs).toHaveLength(d.elements.length);
        const [before, after] = [await storedGameStats(t, p.user.id, d.game, d.playtype), await storedGameStats(fresh, importer.user.id, d.game, d.playtype)];
        expect(after?.classes).toEqual(before?.classes);
      }
      const original = await profileOf(t, p.user.id);
      expect(original.scores).toHaveLength(5);
      expect(original.pbs).toHaveLength(4);
      expect(original.ratings.length).toBeGreaterThan(0);
      expect(original.sessions.length).toBeGreaterThan(0);
      expect(await profileOf(fresh, importer.user.id)).toEqual(original);
    });

    it('404s an unplayed GPT, an unknown user and an unknown playtype', async () => {
      expect((await t.http().get(`/api/v1/users/${p.user.id}/games/jubeat/Single/export`)).status).toBe(404);
      expect((await t.http().get(`/api/v1/users/999999/games/sdvx/Single/export`)).status).toBe(404);
      expect((await t.http().get(`/api/v1/users/${p.user.id}/games/sdvx/Nope/export`)).status).toBe(404);
    });
  });

  const sdvxPlay = (difficulty: string, score: number, timeAchieved: number) => ({
    matchType: 'sdvxInGameID',
    identifier: '1001',
    difficulty,
    score,
    lamp: 'CLEAR',
    timeAchieved,
  });
  const MXM = fixtureChart('sdvx-1-MXM');
  /** The rival's rank and outOf on MXM, which the removal of a better player lowers by one each. */
  const standing = async (rival: Player) => {
    return (await storedPb(t, rival.user.id, MXM))!.rankingData;
  };
  const lessOne = (s: { rank: number; outOf: number }) => ({ rank: s.rank - 1, outOf: s.outOf - 1 });

  /** A player with two sdvx scores (MXM above the rivals') and an iidx score. */
  async function playerWithScores(): Promise<Player> {
    const p = await player(t);
    await imported(t, p.token, batchManual('sdvx', 'Single', [sdvxPlay('MXM', 9_900_000, T0), sdvxPlay('EXH', 9_000_000, T0 + HOUR)]));
    await imported(
      t,
      p.token,
      batchManual('iidx', 'SP', [{ matchType: 'inGameID', identifier: '30001', difficulty: 'ANOTHER', score: 1500, lamp: 'CLEAR', timeAchieved: T0 }]),
    );
    return p;
  }

  describe('DELETE /users/:userID/games/:game/:playtype', () => {
    let rival: Player;
    beforeAll(async () => {
      rival = await player(t);
      await imported(t, rival.token, batchManual('sdvx', 'Single', [sdvxPlay('MXM', 9_000_000, T0)]));
    });
    const route = (p: Player, game = 'sdvx', playtype = 'Single') => `/api/v1/users/${p.user.id}/games/${game}/${playtype}`;

    it('removes the profile with a session and the right password, fixing the ranks, and leaves the other GPTs', async () => {
      const p = await playerWithScores();
      const before = await standing(rival);
      const res = await p.agent.delete(route(p)).send({ '!password': p.password });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
      expect(await storedGameStats(t, p.user.id, 'sdvx', 'Single')).toBeUndefined();
      const left = await storedScores(t, p.user.id);
      expect(left.map((s) => s.game)).toEqual(['iidx']);
      expect(await standing(rival)).toEqual(lessOne(before));
      expect(await storedGameStats(t, p.user.id, 'iidx', 'SP')).toBeDefined();
      expect((await p.agent.delete(route(p)).send({ '!password': p.password })).status).toBe(404);
    });

    it('refuses a wrong password (401), a token (403), another user (403), a missing password (400) and an unknown user or GPT (404)', async () => {
      const p = await playerWithScores();
      const other = await player(t);
      expect((await p.agent.delete(route(p)).send({ '!password': 'wrong-password' })).status).toBe(401);
      expect((await t.http().delete(route(p)).set(bearer(p.token)).send({ '!password': p.password })).status).toBe(403);
      expect((await other.agent.delete(route(p)).send({ '!password': other.password })).status).toBe(403);
      expect((await p.agent.delete(route(p)).send({})).status).toBe(400);
      expect((await p.agent.delete('/api/v1/users/999999/games/sdvx/Single').send({ '!password': p.password })).status).toBe(404);
      expect((await p.agent.delete(route(p, 'jubeat', 'Single')).send({ '!password': p.password })).status).toBe(404);
      expect(await storedGameStats(t, p.user.id, 'sdvx', 'Single')).toBeDefined();
    });
  });

  describe('DELETE /users/:userID and POST /admin/delete-user', () => {
    let rival: Player;
    beforeAll(async () => {
      rival = await player(t);
      await imported(t, rival.token, batchManual('sdvx', 'Single', [sdvxPlay('MXM', 9_000_000, T0)]));
    });

    /** Every row anywhere that still belongs to the user. */
    async function remainsOf(userID: number): Promise<string[]> {
      const found = await rowsHeldBy(t, userID);
      // With Redis, login sessions live there: the session itself and the user's index of them.
      if (t.redis) {
        for (const key of await t.redis.sessions.keys(`${t.keyPrefix}:*sess:*`)) {
          if (key === `${t.keyPrefix}:user-sess:${userID}`) found.push('redis user-sess');
          else if (key.startsWith(`${t.keyPrefix}:sess:`)) {
            const value = await t.redis.sessions.get(key);
            if (value && (JSON.parse(value) as { userID?: number }).userID === userID) found.push('redis sess');
          }
        }
      }
      return found;
    }

    /** A client of the player, with a key it issued to the rival. */
    async function clientWithKey(p: Player): Promise<string> {
      const client = await p.agent
        .post('/api/v1/clients/create')
        .send({ name: 'Hook', redirectUri: 'https://hook.example.com/cb', permissions: ['submit_score'] });
      expect(client.status).toBe(200);
      const code = await rival.agent.post('/api/v1/oauth/create-code').send({});
      const token = await t.http().post('/api/v1/oauth/token').send({
        client_id: client.body.clientID,
        client_secret: client.body.clientSecret,
        redirect_uri: 'https://hook.example.com/cb',
        grant_type: 'authorization_code',
        code: code.body.code,
      });
      expect(token.status).toBe(200);
      return client.body.clientID as string;
    }

    it('deletes the account and everything of it with a session and the right password, fixing the ranks', async () => {
      const p = await playerWithScores();
      const before = await standing(rival);
      const clientID = await clientWithKey(p);
      const held = await remainsOf(p.user.id);
      expect(held).not.toEqual([]);
      if (t.redis) expect(held).toEqual(expect.arrayContaining(['redis sess', 'redis user-sess']));
      const res = await p.agent.delete(`/api/v1/users/${p.user.id}`).send({ '!password': p.password });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
      expect(await remainsOf(p.user.id)).toEqual([]);
      expect(await storedApiClient(t, clientID)).toBeUndefined();
      expect(await countRows(t, 'apiKeys', { fromAPIClient: clientID })).toBe(0);
      expect(await standing(rival)).toEqual(lessOne(before));
      expect(await storedGameStats(t, rival.user.id, 'sdvx', 'Single')).toBeDefined();
      // The session went with the account.
      expect((await p.agent.get('/api/v1/users/me')).status).not.toBe(200);
      expect((await t.http().get(`/api/v1/users/${p.user.id}`)).status).toBe(404);
    });

    it('refuses a wrong password (401), a token (403), another user (403), a missing password (400) and an unknown user (404)', async () => {
      const p = await playerWithScores();
      const other = await player(t);
      const route = `/api/v1/users/${p.user.id}`;
      expect((await p.agent.delete(route).send({ '!password': 'wrong-password' })).status).toBe(401);
      expect((await t.http().delete(route).set(bearer(p.token)).send({ '!password': p.password })).status).toBe(403);
      expect((await other.agent.delete(route).send({ '!password': other.password })).status).toBe(403);
      expect((await p.agent.delete(route).send({})).status).toBe(400);
      expect((await p.agent.delete('/api/v1/users/999999').send({ '!password': p.password })).status).toBe(404);
      expect(await countRows(t, 'users', { id: p.user.id })).toBe(1);
      expect(await countRows(t, 'profiles', { userID: p.user.id })).toBe(2);
    });

    it('lets an admin delete any user the same way, audited; 404 for an unknown user, 400 for themselves', async () => {
      const admin = await player(t);
      await makeAdmin(t, admin.user.id);
      const p = await playerWithScores();
      await clientWithKey(p);
      const before = await standing(rival);
      const res = await admin.agent.post('/api/v1/admin/delete-user').send({ userID: p.user.id });
      expect(res.status).toBe(200);
      expect(await remainsOf(p.user.id)).toEqual([]);
      expect(await standing(rival)).toEqual(lessOne(before));
      const audit = ((await admin.agent.get('/api/v1/admin/audit')).body as { action: string }[]).filter((e) => e.action === 'delete-user');
      expect(audit).toEqual([expect.objectContaining({ userID: admin.user.id, params: { userID: p.user.id } })]);
      expect((await admin.agent.post('/api/v1/admin/delete-user').send({ userID: p.user.id })).status).toBe(404);
      expect((await admin.agent.post('/api/v1/admin/delete-user').send({ userID: admin.user.id })).status).toBe(400);
      expect((await rival.agent.post('/api/v1/admin/delete-user').send({ userID: admin.user.id })).status).toBe(403);
    });
  });
});

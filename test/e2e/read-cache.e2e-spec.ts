import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ReadCache } from '../../src/http/read-cache/read-cache.service.js';
import { refreshDirtyCharts } from '../../src/scoring/pbs/rank-refresher.js';
import { rerankAll } from '../../src/scoring/pbs/rerank.js';
import { SeedLoader } from '../../src/seeds/seed-loader.js';
import { SeedSource } from '../../src/seeds/seed-source.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { makeAdmin } from '../support/db-fixtures.js';
import { fixtureChartID, importSdvx, loadScoreFixtures, SCORE_FIXTURES, sdvxScore } from '../support/score-fixtures.js';
import { bearer, issueToken, signUp, type SignedUpUser } from '../support/users.js';

/**
 * The differential proof of the read cache: one app with the cache (t) and one without it (off)
 * on the same database. After every kind of write, each cached route answers through t exactly
 * what off answers (status, body bytes, ETag), twice in a row (the second from the cache when it
 * kept the first), including other players' ranks on shared charts, ties and page boundaries.
 */
describe('read cache: every write path leaves cached answers equal to uncached ones', () => {
  let t: TestApp;
  let off: TestApp;
  let cache: ReadCache;
  let admin: SignedUpUser;
  const players: { u: SignedUpUser; token: string }[] = [];
  const T0 = Date.UTC(2025, 0, 1);
  const API = '/api/v1';
  const GPT = `${API}/games/sdvx/Single`;
  const shared = fixtureChartID(1, 'EXH');
  const tied = fixtureChartID(2, 'MXM');
  const seedDir = fs.mkdtempSync(path.join(os.tmpdir(), 'st-read-cache-seeds-'));

  const routes = () => [
    `${GPT}/leaderboard`,
    `${GPT}/leaderboard?limit=2`,
    `${GPT}/charts`,
    `${GPT}/charts?search=fixture`,
    `${GPT}/charts?search=renamed`,
    ...[shared, tied, fixtureChartID(3, 'EXH'), fixtureChartID(4, 'MXM')].flatMap((c) => [`${GPT}/charts/${c}/pbs`, `${GPT}/charts/${c}/pbs?startRanking=2`]),
    ...players.flatMap(({ u }) =>
      ['pbs/best', 'scores/recent', 'leaderboard-adjacent'].flatMap((r) => [
        `${API}/users/${u.user.id}/games/sdvx/Single/${r}`,
        `${API}/users/${u.username}/games/sdvx/Single/${r}`,
      ]),
    ),
  ];

  const answer = async (app: TestApp, url: string, token?: string) => {
    const res = await app
      .http()
      .get(url)
      .set(token ? bearer(token) : {});
    return { url, status: res.status, body: res.text, etag: res.headers.etag as string | undefined };
  };

  /** Every route through both apps, twice through the cached one; returns how many answers came from the cache and how many were 200s. */
  async function expectSameAnswers(): Promise<{ hits: number; ok: number }> {
    const before = cache.stats.hits;
    let ok = 0;
    for (const url of routes()) {
      const expected = await answer(off, url);
      if (expected.status === 200) ok++;
      const got = await answer(t, url);
      expect(got).toEqual(expected);
      expect(await answer(t, url)).toEqual(expected);
    }
    // `me` is the signed-in user, whoever asks.
    for (const { token } of players.slice(0, 2)) {
      const url = `${API}/users/me/games/sdvx/Single/pbs/best`;
      const expected = await answer(off, url, token);
      expect(await answer(t, url, token)).toEqual(expected);
      expect(await answer(t, url, token)).toEqual(expected);
    }
    return { hits: cache.stats.hits - before, ok: ok + 2 };
  }

  const importAs = (i: number, scores: object[], app: TestApp = t) => importSdvx(app.http(), scores, { headers: bearer(players[i].token) });

  beforeAll(async () => {
    // The test runs the rank refresher itself, when it wants the dirty charts re-ranked.
    t = await createTestApp({ RANK_REFRESH_INTERVAL_MS: '0' });
    off = await createTestApp({ READ_CACHE_MB: '0', RANK_REFRESH_INTERVAL_MS: '0' }, { shareDatabaseOf: t });
    cache = t.app.get(ReadCache);
    await loadScoreFixtures(t);
    admin = await signUp(t);
    await makeAdmin(t, admin.user.id);
    for (let i = 0; i < 4; i++) {
      const u = await signUp(t);
      players.push({ u, token: await issueToken(u, ['submit_score', 'delete_score', 'customise_score', 'customise_profile']) });
    }
    // Three players on the shared chart, two of them tied on another (the earlier play ranks first).
    await importAs(0, [
      sdvxScore(1, 'EXH', 9_800_000, 'EXCESSIVE CLEAR', T0),
      sdvxScore(2, 'MXM', 9_500_000, 'CLEAR', T0),
      sdvxScore(3, 'EXH', 9_000_000, 'CLEAR', T0),
    ]);
    await importAs(1, [sdvxScore(1, 'EXH', 9_700_000, 'CLEAR', T0 + 1000), sdvxScore(2, 'MXM', 9_500_000, 'CLEAR', T0 + 2000)]);
    await importAs(2, [sdvxScore(1, 'EXH', 9_600_000, 'CLEAR', T0 + 3000), sdvxScore(4, 'MXM', 9_100_000, 'FAILED', T0 + 3000)]);
  }, 60_000);

  afterAll(async () => {
    await off?.close();
    await t?.close();
    fs.rmSync(seedDir, { recursive: true, force: true });
  });

  it('serves repeated reads from the cache, equal to the uncached answers', async () => {
    expect(cache.enabled).toBe(true);
    const first = cache.stats.stored;
    await expectSameAnswers();
    expect(cache.stats.stored).toBeGreaterThan(first);
    // Nothing changed since: every 200 of the second pass comes from the cache (errors are not kept).
    const { hits, ok } = await expectSameAnswers();
    expect(ok).toBeGreaterThan(30);
    expect(hits).toBe(ok * 2);
  });

  it('answers If-None-Match with a 304 from the cache, and a changed answer with 200', async () => {
    const url = `${API}/users/${players[0].u.user.id}/games/sdvx/Single/pbs/best`;
    const { etag } = await answer(t, url);
    const before = { ...cache.stats };
    const res = await t.http().get(url).set('If-None-Match', etag!);
    expect(res.status).toBe(304);
    expect(res.text).toBe('');
    expect(cache.stats.notModified).toBe(before.notModified + 1);
    expect(cache.stats.misses).toBe(before.misses);

    await importAs(0, [sdvxScore(5, 'EXH', 9_900_000, 'CLEAR', T0 + 10_000)]);
    const changed = await t.http().get(url).set('If-None-Match', etag!);
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('an import that outranks others changes their pbs/best, chart pages and leaderboard (other players’ ranks)', async () => {
    await expectSameAnswers();
    await importAs(3, [sdvxScore(1, 'EXH', 9_950_000, 'ULTIMATE CHAIN', T0 + 20_000), sdvxScore(2, 'MXM', 9_500_000, 'CLEAR', T0 - 1000)]);
    await expectSameAnswers();
    // The refresher re-ranks the dirty charts: nothing a reader sees moves, and no cached answer is dropped.
    expect(await refreshDirtyCharts(t.database)).toBeGreaterThan(0);
    const { hits, ok } = await expectSameAnswers();
    expect(hits).toBe(ok * 2);
  });

  it('an import through another process is seen once its changes arrive', async () => {
    await expectSameAnswers();
    await importAs(2, [sdvxScore(1, 'EXH', 9_990_000, 'ULTIMATE CHAIN', T0 + 30_000)], off);
    // A server delivers the other process's notification a moment after its commit: wait for it here.
    await cache.barrier();
    await expectSameAnswers();
  });

  it('score highlight and deletion', async () => {
    const recent = (await answer(t, `${API}/users/${players[1].u.user.id}/games/sdvx/Single/scores/recent`)).body;
    const scoreIDs = (JSON.parse(recent) as { scores: { scoreID: string }[] }).scores.map((s) => s.scoreID);
    await expectSameAnswers();
    expect((await t.http().patch(`${API}/scores/${scoreIDs[0]}`).set(bearer(players[1].token)).send({ highlight: true })).status).toBe(200);
    await expectSameAnswers();
    expect((await t.http().delete(`${API}/scores/${scoreIDs[1]}`).set(bearer(players[1].token))).status).toBe(200);
    await expectSameAnswers();
  });

  it('import revert', async () => {
    const doc = await importAs(1, [sdvxScore(1, 'EXH', 9_999_000, 'ULTIMATE CHAIN', T0 + 40_000)]);
    await expectSameAnswers();
    expect((await players[1].u.agent.post(`${API}/imports/${doc.importID}/revert`)).status).toBe(200);
    await expectSameAnswers();
  });

  it('settings, showcase and profile changes', async () => {
    await expectSameAnswers();
    const ugpt = `${API}/users/${players[0].u.user.id}/games/sdvx/Single`;
    expect((await players[0].u.agent.patch(`${ugpt}/settings`).send({ preferredScoreAlg: 'VF6', preferredProfileAlg: 'VF6' })).status).toBe(200);
    await expectSameAnswers();
    expect((await players[0].u.agent.patch(`${ugpt}/showcase`).send([{ mode: 'chart', chartID: shared, property: 'score' }])).status).toBe(200);
    await expectSameAnswers();
    expect((await players[2].u.agent.patch(`${API}/users/${players[2].u.user.id}`).send({ status: 'changed', about: 'new about' })).status).toBe(200);
    await expectSameAnswers();
  });

  it('a seed load that renames a song, and a rerank', async () => {
    await expectSameAnswers();
    for (const file of fs.readdirSync(SCORE_FIXTURES)) fs.copyFileSync(path.join(SCORE_FIXTURES, file), path.join(seedDir, file));
    const songsFile = path.join(seedDir, 'songs-sdvx.json');
    const songs = JSON.parse(fs.readFileSync(songsFile, 'utf8')) as { id: number; title: string }[];
    songs[0].title = 'Renamed Alpha';
    fs.writeFileSync(songsFile, JSON.stringify(songs));
    const report = await new SeedLoader(t.database).load(new SeedSource(seedDir), { games: ['sdvx'] });
    expect(report.rejected).toEqual([]);
    expect((await answer(off, `${GPT}/charts?search=renamed`)).body).toContain('Renamed Alpha');
    await expectSameAnswers();
    await rerankAll(t.database, ['sdvx']);
    await expectSameAnswers();
  });

  it('admin operations: resync, recalc, delete a score, destroy a UGPT, delete a user', async () => {
    const post = (route: string, body: object) => admin.agent.post(`${API}/admin/${route}`).send(body);
    await expectSameAnswers();
    expect((await post('resync-pbs', { userIDs: [players[0].u.user.id] })).status).toBe(200);
    await expectSameAnswers();
    expect((await post('recalc', { userID: players[1].u.user.id })).status).toBe(200);
    await expectSameAnswers();
    const recent = JSON.parse((await answer(t, `${API}/users/${players[0].u.user.id}/games/sdvx/Single/scores/recent`)).body) as {
      scores: { scoreID: string }[];
    };
    expect((await post('delete-score', { scoreID: recent.scores[0].scoreID })).status).toBe(200);
    await expectSameAnswers();
    expect((await post('destroy-ugpt', { userID: players[3].u.user.id, game: 'sdvx', playtype: 'Single' })).status).toBe(200);
    await expectSameAnswers();
    expect((await post('delete-user', { userID: players[2].u.user.id })).status).toBe(200);
    await expectSameAnswers();
  });

  it("a player's own deletion of their UGPT and of their account", async () => {
    await importAs(3, [sdvxScore(1, 'EXH', 9_400_000, 'CLEAR', T0 + 50_000)]);
    await expectSameAnswers();
    const { u } = players[3];
    expect((await u.agent.delete(`${API}/users/${u.user.id}/games/sdvx/Single`).send({ '!password': u.password })).status).toBe(200);
    await expectSameAnswers();
    const { u: v } = players[1];
    expect((await v.agent.delete(`${API}/users/${v.user.id}`).send({ '!password': v.password })).status).toBe(200);
    await expectSameAnswers();
  });
});

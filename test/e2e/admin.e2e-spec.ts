import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PinoLogger } from 'nestjs-pino';
import { sql } from 'drizzle-orm';
import { Database, embeddedDbDir, queryRows } from '../../src/database/database.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { buildIfNeeded, runCli } from '../support/cli.js';
import { ban, makeAdmin, overwriteComputed, overwritePb, removePb, storeGoals, storeGoalSubs, storeUser } from '../support/db-fixtures.js';
import { quickPlayer, type QuickPlayer } from '../support/leaderboard-fixtures.js';
import { fixtureChartID, importSdvx, loadScoreFixtures, sdvxScore } from '../support/score-fixtures.js';
import { countRows, storedGameStats, storedGoalSub, storedPb, storedScores, storedSessions } from '../support/stored.js';
import { bearer, issueToken, signUp, type SignedUpUser } from '../support/users.js';
import { migratedDataDir } from '../support/template-db.js';

const T0 = Date.UTC(2024, 6, 1, 18);
const PUC = 'PERFECT ULTIMATE CHAIN';
// VF6: 1-MXM (18) PUC at 10,000,000 → 0.415; 2-MXM (17) PUC → 0.392.
const ROUTES: [string, object][] = [
  ['change-log-level', { logLevel: 'info', noReset: true }],
  ['delete-score', { scoreID: 'nope' }],
  ['resync-pbs', {}],
  ['destroy-ugpt', { userID: 1, game: 'sdvx', playtype: 'Single' }],
  ['destroy-chart', { chartID: 'nope', game: 'sdvx' }],
  ['delete-user', { userID: 999999 }],
  ['recalc', { userID: 999999 }],
  ['announcement', { title: 'Maintenance tonight' }],
  ['reprocess-all-goals', {}],
];

describe('admin routes (spec 4.14)', () => {
  let t: TestApp;
  let admin: SignedUpUser;
  let adminToken: string;
  let user: SignedUpUser;
  let userToken: string;
  let banned: SignedUpUser;
  let bannedToken: string;
  const chart1 = fixtureChartID(1, 'MXM');
  const chart2 = fixtureChartID(2, 'MXM');

  const post = (route: string, body: object) => admin.agent.post(`/api/v1/admin/${route}`).send(body);
  const player = (name: string) => quickPlayer(t, name, ['submit_score']);
  const importAs = (p: QuickPlayer, list: object[]) => importSdvx(t.http(), list, { headers: bearer(p.token) });
  const scoresOf = (userID: number) => storedScores(t, userID);
  const statsOf = (userID: number) => storedGameStats(t, userID, 'sdvx', 'Single');

  beforeAll(async () => {
    t = await createTestApp();
    await loadScoreFixtures(t);
    admin = await signUp(t);
    await makeAdmin(t, admin.user.id);
    adminToken = await issueToken(admin, []);
    user = await signUp(t);
    userToken = await issueToken(user, ['submit_score', 'delete_score']);
    banned = await signUp(t);
    bannedToken = await issueToken(banned, []);
    await ban(t, banned.user.id);
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('who may call them', () => {
    it.each([...ROUTES, ['audit', {}] as [string, object]])('%s: guest 401, user 403, token without admin 403, banned 403', async (route, body) => {
      const call = (agent: ReturnType<TestApp['agent']> | ReturnType<TestApp['http']>) =>
        route === 'audit' ? agent.get('/api/v1/admin/audit') : agent.post(`/api/v1/admin/${route}`).send(body);
      expect((await call(t.http())).status).toBe(401);
      expect((await call(user.agent)).status).toBe(403);
      expect((await call(t.http()).set(bearer(userToken))).status).toBe(403);
      expect((await call(banned.agent)).status).toBe(403);
      const bannedByToken = await call(t.http()).set(bearer(bannedToken));
      expect(bannedByToken.status).toBe(403);
      expect(bannedByToken.body.message).toMatch(/banned/);
    });

    it("an administrator's token is admitted, whatever its permissions", async () => {
      const res = await t.http().post('/api/v1/admin/recalc').set(bearer(adminToken)).send({ userID: 999999 });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ scoresRecalced: 0 });
    });
  });

  describe('change-log-level', () => {
    it('maps the spec names onto pino levels, now', async () => {
      const res = await post('change-log-level', { logLevel: 'debug', duration: 5 });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
      expect(PinoLogger.root.level).toBe('trace');
      expect((await post('change-log-level', { logLevel: 'crit', noReset: true })).status).toBe(200);
      expect(PinoLogger.root.level).toBe('fatal');
      expect((await post('change-log-level', { logLevel: 'verbose', noReset: true })).status).toBe(200);
      expect(PinoLogger.root.level).toBe('debug');
    });

    it('refuses an unknown level, a bad duration and unknown keys with 400', async () => {
      expect((await post('change-log-level', { logLevel: 'loud' })).status).toBe(400);
      expect((await post('change-log-level', { logLevel: 'info', duration: -1 })).status).toBe(400);
      expect((await post('change-log-level', { logLevel: 'info', extra: 1 })).status).toBe(400);
    });
  });

  describe('delete-score', () => {
    it("deletes anyone's score as the owner's delete does; a second time is 404", async () => {
      const p = await player('adm_del');
      const doc = await importAs(p, [sdvxScore(1, 'MXM', 10_000_000, PUC, T0)]);
      expect(await storedPb(t, p.id, chart1)).toBeDefined();
      const res = await post('delete-score', { scoreID: doc.scoreIDs[0] });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
      expect(await scoresOf(p.id)).toEqual([]);
      expect(await storedPb(t, p.id, chart1)).toBeUndefined();
      expect(await statsOf(p.id)).toBeUndefined();
      expect((await post('delete-score', { scoreID: doc.scoreIDs[0] })).status).toBe(404);
    });
  });

  describe('resync-pbs', () => {
    it("rebuilds a user's PBs and ranks from their scores", async () => {
      const p = await player('adm_resync');
      await importAs(p, [sdvxScore(1, 'MXM', 10_000_000, PUC, T0), sdvxScore(2, 'MXM', 10_000_000, PUC, T0 + 60_000)]);
      await removePb(t, p.id, chart1);
      await overwritePb(t, p.id, chart2, { score: 1, calculatedData: { VF6: 0 } });
      const res = await post('resync-pbs', { userIDs: [p.id], filters: { game: 'sdvx', playtype: 'Single' } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
      expect(await storedPb(t, p.id, chart1)).toMatchObject({
        scoreData: { score: 10_000_000 },
        calculatedData: { VF6: 0.415 },
        rankingData: { rank: expect.any(Number) },
      });
      expect(await storedPb(t, p.id, chart2)).toMatchObject({ scoreData: { score: 10_000_000 }, calculatedData: { VF6: 0.392 } });
    });

    it('takes only whitelisted filter keys: anything else is a 400', async () => {
      expect((await post('resync-pbs', { filters: { 'scoreData.score': { $gt: 0 } } })).status).toBe(400);
      expect((await post('resync-pbs', { filters: { userID: { $ne: null } } })).status).toBe(400);
      expect((await post('resync-pbs', { filters: { game: 'nope' } })).status).toBe(400);
      expect((await post('resync-pbs', { filters: { game: 'sdvx', playtype: 'DP' } })).status).toBe(400);
      expect((await post('resync-pbs', { userIDs: ['1'] })).status).toBe(400);
      expect((await post('resync-pbs', { other: 1 })).status).toBe(400);
    });
  });

  describe('recalc', () => {
    it('restores altered calculatedData of scores, PBs and the profile, and is safe to re-run', async () => {
      const p = await player('adm_recalc');
      await importAs(p, [sdvxScore(1, 'MXM', 10_000_000, PUC, T0), sdvxScore(2, 'MXM', 10_000_000, PUC, T0 + 60_000)]);
      const before = await statsOf(p.id);
      const [session] = await storedSessions(t, p.id);
      await overwriteComputed(t, p.id, { scores: { VF6: 9 }, pbs: { VF6: 9 }, sessions: {}, profileRatings: { VF6: 99 } });

      const res = await post('recalc', { userID: p.id, game: 'sdvx' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ scoresRecalced: 2 });
      const stored = await scoresOf(p.id);
      expect(stored.map((s) => s.calculatedData.VF6).sort()).toEqual([0.392, 0.415]);
      expect(await storedPb(t, p.id, chart1)).toMatchObject({ calculatedData: { VF6: 0.415 } });
      expect((await statsOf(p.id))?.ratings).toEqual(before?.ratings);
      const [after] = await storedSessions(t, p.id);
      expect(after.calculatedData).toEqual(session.calculatedData);

      const again = await post('recalc', { userID: p.id });
      expect(again.body).toEqual({ scoresRecalced: 2 });
      expect(await storedPb(t, p.id, chart1)).toMatchObject({ calculatedData: { VF6: 0.415 } });
    });

    it('rewrites only the PBs that come out changed: the others keep their row version', async () => {
      const p = await player('adm_recalc_keep');
      await importAs(p, [sdvxScore(1, 'MXM', 10_000_000, PUC, T0), sdvxScore(2, 'MXM', 10_000_000, PUC, T0 + 60_000)]);
      // xmin: the transaction that wrote the row's current version.
      const versions = async () =>
        new Map(
          (
            await queryRows<{ chart_id: string; v: string }>(t.database.db, sql`SELECT chart_id, xmin::text AS v FROM personal_bests WHERE user_id = ${p.id}`)
          ).map((r) => [r.chart_id, r.v]),
        );
      const imported = await versions();
      expect(imported.size).toBe(2);
      expect((await post('recalc', { userID: p.id })).body).toEqual({ scoresRecalced: 2 });
      expect(await versions()).toEqual(imported);

      await overwritePb(t, p.id, chart1, { score: 9_000_000 });
      const spoiled = await versions();
      expect((await post('recalc', { userID: p.id })).body).toEqual({ scoresRecalced: 2 });
      const repaired = await versions();
      expect(repaired.get(chart2)).toBe(spoiled.get(chart2));
      expect(repaired.get(chart1)).not.toBe(spoiled.get(chart1));
      expect(await storedPb(t, p.id, chart1)).toMatchObject({ scoreData: expect.objectContaining({ score: 10_000_000 }) });
    });

    it('re-ranks a chart where a recomputed PB moved, and keeps the ranks where none did', async () => {
      const a = await player('adm_recalc_ra');
      const b = await player('adm_recalc_rb');
      await importAs(a, [sdvxScore(6, 'MXM', 9_800_000, 'EXCESSIVE CLEAR', T0)]);
      await importAs(b, [sdvxScore(6, 'MXM', 9_900_000, 'EXCESSIVE CLEAR', T0), sdvxScore(7, 'MXM', 9_000_000, 'CLEAR', T0 + 60_000)]);
      const chartA = fixtureChartID(6, 'MXM');
      const chartB = fixtureChartID(7, 'MXM');
      expect(await storedPb(t, b.id, chartA)).toMatchObject({ rankingData: { rank: 1 } });
      expect(await storedPb(t, a.id, chartA)).toMatchObject({ rankingData: { rank: 2 } });
      // b's stored PB on chart A went wrong (below a's, ranked 2nd); a stays ranked 2nd.
      await overwritePb(t, b.id, chartA, { score: 9_700_000, rank: 2 });
      const rankOf4 = (await storedPb(t, b.id, chartB))?.rankingData.rank;

      expect((await post('recalc', { userID: b.id })).body).toEqual({ scoresRecalced: 2 });
      expect(await storedPb(t, b.id, chartA)).toMatchObject({ scoreData: expect.objectContaining({ score: 9_900_000 }), rankingData: { rank: 1, outOf: 2 } });
      expect(await storedPb(t, a.id, chartA)).toMatchObject({ rankingData: { rank: 2, outOf: 2 } });
      expect((await storedPb(t, b.id, chartB))?.rankingData.rank).toBe(rankOf4);
    });

    it('filters by timeAdded and import type', async () => {
      const p = await player('adm_recalc_f');
      await importAs(p, [sdvxScore(1, 'MXM', 10_000_000, PUC, T0)]);
      expect((await post('recalc', { userID: p.id, timeAddedTo: 1 })).body).toEqual({ scoresRecalced: 0 });
      expect((await post('recalc', { userID: p.id, importType: 'ir/direct-manual' })).body).toEqual({ scoresRecalced: 1 });
    });

    it('takes only whitelisted keys: anything else is a 400', async () => {
      expect((await post('recalc', { 'scoreData.score': 1 })).status).toBe(400);
      expect((await post('recalc', { userID: { $gt: 0 } })).status).toBe(400);
      expect((await post('recalc', { $where: 'true' })).status).toBe(400);
      expect((await post('recalc', { game: 'nope' })).status).toBe(400);
    });
  });

  describe('announcement', () => {
    it('sends a SITE_ANNOUNCEMENT to every user, audited; a blank, long or missing title or an unknown key is a 400', async () => {
      const res = await post('announcement', { title: '  Maintenance at midnight  ' });
      expect(res.status).toBe(200);
      expect(res.body.sent).toBeGreaterThanOrEqual(3);
      const notes = (await user.agent.get(`/api/v1/users/${user.user.id}/notifications`).expect(200)).body as { title: string; body: { type: string } }[];
      expect(notes[0]).toMatchObject({ title: 'Maintenance at midnight', body: { type: 'SITE_ANNOUNCEMENT' } });
      for (const body of [{ title: '   ' }, { title: 'x'.repeat(501) }, {}, { title: 'ok', game: 'sdvx' }, { title: 5 }])
        expect((await post('announcement', body)).status).toBe(400);
      const audit = (await admin.agent.get('/api/v1/admin/audit?limit=1').expect(200)).body as { action: string; params: object }[];
      expect(audit[0]).toMatchObject({ action: 'announcement', params: { title: 'Maintenance at midnight', sent: res.body.sent } });
    });
  });

  describe('reprocess-all-goals', () => {
    it("re-evaluates every user's goal subscriptions from their PBs, audited; a second run moves nothing", async () => {
      const p = await player('goals-out-of-step');
      await importAs(p, [sdvxScore(1, 'MXM', 9_500_000, 'CLEAR', T0)]);
      const goal = (goalID: string, value: number) =>
        ({
          goalID,
          game: 'sdvx',
          playtype: 'Single',
          name: goalID,
          charts: { type: 'single', data: chart1 },
          criteria: { key: 'score', value, mode: 'single' },
        }) as never;
      await storeGoals(t, [goal('G-admin-met', 9_000_000), goal('G-admin-unmet', 9_900_000)]);
      // Stored behind the app's back, out of step with the PB: neither shows the 9,500,000.
      const sub = (goalID: string) => ({
        userID: p.id,
        goalID,
        game: 'sdvx',
        playtype: 'Single',
        achieved: false,
        timeAchieved: null,
        lastInteraction: null,
        progress: 0,
        progressHuman: '0',
        outOf: 1,
        outOfHuman: '1',
        wasInstantlyAchieved: false,
        wasAssignedStandalone: true,
      });
      await storeGoalSubs(t, [sub('G-admin-met'), sub('G-admin-unmet')]);
      expect(await storedGoalSub(t, p.id, 'G-admin-met')).toMatchObject({ achieved: false, progress: 0 });

      const res = await post('reprocess-all-goals', {});
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ profiles: expect.any(Number), moved: 2 });
      expect(await storedGoalSub(t, p.id, 'G-admin-met')).toMatchObject({ achieved: true, progress: 9_500_000, outOf: 9_000_000 });
      expect(await storedGoalSub(t, p.id, 'G-admin-unmet')).toMatchObject({ achieved: false, progress: 9_500_000, outOf: 9_900_000 });
      expect((await post('reprocess-all-goals', {})).body).toMatchObject({ moved: 0 });
      const audit = (await admin.agent.get('/api/v1/admin/audit?limit=1').expect(200)).body as { action: string; params: object }[];
      expect(audit[0]).toMatchObject({ action: 'reprocess-all-goals', params: { moved: 0 } });
    });
  });

  describe('destroy-ugpt', () => {
    it("removes the profile, scores, PBs and sessions, and fixes the others' ranks", async () => {
      const gone = await player('adm_ugpt_a');
      const stays = await player('adm_ugpt_b');
      // Chart 4-MXM is played by these two only.
      const chart4 = fixtureChartID(4, 'MXM');
      await importAs(gone, [sdvxScore(4, 'MXM', 10_000_000, PUC, T0), sdvxScore(2, 'MXM', 9_000_000, 'CLEAR', T0 + 60_000)]);
      await importAs(stays, [sdvxScore(4, 'MXM', 9_000_000, 'CLEAR', T0)]);
      expect(await storedPb(t, stays.id, chart4)).toMatchObject({ rankingData: { rank: 2, outOf: 2 } });

      const res = await post('destroy-ugpt', { userID: gone.id, game: 'sdvx', playtype: 'Single' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
      expect(await scoresOf(gone.id)).toEqual([]);
      expect(await countRows(t, 'pbs', { userID: gone.id })).toBe(0);
      expect(await countRows(t, 'sessions', { userID: gone.id })).toBe(0);
      expect(await statsOf(gone.id)).toBeUndefined();
      expect(await storedPb(t, stays.id, chart4)).toMatchObject({ rankingData: { rank: 1, outOf: 1 } });

      expect((await post('destroy-ugpt', { userID: gone.id, game: 'sdvx', playtype: 'Single' })).status).toBe(404);
      expect((await post('destroy-ugpt', { userID: 999999, game: 'sdvx', playtype: 'Single' })).status).toBe(404);
      expect((await post('destroy-ugpt', { userID: gone.id, game: 'sdvx', playtype: 'DP' })).status).toBe(400);
    });
  });

  describe('destroy-chart', () => {
    it('removes the chart, its scores and PBs, and recomputes the players concerned', async () => {
      const p = await player('adm_chart');
      await importAs(p, [sdvxScore(3, 'MXM', 10_000_000, PUC, T0), sdvxScore(2, 'MXM', 10_000_000, PUC, T0 + 60_000)]);
      const chart3 = fixtureChartID(3, 'MXM');
      const ratingBefore = (await statsOf(p.id))?.ratings.VF6;

      expect((await post('destroy-chart', { chartID: chart3, game: 'iidx' })).status).toBe(404);
      const res = await post('destroy-chart', { chartID: chart3, game: 'sdvx' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
      expect(await countRows(t, 'charts', { chartID: chart3 })).toBe(0);
      expect((await scoresOf(p.id)).map((s) => s.chartID)).toEqual([chart2]);
      expect(await storedPb(t, p.id, chart3)).toBeUndefined();
      expect((await statsOf(p.id))?.ratings.VF6).toBeLessThan(ratingBefore as number);
      expect((await t.http().get(`/api/v1/games/sdvx/Single/charts/${chart3}`)).status).toBe(404);
      expect((await post('destroy-chart', { chartID: chart3, game: 'sdvx' })).status).toBe(404);
    });
  });

  describe('the audit log', () => {
    it('records every admin action, newest first, in pages', async () => {
      const res = await admin.agent.get('/api/v1/admin/audit');
      expect(res.status).toBe(200);
      const actions = (res.body as { action: string }[]).map((e) => e.action);
      for (const action of ['change-log-level', 'delete-score', 'resync-pbs', 'recalc', 'destroy-ugpt', 'destroy-chart']) expect(actions).toContain(action);
      expect(res.body[0]).toMatchObject({ action: 'destroy-chart', userID: admin.user.id, via: 'session', params: { game: 'sdvx' } });
      const viaToken = (res.body as { via: string; action: string }[]).find((e) => e.via === 'token');
      expect(viaToken).toMatchObject({ action: 'recalc' });

      const page = await t.http().get('/api/v1/admin/audit?limit=2').set(bearer(adminToken));
      expect(page.body).toHaveLength(2);
      const next = await t.http().get(`/api/v1/admin/audit?limit=2&before=${page.body[1].id}`).set(bearer(adminToken));
      expect(next.body[0].id).toBeLessThan(page.body[1].id);
      expect((await admin.agent.get('/api/v1/admin/audit?limit=0')).status).toBe(400);
    });
  });
});

describe('the admin CLI commands', () => {
  let dataDir: string;

  beforeAll(async () => {
    buildIfNeeded();
    dataDir = await migratedDataDir('st-admin-cli-');
  }, 300_000);
  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('recalc reports its count and is audited; a bad filter is refused', async () => {
    const run = await runCli(['recalc', '--game', 'sdvx', '--playtype', 'Single'], { dataDir });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Recalculated 0 score(s).');

    const bad = await runCli(['recalc', '--game', 'nope'], { dataDir });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('Unknown game nope.');

    const audit = await runCli(['audit', '--limit', '5'], { dataDir });
    expect(audit.code).toBe(0);
    const lines = audit.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/\trecalc\tcli\t\{"filter":\{"game":"sdvx","playtype":"Single"\},"scoresRecalced":0\}$/);
  }, 120_000);

  it('delete-user asks for --yes, then deletes the user and is audited; an unknown user is refused', async () => {
    const database = await Database.open({ dataDir: embeddedDbDir(dataDir) });
    try {
      await database.migrate();
      await storeUser(database, 'Leaving', { joinDate: Date.now(), lastSeen: Date.now() });
    } finally {
      await database.close();
    }
    const unconfirmed = await runCli(['delete-user', 'leaving'], { dataDir });
    expect(unconfirmed.code).toBe(1);
    expect(unconfirmed.stderr).toMatch(/deletes Leaving \(id \d+\).*--yes/);

    const run = await runCli(['delete-user', 'LEAVING', '--yes'], { dataDir });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Deleted Leaving \(id \d+\)/);
    const id = Number(/id (\d+)/.exec(run.stdout)?.[1]);

    const again = await runCli(['delete-user', 'leaving', '--yes'], { dataDir });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('No user is named leaving.');

    const audit = await runCli(['audit', '--limit', '1'], { dataDir });
    expect(audit.stdout.trim()).toMatch(new RegExp(`\\tdelete-user\\tcli\\t\\{"userID":${id}\\}$`));
    const check = await Database.open({ dataDir: embeddedDbDir(dataDir) });
    try {
      expect(await countRows(check, 'users', { id })).toBe(0);
    } finally {
      await check.close();
    }
  }, 120_000);
});

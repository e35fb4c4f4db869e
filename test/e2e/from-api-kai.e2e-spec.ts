import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { createTestApp, type TestApp } from '../support/app.js';
import { kaiEnv, kaiIidxPlays, startFakeKaiServer, type FakeKaiServer } from '../support/fake-kai-server.js';
import { loadFixtureCatalog, player, type Player } from '../support/imports.js';
import { bearer } from '../support/users.js';

const CATALOG = path.resolve('test/fixtures/imports/fervidex/catalog');

/** IIDX plays on the fixture catalog's 28001 ANOTHER (version 28), later with each call. */
const iidxPlay = kaiIidxPlays();

describe('POST /import/from-api and the KAI links (FLO against a local fake)', () => {
  let t: TestApp;
  let fake: FakeKaiServer;

  beforeAll(async () => {
    fake = await startFakeKaiServer({ pageSize: 2 });
    t = await createTestApp({ ...kaiEnv('FLO', fake), FROM_API_REQUEST_TIMEOUT_MS: '2000' });
    await loadFixtureCatalog(t.database, CATALOG);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });
  beforeEach(() => {
    for (const key of Object.keys(fake.switches)) delete fake.switches[key as keyof typeof fake.switches];
  });

  const link = (p: Player, code = fake.issueCode()) => p.agent.post(`/api/v1/users/${p.user.id}/integrations/kai/flo/oauth2callback`).send({ code });
  const sync = (p: Player, importType = 'api/flo-iidx') => t.http().post('/api/v1/import/from-api').set(bearer(p.token)).send({ importType });
  const scoreCount = async (p: Player) => {
    const res = await t.http().get(`/api/v1/users/${p.user.id}/games/iidx/SP/scores/recent`);
    return res.status === 200 ? (res.body.body ?? res.body).scores.length : 0;
  };

  describe('links', () => {
    it('links through the OAuth2 callback, says only whether it is linked, and unlinks', async () => {
      const p = await player(t);
      const before = await p.agent.get(`/api/v1/users/${p.user.id}/integrations/kai/flo`);
      expect(before.status).toBe(200);
      expect(before.body).toMatchObject({ service: 'flo', authStatus: false, linkedAt: null });
      const linked = await link(p);
      expect(linked.status).toBe(200);
      expect(linked.body).toMatchObject({ service: 'flo', authStatus: true });
      expect(JSON.stringify(linked.body)).not.toMatch(/access-|refresh-/);
      const after = await p.agent.get(`/api/v1/users/${p.user.id}/integrations/KAI/FLO`.replace('KAI', 'kai'));
      expect(after.body.authStatus).toBe(true);
      expect(JSON.stringify(after.body)).not.toMatch(/access-|refresh-/);
      expect((await p.agent.delete(`/api/v1/users/${p.user.id}/integrations/kai/flo`)).status).toBe(200);
      expect((await p.agent.get(`/api/v1/users/${p.user.id}/integrations/kai/flo`)).body.authStatus).toBe(false);
      const again = await p.agent.delete(`/api/v1/users/${p.user.id}/integrations/kai/flo`);
      expect(again.status).toBe(409);
      expect(JSON.stringify(again.body)).toMatch(/not linked FLO/);
    });

    it('refuses a used code (400), an unknown KAI type (400), an unconfigured service (404), and an empty code (400)', async () => {
      const p = await player(t);
      const code = fake.issueCode();
      expect((await link(p, code)).status).toBe(200);
      const reused = await link(p, code);
      expect(reused.status).toBe(400);
      expect(JSON.stringify(reused.body)).toMatch(/refused this authorization code/);
      expect((await p.agent.get(`/api/v1/users/${p.user.id}/integrations/kai/arc`)).status).toBe(400);
      const eag = await p.agent.get(`/api/v1/users/${p.user.id}/integrations/kai/eag`);
      expect(eag.status).toBe(404);
      expect(JSON.stringify(eag.body)).toMatch(/EAG is not available/);
      expect((await p.agent.post(`/api/v1/users/${p.user.id}/integrations/kai/flo/oauth2callback`).send({})).status).toBe(400);
    });

    it('answers 502 when the network fails the code exchange or answers something other than JSON', async () => {
      const p = await player(t);
      fake.switches.token500 = true;
      const down = await link(p);
      expect(down.status).toBe(502);
      fake.switches.token500 = false;
      fake.switches.tokenNonJson = true;
      const html = await link(p);
      expect(html.status).toBe(502);
      expect(JSON.stringify(html.body)).toMatch(/other than JSON/);
      expect((await p.agent.get(`/api/v1/users/${p.user.id}/integrations/kai/flo`)).body.authStatus).toBe(false);
    });

    it("is the user's own only, and an API key needs customise_profile", async () => {
      const p = await player(t);
      const other = await player(t);
      expect((await other.agent.get(`/api/v1/users/${p.user.id}/integrations/kai/flo`)).status).toBe(403);
      expect((await other.agent.delete(`/api/v1/users/${p.user.id}/integrations/kai/flo`)).status).toBe(403);
      expect((await t.http().get(`/api/v1/users/${p.user.id}/integrations/kai/flo`)).status).toBe(401);
      // p.token has submit_score only.
      expect((await t.http().get(`/api/v1/users/${p.user.id}/integrations/kai/flo`).set(bearer(p.token))).status).toBe(403);
    });

    it('keeps the kshook-sv6c settings (session only, own only)', async () => {
      const p = await player(t);
      const url = `/api/v1/users/${p.user.id}/integrations/kshook-sv6c/settings`;
      expect((await p.agent.get(url)).body).toEqual({ forceStaticImport: false });
      expect((await p.agent.patch(url).send({ forceStaticImport: true })).body).toEqual({ forceStaticImport: true });
      expect((await p.agent.get(url)).body).toEqual({ forceStaticImport: true });
      expect((await p.agent.patch(url).send({ forceStaticImport: 'yes' })).status).toBe(400);
      expect((await (await player(t)).agent.get(url)).status).toBe(403);
    });
  });

  describe('sync', () => {
    it('imports the plays and the dans, then only the new plays, and says why a sync brought none', async () => {
      const p = await player(t);
      expect((await link(p)).status).toBe(200);
      fake.profile.iidx = { sp: 16, dp: null };
      fake.addPlays('iidx', [iidxPlay(), iidxPlay({ difficulty: 'BEGINNER' }), iidxPlay(), iidxPlay({ play_style: 'DOUBLE' })]);
      const first = await sync(p);
      expect(first.status).toBe(200);
      expect(first.body.importType).toBe('api/flo-iidx');
      expect(first.body.scoreIDs).toHaveLength(3);
      expect(first.body.classDeltas).toEqual([expect.objectContaining({ game: 'iidx', playtype: 'SP', set: 'dan', new: 'DAN_10' })]);
      expect(await scoreCount(p)).toBe(2);

      const second = await sync(p);
      expect(second.status).toBe(200);
      expect(second.body.scoreIDs).toEqual([]);
      expect(second.body.emptyReason).toMatch(/No new IIDX plays on FLO since your last sync/);

      fake.addPlays('iidx', [iidxPlay()]);
      const pagesBefore = fake.stats.pages;
      const third = await sync(p);
      expect(third.body.scoreIDs).toHaveLength(1);
      // Stopped at the first known play: one page of two.
      expect(fake.stats.pages - pagesBefore).toBe(1);
    });

    it('says when every play was skipped, and why', async () => {
      const fresh = await startFakeKaiServer();
      const app = await createTestApp(kaiEnv('EAG', fresh));
      try {
        await loadFixtureCatalog(app.database, CATALOG);
        const q = await player(app);
        expect((await q.agent.post(`/api/v1/users/${q.user.id}/integrations/kai/eag/oauth2callback`).send({ code: fresh.issueCode() })).status).toBe(200);
        fresh.addPlays('iidx', [iidxPlay({ difficulty: 'BEGINNER' }), iidxPlay({ difficulty: 'BEGINNER' })]);
        const res = await app.http().post('/api/v1/import/from-api').set(bearer(q.token)).send({ importType: 'api/eag-iidx' });
        expect(res.status).toBe(200);
        expect(res.body.emptyReason).toBe('every item skipped: 2 plays on BEGINNER charts, which are not tracked.');
        // An empty profile says so.
        const sdvx = await app.http().post('/api/v1/import/from-api').set(bearer(q.token)).send({ importType: 'api/eag-sdvx' });
        expect(sdvx.body.emptyReason).toBe('Your EAG SDVX profile has no plays.');
        // FLO is not configured on this app.
        expect((await app.http().post('/api/v1/import/from-api').set(bearer(q.token)).send({ importType: 'api/flo-iidx' })).status).toBe(400);
      } finally {
        await app.close();
        await fresh.close();
      }
    });

    it('refuses an unknown type (400), a missing one (400), an unlinked service (409) and a key without submit_score (403)', async () => {
      const p = await player(t);
      const unknown = await sync(p, 'api/nope');
      expect(unknown.status).toBe(400);
      expect(JSON.stringify(unknown.body)).toMatch(/api\/flo-iidx/);
      expect((await t.http().post('/api/v1/import/from-api').set(bearer(p.token)).send({})).status).toBe(400);
      const unlinked = await sync(p);
      expect(unlinked.status).toBe(409);
      expect(JSON.stringify(unlinked.body)).toMatch(/Link your FLO account first/);
      const noSubmit = await player(t, ['customise_profile']);
      expect((await sync(noSubmit)).status).toBe(403);
    });

    it('re-authenticates once on a 401 and goes on', async () => {
      const p = await player(t);
      await link(p);
      fake.addPlays('iidx', [iidxPlay()]);
      fake.switches.unauthorizedOnPage = 1;
      const res = await sync(p);
      expect(res.status).toBe(200);
      expect(res.body.scoreIDs.length).toBeGreaterThan(0);
    });

    it.each([
      ['crossOriginNext', 502, /another site/],
      ['selfLoop', 508, /never ended/],
      ['missingLinks', 502, /no _links/],
      ['nonJsonPage', 502, /other than JSON/],
      ['alwaysUnauthorized', 502, /refused your refreshed link/],
      ['refresh400', 400, /Unlink FLO and link it again/],
    ] as const)('fails the whole sync with nothing saved when the network plays %s', async (flag, status, message) => {
      const p = await player(t);
      await link(p);
      fake.addPlays('iidx', [iidxPlay(), iidxPlay(), iidxPlay()]);
      fake.switches[flag] = true as never;
      const res = await sync(p);
      expect(res.status).toBe(status);
      expect(JSON.stringify(res.body)).toMatch(message);
      expect(JSON.stringify(res.body)).not.toMatch(/fake-secret|access-|refresh-/);
      expect(await scoreCount(p)).toBe(0);
    });

    it('fails a sync whose request times out (504), saving nothing, and the next sync brings everything', async () => {
      const p = await player(t);
      await link(p);
      fake.addPlays('iidx', [iidxPlay()]);
      fake.switches.pageDelayMs = 3000;
      const slow = await sync(p);
      expect(slow.status).toBe(504);
      expect(await scoreCount(p)).toBe(0);
      fake.switches.pageDelayMs = 0;
      const ok = await sync(p);
      expect(ok.status).toBe(200);
      expect(ok.body.scoreIDs.length).toBeGreaterThan(0);
    });
  });
});

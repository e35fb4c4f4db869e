import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import type { ImportDocument } from '../../src/presenters/import.presenter.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { cgPlays, startFakeCgServer, type FakeCgServer } from '../support/fake-cg-server.js';
import { loadFixtureCatalog, player, type Player } from '../support/imports.js';
import { storedScores } from '../support/stored.js';
import { bearer } from '../support/users.js';

// The whole CG path over HTTP: link a card (PUT /users/:userID/integrations/cg/:cgType), sync
// (POST /import/from-api), against the fake CG.

const chartID = (game: string, inGameID: number, playtype: string, difficulty: string) =>
  createHash('sha1').update(`api-cg-${game}-${inGameID}-${playtype}-${difficulty}`).digest('hex');

const PIN = '4821';

describe('POST /import/from-api with CG (nag configured, dev not)', () => {
  let t: TestApp;
  let cg: FakeCgServer;
  let cards = 0;

  beforeAll(async () => {
    cg = await startFakeCgServer();
    t = await createTestApp({ CG_NAG_URL: cg.url, CG_NAG_API_KEY: cg.apiKey });
    await loadFixtureCatalog(t.database, '../imports/api-cg');
  });
  afterAll(async () => {
    await t?.close();
    await cg?.close();
  });
  afterEach(() => {
    Object.assign(cg.switches, { wrongPin: false, htmlBody: false, malformedItem: false, popnBattle: false, jubeatVersion10: false, status: 0, delayMs: 0 });
  });

  const newCard = () => {
    const cardID = `E0040300000${String(++cards).padStart(5, '0')}`;
    cg.addCard(cardID, PIN);
    return cardID;
  };
  const link = (p: Player, body: unknown, cgType = 'nag', userID = p.user.id) =>
    t
      .http()
      .put(`/api/v1/users/${userID}/integrations/cg/${cgType}`)
      .set(bearer(p.token))
      .send(body as object);
  const syncNow = (p: Player, importType: string, token = p.token) => t.http().post('/api/v1/import/from-api').set(bearer(token)).send({ importType });

  async function linkedPlayer(): Promise<Player & { cardID: string }> {
    const p = await player(t, ['submit_score', 'customise_profile']);
    const cardID = newCard();
    const res = await link(p, { cardID, pin: PIN });
    expect(res.status).toBeLessThan(300);
    return { ...p, cardID };
  }

  it('links a card without ever returning the PIN, syncs, and a second sync brings only new plays', async () => {
    const p = await linkedPlayer();
    const shown = await t.http().get(`/api/v1/users/${p.user.id}/integrations/cg/nag`).set(bearer(p.token));
    expect(shown.status).toBe(200);
    expect(JSON.stringify(shown.body)).not.toContain(PIN);

    cg.addPlay('sdvx', p.cardID, cgPlays.sdvx());
    const first = await syncNow(p, 'api/cg-nag-sdvx');
    expect(first.status).toBe(200);
    expect(first.body as ImportDocument).toMatchObject({ importType: 'api/cg-nag-sdvx', userID: p.user.id, errors: [] });
    expect((first.body as ImportDocument).scoreIDs).toHaveLength(1);
    expect(await storedScores(t, p.user.id)).toEqual([expect.objectContaining({ chartID: chartID('sdvx', 1, 'Single', 'EXH'), service: 'CG' })]);

    const again = await syncNow(p, 'api/cg-nag-sdvx');
    expect(again.status).toBe(200);
    expect((again.body as ImportDocument).scoreIDs).toEqual([]);
    expect(JSON.stringify(again.body)).toContain('No new SOUND VOLTEX plays on CG (nag) since your last sync');

    cg.addPlay('sdvx', p.cardID, cgPlays.sdvx({ difficulty: 4, dateTime: '2024-05-02 10:00:00' }));
    const second = await syncNow(p, 'api/cg-nag-sdvx');
    expect((second.body as ImportDocument).scoreIDs).toHaveLength(1);
    expect(await storedScores(t, p.user.id)).toHaveLength(2);
  });

  it('refuses a card ID that is not 16 alphanumerics, a PIN that is not 4 digits (400), an unknown CG type (404)', async () => {
    const p = await player(t, ['submit_score', 'customise_profile']);
    expect((await link(p, { cardID: 'E00401', pin: PIN })).status).toBe(400);
    expect((await link(p, { cardID: 'E004010000000001', pin: '48a1' })).status).toBe(400);
    expect((await link(p, { cardID: 'E004010000000001', pin: '48211' })).status).toBe(400);
    expect((await link(p, { cardID: 'E004010000000001', pin: PIN }, 'xyz')).status).toBe(404);
  });

  it("links only the requesting user's own account (403), and only signed in (401)", async () => {
    const p = await player(t, ['submit_score', 'customise_profile']);
    const other = await player(t);
    expect((await link(p, { cardID: newCard(), pin: PIN }, 'nag', other.user.id)).status).toBe(403);
    expect((await t.http().put(`/api/v1/users/${p.user.id}/integrations/cg/nag`).send({ cardID: newCard(), pin: PIN })).status).toBe(401);
  });

  it('a sync needs submit_score (403), a configured service (400) and a linked card (4xx)', async () => {
    const p = await linkedPlayer();
    const noScores = await player(t, ['customise_profile']);
    expect((await syncNow(noScores, 'api/cg-nag-sdvx')).status).toBe(403);
    expect((await syncNow(p, 'api/cg-dev-sdvx')).status).toBe(400);
    const unlinked = await player(t);
    const res = await syncNow(unlinked, 'api/cg-nag-sdvx');
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });

  it("a wrong PIN is 400 with CG's message, the PIN masked, and nothing is written", async () => {
    const p = await linkedPlayer();
    cg.addPlay('sdvx', p.cardID, cgPlays.sdvx());
    cg.switches.wrongPin = true;
    const res = await syncNow(p, 'api/cg-nag-sdvx');
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('CG (nag) refused the request: Incorrect PIN **** for this card.');
    expect(JSON.stringify(res.body)).not.toContain(PIN);
    expect(await storedScores(t, p.user.id)).toEqual([]);
  });

  it('an HTML answer is 502 and nothing is written', async () => {
    const p = await linkedPlayer();
    cg.addPlay('sdvx', p.cardID, cgPlays.sdvx());
    cg.switches.htmlBody = true;
    const res = await syncNow(p, 'api/cg-nag-sdvx');
    expect(res.status).toBe(502);
    expect(JSON.stringify(res.body)).toContain('CG (nag) did not answer with JSON');
    expect(await storedScores(t, p.user.id)).toEqual([]);
  });

  it("one malformed play is that play's error; a pop'n battle play is skipped; the other plays import", async () => {
    const p = await linkedPlayer();
    cg.addPlay('popn', p.cardID, cgPlays.popn());
    cg.switches.malformedItem = true;
    cg.switches.popnBattle = true;
    const res = await syncNow(p, 'api/cg-nag-popn');
    expect(res.status).toBe(200);
    const doc = res.body as ImportDocument;
    expect(doc.scoreIDs).toHaveLength(1);
    expect(doc.errors).toEqual([{ type: 'InvalidDatapoint', message: expect.stringMatching(/Invalid CG pop'n score/) }]);
  });

  it('after unlinking, a sync is refused', async () => {
    const p = await linkedPlayer();
    expect((await t.http().delete(`/api/v1/users/${p.user.id}/integrations/cg/nag`).set(bearer(p.token))).status).toBeLessThan(300);
    const res = await syncNow(p, 'api/cg-nag-sdvx');
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });
});

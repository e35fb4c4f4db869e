import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eq } from 'drizzle-orm';
import { importInputs } from '../../src/database/schema.js';
import { ImportInputsService, RETENTION_BATCH } from '../../src/import-inputs/import-inputs.service.js';
import type { ImportDocument } from '../../src/presenters/import.presenter.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { makeAdmin } from '../support/db-fixtures.js';
import { batchManual, directManual, importFile, loadFixtureCatalog, MINUTE, player, T0, type Player } from '../support/imports.js';
import { countRows, dbOf } from '../support/stored.js';
import { bearer, signUp } from '../support/users.js';

const DAY = 24 * 3600 * 1000;
const play = (song: number, score: number, timeAchieved: number) => ({
  matchType: 'sdvxInGameID',
  identifier: String(1000 + song),
  difficulty: 'EXH',
  score,
  lamp: 'CLEAR',
  timeAchieved,
});
const url = (importID: string) => `/cdn/score-import-input/${importID}`;

async function fileImport(t: TestApp, p: Player, document: unknown): Promise<ImportDocument> {
  const res = await importFile(t, p.token, document);
  expect(res.status).toBe(200);
  return res.body as ImportDocument;
}

describe('GET /cdn/score-import-input/:importID', () => {
  let t: TestApp;
  let owner: Player;

  beforeAll(async () => {
    t = await createTestApp();
    await loadFixtureCatalog(t.database, 'catalog', ['sdvx']);
    owner = await player(t, ['submit_score', 'delete_score']);
  });
  afterAll(async () => {
    await t.close();
  });

  it("answers a file import's owner (token and session) with [the document the import read]", async () => {
    const document = batchManual('sdvx', 'Single', [play(1, 9_000_000, T0)]);
    const doc = await fileImport(t, owner, document);
    const res = await t.http().get(url(doc.importID)).set(bearer(owner.token));
    expect([res.status, res.headers['content-type']]).toEqual([200, 'application/json; charset=utf-8']);
    expect(res.body).toEqual([document]);
    expect((await owner.agent.get(url(doc.importID))).body).toEqual([document]);
  });

  it("answers a hook import's owner with [the body the hook sent]", async () => {
    const p = await player(t);
    const body = batchManual('sdvx', 'Single', [play(2, 9_100_000, T0 + MINUTE)]);
    const res = await directManual(t, p.token, body);
    expect(res.status).toBe(200);
    const importID = (res.body as { body: ImportDocument }).body?.importID ?? (res.body as ImportDocument).importID;
    const got = await t.http().get(url(importID)).set(bearer(p.token));
    expect(got.status).toBe(200);
    expect(got.body).toEqual([body]);
  });

  it('is a plain-text 404 for another user, a guest and an unknown id alike; an admin gets it', async () => {
    const doc = await fileImport(t, owner, batchManual('sdvx', 'Single', [play(3, 9_200_000, T0)]));
    const other = await signUp(t);
    const answers = [await other.agent.get(url(doc.importID)), await t.http().get(url(doc.importID)), await owner.agent.get(url('0'.repeat(40)))];
    for (const res of answers) {
      expect([res.status, res.headers['content-type']]).toEqual([404, 'text/plain; charset=utf-8']);
      expect(res.text).toMatch(/^No import input [0-9a-f]{40} was found\.$/);
    }
    expect(answers[0].text.replace(doc.importID, 'X')).toBe(answers[2].text.replace('0'.repeat(40), 'X'));
    await makeAdmin(t, other.user.id);
    const asAdmin = await other.agent.get(url(doc.importID));
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body).toEqual([batchManual('sdvx', 'Single', [play(3, 9_200_000, T0)])]);
  });

  it('keeps none for a failed import', async () => {
    const res = await importText400(t, owner);
    expect(res).toBe(400);
    expect(await countRows(t, 'importInputs', { userID: owner.user.id })).toBe(2);
  });

  it("goes with the import's revert", async () => {
    const doc = await fileImport(t, owner, batchManual('sdvx', 'Single', [play(4, 9_300_000, T0)]));
    expect((await owner.agent.get(url(doc.importID))).status).toBe(200);
    expect((await t.http().post(`/api/v1/imports/${doc.importID}/revert`).set(bearer(owner.token))).status).toBe(200);
    expect(await dbOf(t).select().from(importInputs).where(eq(importInputs.importID, doc.importID))).toEqual([]);
    expect((await owner.agent.get(url(doc.importID))).status).toBe(404);
  });

  it('says an expired input is kept 30 days, and the retention job deletes expired ones in batches', async () => {
    const kept = await fileImport(t, owner, batchManual('sdvx', 'Single', [play(5, 9_400_000, T0)]));
    const old = await fileImport(t, owner, batchManual('sdvx', 'Single', [play(6, 9_500_000, T0)]));
    await dbOf(t)
      .update(importInputs)
      .set({ storedAt: Date.now() - 31 * DAY })
      .where(eq(importInputs.importID, old.importID));
    const expired = await owner.agent.get(url(old.importID));
    expect([expired.status, expired.headers['content-type']]).toEqual([404, 'text/plain; charset=utf-8']);
    expect(expired.text).toBe(`Import inputs are kept 30 days; the input of ${old.importID} is no longer kept.`);
    expect(await t.app.get(ImportInputsService).deleteExpired()).toBe(1);
    expect(await dbOf(t).select({ id: importInputs.importID }).from(importInputs).where(eq(importInputs.importID, old.importID))).toEqual([]);
    expect((await owner.agent.get(url(kept.importID))).status).toBe(200);
    expect(RETENTION_BATCH).toBeGreaterThan(1);
  });
});

async function importText400(t: TestApp, p: Player): Promise<number> {
  // Valid structure, a game this server does not support: refused, nothing stored.
  const res = await importFile(t, p.token, batchManual('nosuchgame', 'Single', [play(1, 1, T0)]));
  return res.status;
}

describe('IMPORT_INPUT_RETENTION_DAYS=0', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ IMPORT_INPUT_RETENTION_DAYS: '0' });
    await loadFixtureCatalog(t.database, 'catalog', ['sdvx']);
  });
  afterAll(async () => {
    await t.close();
  });

  it('keeps no input and says so to the owner', async () => {
    const p = await player(t);
    const doc = await fileImport(t, p, batchManual('sdvx', 'Single', [play(1, 9_000_000, T0)]));
    expect(await countRows(t, 'importInputs', {})).toBe(0);
    const res = await t.http().get(url(doc.importID)).set(bearer(p.token));
    expect([res.status, res.text]).toEqual([404, 'This server keeps no import inputs (IMPORT_INPUT_RETENTION_DAYS is 0).']);
  });
});

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { Keyring, SecretKey } from '../../src/secrets/secret-cipher.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { runCommandInApp } from '../support/cli.js';
import { forgetEncryptedClientSecret, setEncryptedClientSecret } from '../support/db-fixtures.js';
import { batchManual, importFile, loadFixtureCatalog, MINUTE, T0 } from '../support/imports.js';
import { storedApiClient, storedApiClientsTable } from '../support/stored.js';
import { failed, keysIn, ok, signUpTachi } from '../support/tachi.js';
import { signUp, type SignedUpUser } from '../support/users.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { signatureIsValid } from '../support/webhooks.js';

/** A pino destination that keeps every log line. */
class LogCapture extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void) {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
}

const CLIENTS = '/api/v1/clients';
const KEY_B = 'rotated-secrets-key-for-the-e2e-test-0123456789';
const KEY_C = 'an-unrelated-secrets-key-that-decrypts-nothing-here';
const context = (clientID: string) => `api_clients.client_secret_encrypted:${clientID}`;

/** Two sdvx plays of a new player: a first vfClass, one class-update/v1 event. */
const raisingImport = (offset = 0) =>
  batchManual('sdvx', 'Single', [
    { matchType: 'sdvxInGameID', identifier: '1001', difficulty: 'EXH', score: 9_000_000, lamp: 'CLEAR', timeAchieved: T0 + offset },
    { matchType: 'sdvxInGameID', identifier: '1001', difficulty: 'MXM', score: 9_100_000, lamp: 'CLEAR', timeAchieved: T0 + offset + MINUTE },
  ]);

interface Client {
  clientID: string;
  clientSecret: string;
  webhookSecret: string;
}

/** Creates a client posting to `uri`; `unwrap` reads the profile's answer. */
async function createClient(owner: SignedUpUser, uri: string, unwrap: (res: { status: number; body: unknown }) => Record<string, unknown>): Promise<Client> {
  const body = unwrap(await owner.agent.post(`${CLIENTS}/create`).send({ name: 'Bot', webhookUri: uri, permissions: ['submit_score'] }));
  return { clientID: body.clientID as string, clientSecret: body.clientSecret as string, webhookSecret: body.webhookSecret as string };
}

const plain = (res: { status: number; body: unknown }) => {
  expect(res.status).toBe(200);
  return res.body as Record<string, unknown>;
};

/** A new player authorises the client (a key it issued) and imports a class raise; resolves with the delivery the receiver got. */
async function deliveryAfterImport(t: TestApp, receiver: WebhookReceiver, client: Client, tachi: boolean) {
  const p = tachi ? await signUpTachi(t) : await signUp(t);
  const tokenRes = await p.agent.post(`/api/v1/users/${p.user.id}/api-tokens/create`).send({ clientID: client.clientID });
  const token = (tachi ? ok<{ token: string }>(tokenRes) : plain(tokenRes)).token as string;
  const before = receiver.received.length;
  const res = await importFile(t, token, raisingImport());
  // Under tachi an import answers 202 {url, importID}, as Tachi's deployments do (it finished inline all the same).
  expect(res.status).toBe(tachi ? 202 : 200);
  const [got] = (await receiver.waitFor(before + 1)).slice(before);
  return got;
}

/**
 * The client secret at rest and in webhook deliveries: under API_PROFILE=tachi each delivery
 * carries `Authorization: Bearer <client secret>` (as Tachi's receivers, its Discord bot's among
 * them, check), decrypted from the copy stored with SECRETS_KEY (here: the embedded key file);
 * under spec the bearer stays the webhook secret. Both keep the signature. The database holds no
 * plain client secret; `secrets rotate` moves the copies to a new key.
 */
describe('client secrets in webhook deliveries', () => {
  let tachi: TestApp;
  let spec: TestApp;
  let receiver: WebhookReceiver;
  const logs = new LogCapture();

  beforeAll(async () => {
    // The first app of the file gets the log destination (nestjs-pino keeps it for the process).
    tachi = await createTestApp({ API_PROFILE: 'tachi', LOG_LEVEL: 'warn', WEBHOOK_POLL_INTERVAL_MS: '50' }, { logDestination: logs });
    spec = await createTestApp({ WEBHOOK_POLL_INTERVAL_MS: '50' });
    await loadFixtureCatalog(tachi.database, 'catalog', ['sdvx']);
    await loadFixtureCatalog(spec.database, 'catalog', ['sdvx']);
    receiver = await startWebhookReceiver();
  }, 120_000);
  afterAll(async () => {
    await tachi?.close();
    await spec?.close();
    await receiver?.close();
  });

  describe('under API_PROFILE=tachi', () => {
    let dev: SignedUpUser;
    let client: Client;

    beforeAll(async () => {
      dev = await signUpTachi(tachi);
      client = await createClient(dev, `${receiver.url}/tachi-bot`, (res) => ok(res));
    });

    it('a delivery carries Authorization: Bearer <the client secret>, and is still signed with the webhook secret', async () => {
      expect(client.clientSecret).toMatch(/^CS[0-9a-f]{40}$/);
      const got = await deliveryAfterImport(tachi, receiver, client, true);
      expect(got.path).toBe('/tachi-bot');
      expect(got.headers.authorization).toBe(`Bearer ${client.clientSecret}`);
      expect(signatureIsValid(client.webhookSecret, got.headers, got.body)).toBe(true);
      expect(JSON.parse(got.body)).toMatchObject({ type: 'class-update/v1', content: { set: 'vfClass', new: 'SIENNA_I' } });
    });

    it("the embedded database's key is DATA_DIR/secrets.key, mode 0600, outside the database directory", () => {
      const file = path.join(tachi.dataDir, 'secrets.key');
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(fs.readFileSync(file, 'utf8').trim()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    });

    it('the clients table holds no plain client secret: its hash and a v1 ciphertext, which no document shows', async () => {
      const dump = JSON.stringify(await storedApiClientsTable(tachi));
      expect(dump).toContain(client.clientID);
      expect(dump).not.toContain(client.clientSecret);
      expect(dump).not.toContain(client.clientSecret.slice(2));
      const row = await storedApiClient(tachi, client.clientID);
      expect(row?.clientSecretEncrypted).toMatch(/^v1\.[0-9a-f]{16}\./);

      const read = ok(await dev.agent.get(`${CLIENTS}/${client.clientID}`));
      const list = ok(await dev.agent.get(CLIENTS));
      const reset = ok(await dev.agent.patch(`${CLIENTS}/${client.clientID}`).send({ name: 'Bot 2' }));
      for (const doc of [read, list, reset]) {
        expect(keysIn(doc).has('clientSecretEncrypted')).toBe(false);
        expect(JSON.stringify(doc)).not.toContain(row?.clientSecretEncrypted);
      }
      expect(logs.lines.join('\n')).not.toContain(client.clientSecret);
    });

    it('a client without an encrypted copy (made before it) gets no Authorization header and one warning; reset-secret fixes it', async () => {
      const legacy = await createClient(dev, `${receiver.url}/legacy`, (res) => ok(res));
      await forgetEncryptedClientSecret(tachi, legacy.clientID);

      const first = await deliveryAfterImport(tachi, receiver, legacy, true);
      const second = await deliveryAfterImport(tachi, receiver, legacy, true);
      for (const got of [first, second]) {
        expect(got.path).toBe('/legacy');
        expect(got.headers.authorization).toBeUndefined();
        expect(signatureIsValid(legacy.webhookSecret, got.headers, got.body)).toBe(true);
      }
      const warnings = logs.lines.filter((l) => l.includes(legacy.clientID) && l.includes('no Authorization header'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(`POST /clients/${legacy.clientID}/reset-secret`);

      const reset = ok<{ clientSecret: string }>(await dev.agent.post(`${CLIENTS}/${legacy.clientID}/reset-secret`));
      expect(reset.clientSecret).not.toBe(legacy.clientSecret);
      const after = await deliveryAfterImport(tachi, receiver, legacy, true);
      expect(after.headers.authorization).toBe(`Bearer ${reset.clientSecret}`);
      expect(logs.lines.join('\n')).not.toContain(reset.clientSecret);
    });

    it('a copy no configured key decrypts is not posted: the delivery is retried, its log says why, and no secret is logged', async () => {
      const lost = await createClient(dev, `${receiver.url}/lost-key`, (res) => ok(res));
      const foreign = new SecretKey(KEY_C).encrypt(lost.clientSecret, context(lost.clientID));
      await setEncryptedClientSecret(tachi, lost.clientID, foreign);
      const p = await signUpTachi(tachi);
      const token = ok<{ token: string }>(await p.agent.post(`/api/v1/users/${p.user.id}/api-tokens/create`).send({ clientID: lost.clientID })).token;
      const before = receiver.received.length;
      expect((await importFile(tachi, token, raisingImport())).status).toBe(202);
      let log: Array<{ status: string; attempts: number; lastError: string | null }> = [];
      while (!log.some((d) => d.attempts > 0)) {
        log = ok(await dev.agent.get(`${CLIENTS}/${lost.clientID}/webhook-deliveries`));
        await new Promise((r) => setTimeout(r, 25));
      }
      expect(log).toEqual([
        expect.objectContaining({
          status: 'pending',
          attempts: 1,
          lastError: expect.stringContaining(`The client secret could not be decrypted (A stored secret was made with key ${new SecretKey(KEY_C).id}`),
        }),
      ]);
      expect(receiver.received.slice(before).filter((r) => r.path === '/lost-key')).toEqual([]);
      expect(logs.lines.join('\n')).not.toContain(lost.clientSecret);
      // Out of the rotation below: its owner deletes it.
      ok(await dev.agent.delete(`${CLIENTS}/${lost.clientID}`));
    });

    it('reset-secret: 403 for another user, 404 for an unknown client, 401 for a guest; the stored copy changes only for the owner', async () => {
      const before = (await storedApiClient(tachi, client.clientID))?.clientSecretEncrypted;
      const stranger = await signUpTachi(tachi);
      failed(await stranger.agent.post(`${CLIENTS}/${client.clientID}/reset-secret`), 403);
      failed(await dev.agent.post(`${CLIENTS}/CI${'0'.repeat(40)}/reset-secret`), 404);
      failed(await tachi.http().post(`${CLIENTS}/${client.clientID}/reset-secret`), 401);
      expect((await storedApiClient(tachi, client.clientID))?.clientSecretEncrypted).toBe(before);
      const reset = ok<{ clientSecret: string }>(await dev.agent.post(`${CLIENTS}/${client.clientID}/reset-secret`));
      const after = (await storedApiClient(tachi, client.clientID))?.clientSecretEncrypted;
      expect(after).not.toBe(before);
      client = { ...client, clientSecret: reset.clientSecret };
    });

    it('secrets rotate re-encrypts every copy with the new SECRETS_KEY (the old key as previous), once; a process without the key they use cannot', async () => {
      const oldKey = fs.readFileSync(path.join(tachi.dataDir, 'secrets.key'), 'utf8').trim();
      const oldID = new SecretKey(oldKey).id;
      const newID = new SecretKey(KEY_B).id;
      const rotating = await createTestApp({ API_PROFILE: 'tachi', SECRETS_KEY: KEY_B, SECRETS_KEY_PREVIOUS: oldKey }, { shareDatabaseOf: tachi });
      const stranger = await createTestApp({ API_PROFILE: 'tachi', SECRETS_KEY: KEY_C }, { shareDatabaseOf: tachi });
      try {
        const encrypted = (await storedApiClientsTable(tachi)).filter((r) => r.clientSecretEncrypted !== null);
        expect(encrypted.length).toBeGreaterThanOrEqual(2);
        expect(encrypted.every((r) => r.clientSecretEncrypted?.startsWith(`v1.${oldID}.`))).toBe(true);

        const run = await runCommandInApp(rotating, ['secrets', 'rotate']);
        expect(run).toEqual({ code: 0, stdout: `Key ${newID}: ${encrypted.length} secret(s) re-encrypted, 0 already used it.\n`, stderr: '' });
        const rows = await storedApiClientsTable(tachi);
        for (const r of rows.filter((x) => x.clientSecretEncrypted !== null)) expect(r.clientSecretEncrypted).toMatch(new RegExp(`^v1\\.${newID}\\.`));
        // The new key alone decrypts them now: the previous one can go.
        const row = rows.find((r) => r.clientID === client.clientID);
        expect(new Keyring(new SecretKey(KEY_B)).decrypt(row?.clientSecretEncrypted ?? '', context(client.clientID))).toBe(client.clientSecret);

        expect(await runCommandInApp(rotating, ['secrets', 'rotate'])).toEqual({
          code: 0,
          stdout: `Key ${newID}: 0 secret(s) re-encrypted, ${encrypted.length} already used it.\n`,
          stderr: '',
        });

        const refused = await runCommandInApp(stranger, ['secrets', 'rotate']);
        expect(refused.code).toBe(1);
        expect(refused.stderr).toContain(`${encrypted.length} secret(s) could not be decrypted with any configured key`);
        expect(refused.stderr).toContain(`api_clients.client_secret_encrypted of ${client.clientID}: A stored secret was made with key ${newID}`);
        expect(refused.stderr).not.toContain(client.clientSecret);
        // Nothing was rewritten by the refused run.
        expect((await storedApiClient(tachi, client.clientID))?.clientSecretEncrypted).toBe(row?.clientSecretEncrypted);
      } finally {
        await stranger.close();
        await rotating.close();
      }
    });
  });

  describe('under API_PROFILE=spec', () => {
    it('a delivery keeps the webhook secret as its bearer token, not the client secret; the secret is still stored encrypted only', async () => {
      const dev = await signUp(spec);
      const client = await createClient(dev, `${receiver.url}/spec-receiver`, plain);
      const got = await deliveryAfterImport(spec, receiver, client, false);
      expect(got.path).toBe('/spec-receiver');
      expect(got.headers.authorization).toBe(`Bearer ${client.webhookSecret}`);
      expect(got.headers.authorization).not.toContain(client.clientSecret);
      expect(signatureIsValid(client.webhookSecret, got.headers, got.body)).toBe(true);

      const dump = JSON.stringify(await storedApiClientsTable(spec));
      expect(dump).not.toContain(client.clientSecret);
      expect((await storedApiClient(spec, client.clientID))?.clientSecretEncrypted).toMatch(/^v1\./);
      expect(fs.statSync(path.join(spec.dataDir, 'secrets.key')).mode & 0o777).toBe(0o600);
      expect(keysIn(plain(await dev.agent.get(`${CLIENTS}/${client.clientID}`))).has('clientSecretEncrypted')).toBe(false);
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createApp } from '../../src/app.factory.js';
import { loadConfig } from '../../src/config/app-config.js';
import { Database } from '../../src/database/database.js';
import type { ReplicaStatus } from '../../src/database/replicas.js';
import { InlineImportQueue } from '../../src/imports/import-queue.js';
import { PolledWebhookQueue } from '../../src/webhooks/webhook-queue.js';
import { batchManual, importFile, loadFixtureCatalog, type Player } from '../support/imports.js';
import { replicaBinaries, startPrimaryWithReplica, type PgReplicaCluster } from '../support/pg-replica-cluster.js';
import { issueToken, signUp } from '../support/users.js';
import type { TestApp } from '../support/app.js';

/**
 * Read replicas on a real streaming replica (PostgreSQL's own, started by pg-replica-cluster.ts):
 * reads served by it, read-your-writes after an import while it lags, the fallback to the primary
 * when it is stopped or its replay is paused, and readiness. Skipped without PostgreSQL's binaries.
 */
const describeWithBinaries = replicaBinaries() ? describe : describe.skip;
const MAX_LAG_MS = 1_000;

const score = (value: number, identifier = '1001') => ({
  score: value,
  lamp: 'CLEAR',
  matchType: 'sdvxInGameID',
  identifier,
  difficulty: 'MXM',
  timeAchieved: 1_700_000_000_000 + value,
});

describeWithBinaries('read replicas (DATABASE_REPLICA_URLS)', () => {
  let cluster: PgReplicaCluster;
  let database: Database;
  let app: INestApplication;
  let t: TestApp;
  let dataDir: string;
  let alice: Player;

  const http = () => request(app.getHttpServer() as Parameters<typeof request>[0]);
  const replica = (): ReplicaStatus => database.replicas!.status()[0];
  const waitFor = async (what: string, ok: () => boolean, timeoutMs = 15_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!ok()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(replica())}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const pbsOf = async (userID: number, as?: Player) => {
    const req = http().get(`/api/v1/users/${userID}/games/sdvx/Single/pbs/best`);
    const res = await (as ? req.set('Authorization', `Bearer ${as.token}`) : req);
    expect(res.status).toBe(200);
    return (res.body as { pbs: { scoreData: { score: number } }[] }).pbs.map((p) => p.scoreData.score);
  };

  /** Whether a read no cache holds (a search for a new term) goes to the replica. */
  let term = 0;
  const replicaServesReads = async () => {
    const before = replica().reads;
    expect((await http().get(`/api/v1/search?search=term${++term}`)).status).toBe(200);
    return replica().reads > before;
  };

  beforeAll(async () => {
    cluster = await startPrimaryWithReplica();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'st-replicas-'));
    const config = loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      PUBLIC_URL: 'http://127.0.0.1:3000',
      AUTH_RATE_LIMIT_FACTOR: '0',
      RATE_LIMIT_PER_MINUTE: '0',
      SNAPSHOT_SCHEDULE: 'false',
      DATABASE_URL: cluster.primaryUrl,
      DATABASE_REPLICA_URLS: cluster.replicaUrl,
      REPLICA_MAX_LAG_MS: String(MAX_LAG_MS),
    });
    database = await Database.open({ url: cluster.primaryUrl, poolSize: 5, replicaUrls: config.replicaUrls, replicaMaxLagMs: MAX_LAG_MS });
    await database.migrate();
    await loadFixtureCatalog(database);
    app = await createApp({
      config,
      database,
      ownsDatabase: false,
      redis: null,
      keyPrefix: 'st-replicas',
      importQueue: new InlineImportQueue(),
      webhookQueue: new PolledWebhookQueue(),
    });
    await app.init();
    t = { http, agent: () => request.agent(app.getHttpServer() as Parameters<typeof request>[0]) } as unknown as TestApp;
    const u = await signUp(t);
    alice = { ...u, token: await issueToken(u, ['submit_score']) };
    await cluster.waitForReplay();
    await waitFor('the replica to be checked ok', () => replica().state === 'ok');
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    await database?.close();
    await cluster?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('reports the replica in readiness', async () => {
    const res = await http().get('/api/v1/status/ready');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      database: 'ok',
      replicas: [{ state: 'ok', lagMs: expect.any(Number), replayLsn: expect.stringMatching(/^[0-9A-F]+\/[0-9A-F]+$/) }],
    });
    expect(res.body.replicas[0].url).toBe(cluster.replicaUrl);
  });

  it('serves reads from the replica', async () => {
    const before = replica().reads;
    for (let i = 0; i < 5; i++) expect((await http().get(`/api/v1/search?search=nothing${i}`)).status).toBe(200);
    expect(replica().reads).toBeGreaterThanOrEqual(before + 5);
  });

  it('shows a player their import at once, while the replica has not replayed it; others see it once it has', async () => {
    await cluster.pauseReplay();
    try {
      const res = await importFile(t, alice.token, batchManual('sdvx', 'Single', [score(9_100_000)]));
      expect(res.status).toBe(200);
      // The player's own reads right after: their PBs (the primary answers: the replica is behind what they must see).
      expect(await pbsOf(alice.user.id, alice)).toEqual([9_100_000]);
      const session = await http().get(`/api/v1/users/${alice.user.id}/games/sdvx/Single/sessions/recent`).set('Authorization', `Bearer ${alice.token}`);
      expect(session.status).toBe(200);
      expect(session.body.length ?? session.body.sessions?.length).toBeGreaterThan(0);
      // The import's own answer and poll.
      const importID = (res.body as { importID: string }).importID;
      const poll = await http().get(`/api/v1/imports/${importID}`).set('Authorization', `Bearer ${alice.token}`);
      expect(poll.status).toBe(200);
    } finally {
      await cluster.resumeReplay();
    }
    await cluster.waitForReplay();
    await waitFor('the replica to catch up', () => replica().state === 'ok' && replica().lagMs === 0);
    expect(await pbsOf(alice.user.id)).toEqual([9_100_000]);
    expect(await replicaServesReads()).toBe(true);
  }, 60_000);

  it('skips a lagging replica (replay paused past REPLICA_MAX_LAG_MS) and uses it again once it catches up', async () => {
    await cluster.pauseReplay();
    try {
      expect((await importFile(t, alice.token, batchManual('sdvx', 'Single', [score(9_200_000)]))).status).toBe(200);
      await waitFor('the replica to count as lagging', () => replica().state === 'lagging');
      const ready = await http().get('/api/v1/status/ready');
      expect(ready.status).toBe(200);
      expect(ready.body.replicas[0]).toMatchObject({ state: 'lagging' });
      expect(ready.body.replicas[0].lagMs).toBeGreaterThan(MAX_LAG_MS);
      // A guest need not see the latest write, but a lagging replica is not used: the primary answers, with it.
      expect(await pbsOf(alice.user.id)).toEqual([9_200_000]);
      expect(await replicaServesReads()).toBe(false);
    } finally {
      await cluster.resumeReplay();
    }
    await waitFor('the replica to be ok again', () => replica().state === 'ok');
    expect(await replicaServesReads()).toBe(true);
  }, 60_000);

  it('answers from the primary while the replica is stopped, reports it down, and uses it again once it is back', async () => {
    await cluster.stopReplica();
    try {
      // Before a check notices, a read that fails on the replica runs again on the primary.
      for (let i = 0; i < 3; i++) expect(await replicaServesReads()).toBe(false);
      await waitFor('the replica to count as down', () => replica().state === 'down');
      const ready = await http().get('/api/v1/status/ready');
      expect(ready.status).toBe(200);
      expect(ready.body).toMatchObject({ database: 'ok', replicas: [{ state: 'down', error: expect.any(String) }] });
      expect(await pbsOf(alice.user.id)).toEqual([9_200_000]);
    } finally {
      await cluster.startReplica();
    }
    await waitFor('the replica to be ok again', () => replica().state === 'ok', 30_000);
    expect(await replicaServesReads()).toBe(true);
  }, 90_000);
});

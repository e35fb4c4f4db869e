import autocannon from 'autocannon';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { createApp } from '../src/app.factory.js';
import { loadConfig } from '../src/config/app-config.js';
import { Database, queryRows } from '../src/database/database.js';
import { InlineImportQueue } from '../src/imports/import-queue.js';
import { PolledWebhookQueue } from '../src/webhooks/webhook-queue.js';
import { replicaBinaries, startPrimaryWithReplica } from '../test/support/pg-replica-cluster.js';
import { loadSdvxCatalog } from './catalog-fixture.js';
import { table } from './support.js';

const PLAYERS = 20;
const CONNECTIONS = 16;
const DURATION_S = 15;

/**
 * Reads under load with a streaming replica (`npm run bench -- replicas`): a primary and a replica
 * from test/support/pg-replica-cluster.ts, the API in this process with DATABASE_REPLICA_URLS, 20
 * players with imports; guests and the players themselves read profiles, PBs and searches while
 * one player imports a score every 250 ms. Counts the reads the replica answered and those of the
 * same requests the primary answered (a player's reads right after their own import, fallbacks).
 * Then the same with the replica's replay paused (lagging: every read on the primary).
 */
export async function replicasBench(): Promise<string> {
  if (!replicaBinaries()) return '_Skipped: PostgreSQL server binaries not found (/usr/lib/postgresql/*/bin)._';
  const cluster = await startPrimaryWithReplica();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'st-bench-replicas-'));
  const database = await Database.open({ url: cluster.primaryUrl, poolSize: 10, replicaUrls: [cluster.replicaUrl], replicaMaxLagMs: 1000 });
  try {
    await database.migrate();
    const catalog = await loadSdvxCatalog(database);
    const charts = await queryRows<{ id: string; difficulty: string }>(
      database.db,
      sql`SELECT data->>'inGameID' AS id, difficulty FROM charts WHERE game = 'sdvx' AND data ? 'inGameID' ORDER BY chart_id LIMIT 200`,
    );
    const config = loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      AUTH_RATE_LIMIT_FACTOR: '0',
      RATE_LIMIT_PER_MINUTE: '0',
      SNAPSHOT_SCHEDULE: 'false',
      DATABASE_URL: cluster.primaryUrl,
      DATABASE_REPLICA_URLS: cluster.replicaUrl,
      REPLICA_MAX_LAG_MS: '1000',
    });
    const app = await createApp({
      config,
      database,
      ownsDatabase: false,
      redis: null,
      keyPrefix: 'bench-replicas',
      importQueue: new InlineImportQueue(),
      webhookQueue: new PolledWebhookQueue(),
    });
    await app.listen(0, '127.0.0.1');
    const url = await app.getUrl();
    const base = url.replace('[::1]', '127.0.0.1');
    const post = async (p: string, body: unknown, headers: Record<string, string> = {}) => {
      const res = await fetch(`${base}${p}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as Record<string, unknown>, cookie: res.headers.get('set-cookie') ?? '' };
    };
    const players: { id: number; token: string }[] = [];
    for (let i = 0; i < PLAYERS; i++) {
      const username = `bench_r${i}_${Date.now() % 100000}`;
      const reg = await post('/api/v1/auth/register', { username, '!password': `pw-${username}`, email: `${username}@example.test`, captcha: 'x' });
      const id = reg.body.id as number;
      const tok = await post(`/api/v1/users/${id}/api-tokens/create`, { permissions: ['submit_score'] }, { cookie: reg.cookie.split(';')[0] });
      players.push({ id, token: tok.body.token as string });
    }
    let n = 0;
    const importOne = (p: { token: string }) => {
      const c = charts[n++ % charts.length];
      return post(
        '/api/v1/ir/direct-manual/import',
        {
          meta: { game: 'sdvx', playtype: 'Single', service: 'bench' },
          scores: [{ score: 9_000_000 + n, lamp: 'CLEAR', matchType: 'sdvxInGameID', identifier: c.id, difficulty: c.difficulty, timeAchieved: Date.now() }],
        },
        { authorization: `Bearer ${p.token}` },
      );
    };
    for (const p of players) for (let k = 0; k < 5; k++) await importOne(p);
    await cluster.waitForReplay();
    await new Promise((r) => setTimeout(r, 500));

    const replicas = database.replicas!;
    const measure = async (label: string) => {
      const replicaBefore = replicas.status()[0].reads;
      const primaryBefore = replicas.primaryReads;
      let writing = true;
      let writes = 0;
      const writer = (async () => {
        while (writing) {
          await importOne(players[0]);
          writes++;
          await new Promise((r) => setTimeout(r, 250));
        }
      })();
      let k = 0;
      const result = await autocannon({
        url: base,
        connections: CONNECTIONS,
        duration: DURATION_S,
        requests: [
          {
            setupRequest: (req) => {
              const i = k++;
              const p = players[i % PLAYERS];
              const kind = i % 4;
              // Guests' profiles and PBs, a player's own PBs, and searches no cache holds.
              const pathOf = [
                `/api/v1/users/${p.id}/games/sdvx/Single`,
                `/api/v1/users/${p.id}/games/sdvx/Single/pbs/best`,
                `/api/v1/users/${p.id}/games/sdvx/Single/scores/recent`,
                `/api/v1/search?search=b${i}`,
              ][kind];
              return { ...req, method: 'GET', path: pathOf, headers: kind === 2 ? { authorization: `Bearer ${p.token}` } : {} };
            },
          },
        ],
      });
      writing = false;
      await writer;
      const onReplica = replicas.status()[0].reads - replicaBefore;
      const onPrimary = replicas.primaryReads - primaryBefore;
      const non2xx = result.non2xx;
      return [
        label,
        result.requests.total,
        Math.round(result.requests.average),
        result.latency.p99,
        non2xx,
        writes,
        onReplica,
        onPrimary,
        `${((100 * onReplica) / Math.max(1, onReplica + onPrimary)).toFixed(1)}%`,
      ];
    };
    const rows = [await measure('replica streaming')];
    await cluster.pauseReplay();
    await new Promise((r) => setTimeout(r, 1500));
    rows.push(await measure('replica replay paused (lagging)'));
    await cluster.resumeReplay();
    await app.close();
    return `${catalog}; ${PLAYERS} players, ${CONNECTIONS} connections for ${DURATION_S} s each, one player importing every 250 ms; REPLICA_MAX_LAG_MS=1000; API, primary and replica on this machine.\n\n${table(
      ['setup', 'requests', 'req/s', 'p99 ms', 'non-2xx', 'imports during', 'reads on replica', 'reads on primary', 'replica share'],
      rows,
    )}`;
  } finally {
    await database.close();
    await cluster.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

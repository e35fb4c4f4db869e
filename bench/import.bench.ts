import type { INestApplication } from '@nestjs/common';
import { and, eq, sql } from 'drizzle-orm';
import { createApp } from '../src/app.factory.js';
import { loadConfig } from '../src/config/app-config.js';
import { insertRows } from '../src/database/bulk-write.js';
import type { Database } from '../src/database/database.js';
import { charts, scores } from '../src/database/schema.js';
import { InlineImportQueue } from '../src/imports/import-queue.js';
import { ImportPipeline } from '../src/imports/import-pipeline.js';
import { ChartMatchRepository } from '../src/repositories/chart-match.repository.js';
import { findGpt } from '../src/game-support/registry.js';
import { loadSdvxCatalog } from './catalog-fixture.js';
import { benchDatabases, newUser, table, timed } from './support.js';

/** The tables whose triggers notify read changes (drizzle/0021_read_changes.sql). */
const NOTIFYING_TABLES = [
  'personal_bests',
  'scores',
  'pb_ratings',
  'ugpt_settings',
  'user_game_stats',
  'profile_ratings',
  'chart_rankings',
  'users',
  'songs',
  'charts',
];

/** Turns the read-change triggers off or on (the only user triggers of the schema). */
async function changeTriggers(database: Database, enabled: boolean): Promise<void> {
  for (const t of NOTIFYING_TABLES) await database.db.execute(sql.raw(`ALTER TABLE "${t}" ${enabled ? 'ENABLE' : 'DISABLE'} TRIGGER USER`));
}

const SIZES = (process.env.BENCH_IMPORT_SIZES ?? '1000,10000,100000').split(',').map(Number);
const LAMPS = ['FAILED', 'CLEAR', 'EXCESSIVE CLEAR', 'ULTIMATE CHAIN'];

/** A batch-manual document of n plays spread over the charts, a play every 40 s. */
function batchManual(n: number, targets: { inGameID: number; difficulty: string }[], seed: number) {
  const start = 1_700_000_000_000 + seed * 10_000_000_000;
  return {
    meta: { game: 'sdvx', playtype: 'Single', service: 'bench' },
    scores: Array.from({ length: n }, (_, i) => {
      const t = targets[(i * 7919) % targets.length];
      const lamp = LAMPS[i % LAMPS.length];
      return {
        score: 8_000_000 + ((i * 104_729) % 1_900_000),
        lamp,
        matchType: 'sdvxInGameID',
        identifier: String(t.inGameID),
        difficulty: t.difficulty,
        timeAchieved: start + i * 40_000,
      };
    }),
  };
}

/**
 * End-to-end batch-manual imports through HTTP (POST /ir/direct-manual/import), beside the
 * baselines: the same import by another new player with the read-change triggers off, and a raw
 * bulk INSERT of the same score rows on the same database.
 */
export async function importBench(): Promise<string> {
  const rows: (string | number)[][] = [];
  for (const make of await benchDatabases()) {
    const target = await make();
    let app: INestApplication | undefined;
    try {
      const source = await loadSdvxCatalog(target.database);
      const targets = (
        await target.database.db
          .select({ data: charts.data, difficulty: charts.difficulty })
          .from(charts)
          .where(and(eq(charts.game, 'sdvx'), eq(charts.isPrimary, true)))
      )
        .filter((c) => typeof c.data.inGameID === 'number')
        .map((c) => ({ inGameID: c.data.inGameID as number, difficulty: c.difficulty }));
      const config = loadConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '0', PORT: '0', DATA_DIR: '/tmp/st-bench-data' });
      app = await createApp({ config, database: target.database, ownsDatabase: false, redis: null, keyPrefix: 'bench', importQueue: new InlineImportQueue() });
      await app.listen(0, '127.0.0.1');
      const url = await app.getUrl();
      const gpt = findGpt('sdvx', 'Single')!;
      const importOver = async (name: string, n: number, body: string) => {
        const user = await newUser(target.database, name);
        const { ms, value: res } = await timed(() =>
          fetch(`${url}/api/v1/ir/direct-manual/import`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
            body,
          }),
        );
        const doc = (await res.json()) as { scoreIDs?: unknown[]; errors?: unknown[]; message?: string };
        if (res.status !== 200) throw new Error(`import of ${n} failed: ${res.status} ${doc.message}`);
        return { ms, imported: doc.scoreIDs?.length ?? 0 };
      };
      for (const [k, n] of SIZES.entries()) {
        const body = JSON.stringify(batchManual(n, targets, k));
        const { ms, imported } = await importOver(`import_${k}`, n, body);
        // The same document imported by another new player with the read-change triggers off: what they cost.
        await changeTriggers(target.database, false);
        const quiet = await importOver(`quiet_${k}`, n, body).finally(() => changeTriggers(target.database, true));

        // Baseline: the same rows (built for another user, not timed), inserted raw in one transaction.
        const other = await newUser(target.database, `baseline_${k}`);
        const batch = {
          userID: other.id,
          gpt,
          context: { service: 'bench', version: null },
          importType: 'ir/direct-manual',
          importID: null,
          elements: (JSON.parse(body) as { scores: unknown[] }).scores.map((raw, index) => ({ index, raw })),
        };
        const built = (await new ImportPipeline(target.database, new ChartMatchRepository(target.database)).convert(batch)).built.map((b) => b.row);
        const raw = await timed(() => target.database.transaction((tx) => insertRows(tx, scores, built)));
        rows.push([
          target.kind,
          source,
          n,
          imported,
          (ms / 1000).toFixed(2),
          Math.round(n / (ms / 1000)),
          (quiet.ms / 1000).toFixed(2),
          (raw.ms / 1000).toFixed(2),
          Math.round(n / (raw.ms / 1000)),
          `${((raw.ms / ms) * 100).toFixed(0)}%`,
        ]);
      }
    } finally {
      await app?.close();
      await target.dispose();
    }
  }
  return table(
    [
      'Database',
      'Charts',
      'Scores',
      'Imported',
      'End to end (s)',
      'Scores/s',
      'Without change triggers (s)',
      'Raw INSERT (s)',
      'Raw rows/s',
      'Raw / end-to-end time',
    ],
    rows,
  );
}

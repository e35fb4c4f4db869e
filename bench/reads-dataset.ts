import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { ApiKeysService } from '../src/api-keys/api-keys.service.js';
import { ApiKeysRepository } from '../src/repositories/api-keys.repository.js';
import { PERMISSIONS } from '../src/common/permissions.js';
import { insertRows } from '../src/database/bulk-write.js';
import { Database, embeddedDbDir, MIGRATIONS_FOLDER, queryRows } from '../src/database/database.js';
import { charts, EMPTY_SOCIALS, userCredentials, users } from '../src/database/schema.js';
import { findGpt } from '../src/game-support/registry.js';
import { ImportPipeline, type ConvertBatch } from '../src/imports/import-pipeline.js';
import type { Converted } from '../src/scoring/import-write.js';
import { ChartMatchRepository } from '../src/repositories/chart-match.repository.js';
import { rerankAll } from '../src/scoring/pbs/rerank.js';
import { loadSdvxCatalog } from './catalog-fixture.js';
import { PG_URL } from './support.js';

export interface ReadsDataset {
  source: string;
  users: number;
  scores: number;
  /** A well-played chart, a user in the middle of the leaderboard, and a bearer token for that user. */
  sampleChartID: string;
  sampleUserID: number;
  sampleToken: string;
  searchTerm: string;
  /** Milliseconds of each of 5 imports of scoresPerUser plays by a new player, after the dataset was built. */
  lateImportMs: number[];
  /** `count` more plays drawn as the dataset's were (batch-manual score documents), by a player of skill in [0, 1). */
  plays: (skill: number, count: number) => Record<string, unknown>[];
}

const LAMPS = ['FAILED', 'CLEAR', 'EXCESSIVE CLEAR', 'ULTIMATE CHAIN'];

/** A deterministic pseudo-random generator, so every run builds the same data. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `userCount` users with `scoresPerUser` SDVX plays each, written through the import pipeline's
 * own convert and write steps (so PBs, ranks, pb_ratings, sessions and game stats are real),
 * many users per transaction, with chart ranking deferred to one pass at the end. Popular charts get most plays, as on a real service.
 */
export async function buildReadsDataset(database: Database, userCount: number, scoresPerUser: number, log: (line: string) => void): Promise<ReadsDataset> {
  const source = await loadSdvxCatalog(database);
  const chartRows = await database.db
    .select({ chartID: charts.chartID, data: charts.data, difficulty: charts.difficulty })
    .from(charts)
    .where(and(eq(charts.game, 'sdvx'), eq(charts.playtype, 'Single'), eq(charts.isPrimary, true)));
  const targets = chartRows
    .filter((c) => typeof c.data.inGameID === 'number')
    .map((c) => ({ chartID: c.chartID, inGameID: c.data.inGameID as number, difficulty: c.difficulty }));
  const gpt = findGpt('sdvx', 'Single')!;
  const pipeline = new ImportPipeline(database, new ChartMatchRepository(database));

  const now = Date.now();
  const created = await database.transaction(async (tx) => {
    const rows = await tx
      .insert(users)
      .values(
        Array.from({ length: userCount }, (_, i) => ({
          username: `player${i}`,
          usernameLowercase: `player${i}`,
          about: '',
          socialMedia: EMPTY_SOCIALS,
          joinDate: now,
          lastSeen: now - i * 1000,
        })),
      )
      .returning({ id: users.id });
    await insertRows(
      tx,
      userCredentials,
      rows.map((r) => ({ userID: r.id, email: `player${r.id}@bench.test`, emailLowercase: `player${r.id}@bench.test`, passwordHash: 'x' })),
    );
    return rows.map((r) => r.id);
  });

  const random = rng(42);
  const plays = (skill: number, count: number) =>
    Array.from({ length: count }, (_, i) => {
      const t = targets[Math.floor(Math.pow(random(), 2) * targets.length)];
      const score = Math.min(10_000_000, Math.floor(7_000_000 + skill * 2_500_000 + random() * 600_000));
      return {
        index: i,
        raw: {
          score,
          lamp: LAMPS[Math.floor(random() * LAMPS.length)],
          matchType: 'sdvxInGameID',
          identifier: String(t.inGameID),
          difficulty: t.difficulty,
          timeAchieved: now - 90 * 86_400_000 + Math.floor(random() * 89 * 86_400_000),
        },
      };
    });
  const BATCH_USERS = 100;
  for (let start = 0; start < created.length; start += BATCH_USERS) {
    const batchUsers = created.slice(start, start + BATCH_USERS);
    const converted: { batch: ConvertBatch; out: Converted }[] = [];
    for (const userID of batchUsers) {
      // skill in [0, 1): better players score higher
      const elements = plays(random(), scoresPerUser);
      const batch = { userID, gpt, context: { service: 'bench', version: null }, importType: 'ir/direct-manual', importID: null, elements };
      converted.push({ batch, out: await pipeline.convert(batch) });
    }
    await database.transaction(async (tx) => {
      for (const { batch, out } of converted) await pipeline.write(tx, batch, out, {}, { deferRanking: true });
    });
    if ((start / BATCH_USERS) % 10 === 0) log(`  dataset: ${Math.min(start + BATCH_USERS, created.length)}/${created.length} users`);
  }
  // The bulk load takes no chart locks and ranks every chart once at the end, as
  // `npm run cli -- rerank` does, leaving none dirty for the server's refresher.
  const ranked = await rerankAll(database, ['sdvx']);
  log(`  dataset: ranked ${ranked.charts} charts`);

  // What one more player's import costs on this populated service (in process, not over HTTP; the
  // charts it leaves dirty are re-ranked by the refresher of the server started afterwards).
  const lateImportMs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const [late] = await database.db
      .insert(users)
      .values({ username: `late${i}`, usernameLowercase: `late${i}`, about: '', socialMedia: EMPTY_SOCIALS, joinDate: now, lastSeen: now })
      .returning({ id: users.id });
    const batch = {
      userID: late.id,
      gpt,
      context: { service: 'bench', version: null },
      importType: 'ir/direct-manual',
      importID: null,
      elements: plays(random(), scoresPerUser),
    };
    const started = performance.now();
    const out = await pipeline.convert(batch);
    await database.transaction((tx) => pipeline.write(tx, batch, out, {}));
    lateImportMs.push(performance.now() - started);
  }

  const sampleUserID = created[Math.floor(created.length / 2)];
  const { token } = await new ApiKeysService(new ApiKeysRepository(database)).issue({
    userID: sampleUserID,
    identifier: 'bench',
    permissions: [...PERMISSIONS],
    fromAPIClient: null,
  });
  return {
    source,
    users: created.length,
    scores: created.length * scoresPerUser,
    sampleChartID: targets[0].chartID,
    sampleUserID,
    sampleToken: token,
    searchTerm: 'love',
    lateImportMs,
    plays: (skill, count) => plays(skill, count).map((p) => p.raw),
  };
}

function datasetKey(userCount: number, scoresPerUser: number): string {
  const hash = createHash('sha256');
  for (const file of fs
    .readdirSync(MIGRATIONS_FOLDER)
    .filter((f) => f.endsWith('.sql'))
    .sort())
    hash.update(file).update(fs.readFileSync(path.join(MIGRATIONS_FOLDER, file)));
  return `${userCount}x${scoresPerUser}_${hash.digest('hex').slice(0, 10)}`;
}

export interface KeptDataset {
  dataset: ReadsDataset;
  builtNote: string;
  /** The server's database: DATABASE_URL, or the DATA_DIR of the embedded one. */
  env: Record<string, string>;
  /** On PostgreSQL: the database's URL and name. */
  url?: string;
  databaseName?: string;
}

const META = sql`CREATE TABLE IF NOT EXISTS bench_reads_meta (dataset jsonb NOT NULL, built_note text NOT NULL)`;

/**
 * The dataset of this size and schema, built once and kept between runs (a PostgreSQL database
 * st_reads_<key>, or a data directory st-reads-<key> in the temp directory); BENCH_READS_FRESH=1
 * rebuilds it. Datasets of other keys are removed.
 */
export async function keptReadsDataset(kind: 'PGlite' | 'PostgreSQL', userCount: number, scoresPerUser: number): Promise<KeptDataset> {
  const key = datasetKey(userCount, scoresPerUser);
  const fresh = process.env.BENCH_READS_FRESH === '1';
  let database: Database;
  let env: Record<string, string>;
  let url: string | undefined;
  let databaseName: string | undefined;
  if (kind === 'PostgreSQL') {
    const name = `st_reads_${key}`;
    databaseName = name;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE 'st\\_reads\\_%'`);
      for (const r of rows) if (r.datname !== name || fresh) await admin.query(`DROP DATABASE IF EXISTS "${r.datname}" WITH (FORCE)`);
      if (!rows.some((r) => r.datname === name) || fresh) await admin.query(`CREATE DATABASE "${name}"`);
    } finally {
      await admin.end();
    }
    const u = new URL(PG_URL);
    u.pathname = `/${name}`;
    url = u.toString();
    env = { DATABASE_URL: url };
    database = await Database.open({ url, poolSize: 10 });
  } else {
    const dataDir = path.join(os.tmpdir(), `st-reads-${key}`);
    for (const entry of fs.readdirSync(os.tmpdir()))
      if (entry.startsWith('st-reads-') && (entry !== path.basename(dataDir) || fresh))
        fs.rmSync(path.join(os.tmpdir(), entry), { recursive: true, force: true });
    fs.mkdirSync(dataDir, { recursive: true });
    env = { DATA_DIR: dataDir };
    database = await Database.open({ dataDir: embeddedDbDir(dataDir) });
  }
  try {
    await database.migrate();
    await database.db.execute(META);
    const [kept] = await queryRows<{ dataset: ReadsDataset | string; built_note: string }>(database.db, sql`SELECT dataset, built_note FROM bench_reads_meta`);
    if (kept) {
      const dataset = typeof kept.dataset === 'string' ? (JSON.parse(kept.dataset) as ReadsDataset) : kept.dataset;
      return { dataset, builtNote: `${kind}: dataset kept from an earlier run (${kept.built_note}).`, env, url, databaseName };
    }
    const started = Date.now();
    const dataset = await buildReadsDataset(database, userCount, scoresPerUser, (l) => console.error(`${kind}${l}`));
    const builtNote = `${kind}: dataset of ${dataset.users} users and ${dataset.scores} scores (${dataset.source}) built through the import pipeline (chart ranks deferred to one rerank pass) in ${((Date.now() - started) / 1000).toFixed(0)} s; one more player's import of ${scoresPerUser} plays into it (in process, not over HTTP): ${dataset.lateImportMs.map((ms) => `${Math.round(ms)} ms`).join(', ')}`;
    // As autovacuum would on a server (the embedded server's own statistics job ANALYZEs), then
    // a checkpoint: without them PostgreSQL went on writing the new rows out during the first
    // timed run, which measured cached answers up to 2x lower than later runs did (issue 24).
    await database.db.execute(sql`VACUUM (ANALYZE)`);
    await database.db.execute(sql`CHECKPOINT`);
    const { plays: _plays, ...stored } = dataset as ReadsDataset & { plays?: unknown };
    await database.db.execute(sql`INSERT INTO bench_reads_meta (dataset, built_note) VALUES (${JSON.stringify(stored)}::jsonb, ${builtNote})`);
    return { dataset, builtNote: `${builtNote}.`, env, url, databaseName };
  } finally {
    await database.close();
  }
}

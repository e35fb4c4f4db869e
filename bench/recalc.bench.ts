import { sql } from 'drizzle-orm';
import pg from 'pg';
import { randomHex } from '../src/common/crypto.js';
import { Database, queryRows } from '../src/database/database.js';
import { countScores, recalcScores } from '../src/scoring/maintenance/recalc.js';
import { keptReadsDataset } from './reads-dataset.js';
import { PG_URL, postgresReachable, table, timed } from './support.js';

const USERS = Number(process.env.BENCH_RECALC_USERS ?? 10_000);
const SCORES_PER_USER = Number(process.env.BENCH_RECALC_SCORES_PER_USER ?? 100);
/** The share of scores whose stored calculatedData is spoiled before the second run. */
const SPOILED = 0.1;

/** A digest of every score's stored calculatedData, to check that recalc restored them. */
async function ratingsDigest(database: Database): Promise<string> {
  const [row] = await queryRows<{ digest: string }>(
    database.db,
    sql`SELECT sum(hashtext(score_id || ':' || calculated_data::text)::bigint)::text || '/' || count(*) AS digest FROM scores`,
  );
  return row.digest;
}

/**
 * `POST /admin/recalc` with no filter (every score) on PostgreSQL, at 10,000 players and 1,000,000
 * scores by default: first with every stored value already right (what re-running costs), then
 * after spoiling 10% of the scores' calculatedData (the repair a rating change needs). The
 * baseline, measured in the same run on the same data, is the database's floor for touching every
 * score once: one `UPDATE scores SET calculated_data = calculated_data`. The data is a copy of the
 * reads suite's kept dataset of the same size (built first when there is none).
 */
export async function recalcBench(): Promise<string> {
  if (!(await postgresReachable())) return `Recalc benchmark skipped: PostgreSQL at ${PG_URL} is not reachable.`;
  // The reads suite's dataset of this size, built once and kept (the same players and plays):
  // copied, so that the recalc leaves the kept one as it was and a later run skips the build.
  const kept = await keptReadsDataset('PostgreSQL', USERS, SCORES_PER_USER);
  console.error(`recalc: ${kept.builtNote}`);
  const name = `st_recalc_${randomHex(4)}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  const copied = await timed(() => admin.query(`CREATE DATABASE "${name}" TEMPLATE "${kept.databaseName}" STRATEGY FILE_COPY`));
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  const database = await Database.open({ url: url.toString(), poolSize: 10 });
  const rows: (string | number)[][] = [];
  try {
    await database.db.execute(sql`ANALYZE`);
    const total = await countScores(database, {});
    console.error(`recalc: ${total} scores, the kept dataset copied in ${(copied.ms / 1000).toFixed(0)} s`);
    const right = await ratingsDigest(database);

    const floor = await timed(() => database.db.execute(sql`UPDATE scores SET calculated_data = calculated_data`));
    rows.push([`baseline: one UPDATE of every score's calculated_data`, total, (floor.ms / 1000).toFixed(1), Math.round(total / (floor.ms / 1000))]);
    await database.db.execute(sql`VACUUM ANALYZE scores`);

    const rerun = await timed(() => recalcScores(database, {}));
    rows.push(['recalc, nothing to change (a re-run)', rerun.value, (rerun.ms / 1000).toFixed(1), Math.round(rerun.value / (rerun.ms / 1000))]);
    if ((await ratingsDigest(database)) !== right) throw new Error('recalc changed values that were right');

    await database.db.execute(
      sql`UPDATE scores SET calculated_data = jsonb_set(calculated_data, '{VF6}', '0'::jsonb) WHERE abs(hashtext(score_id)) % 100 < ${Math.round(SPOILED * 100)}`,
    );
    const spoiled = await timed(() => recalcScores(database, {}));
    rows.push([
      `recalc after spoiling ~${SPOILED * 100}% of the ratings`,
      spoiled.value,
      (spoiled.ms / 1000).toFixed(1),
      Math.round(spoiled.value / (spoiled.ms / 1000)),
    ]);
    if ((await ratingsDigest(database)) !== right) throw new Error('recalc did not restore the spoiled ratings');
    return (
      `PostgreSQL, ${USERS} players, ${total} SDVX scores. ${kept.builtNote} Every run checked: the stored ratings end identical to the imported ones.\n\n` +
      table(['Run', 'Scores', 'Seconds', 'Scores/s'], rows)
    );
  } finally {
    await database.close();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}

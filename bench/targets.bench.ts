import type { INestApplication } from '@nestjs/common';
import { and, eq, sql } from 'drizzle-orm';
import { createApp } from '../src/app.factory.js';
import { loadConfig } from '../src/config/app-config.js';
import { computeGoalID } from '../src/common/canonical-json.js';
import { insertRows } from '../src/database/bulk-write.js';
import { queryRows, type Database } from '../src/database/database.js';
import { charts, folderCharts, folders, goals, quests } from '../src/database/schema.js';
import { InlineImportQueue } from '../src/imports/import-queue.js';
import { loadSdvxCatalog } from './catalog-fixture.js';
import { benchDatabases, newUser, table, timed } from './support.js';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SCORES = env('BENCH_TARGETS_SCORES', 1000);
const GOALS = env('BENCH_TARGETS_GOALS', 1000);
const QUESTS = env('BENCH_TARGETS_QUESTS', 100);
const FOLDERS = env('BENCH_TARGETS_FOLDERS', 20);
const FOLDER_SIZE = env('BENCH_TARGETS_FOLDER_SIZE', 300);
const ROUNDS = env('BENCH_TARGETS_ROUNDS', 5);
/** The folders hold charts 53·f to 53·f + FOLDER_SIZE of the target list. */
const FOLDER_SPAN = (FOLDERS - 1) * 53 + FOLDER_SIZE;
const LAMPS = ['FAILED', 'CLEAR', 'EXCESSIVE CLEAR', 'ULTIMATE CHAIN'];

interface Target {
  chartID: string;
  inGameID: number;
  difficulty: string;
}

/** n plays on the charts, half of them on the folders' charts (so folder goals move), a play every 40 s from `start`. */
function batchManual(n: number, targets: Target[], round: number) {
  const start = 1_700_000_000_000 + round * 1_000_000_000; // rounds ~12 days apart, all in the past
  return {
    meta: { game: 'sdvx', playtype: 'Single', service: 'bench' },
    scores: Array.from({ length: n }, (_, i) => {
      // every other play on a chart of the folders (the first FOLDER_SPAN charts), the rest anywhere
      const span = i % 2 === 0 ? Math.min(targets.length, FOLDER_SPAN) : targets.length;
      const t = targets[(i * 7919 + round * 131) % span];
      return {
        score: 8_000_000 + ((i * 104_729 + round * 7_001) % 1_900_000),
        lamp: LAMPS[(i + round) % LAMPS.length],
        matchType: 'sdvxInGameID',
        identifier: String(t.inGameID),
        difficulty: t.difficulty,
        timeAchieved: start + i * 40_000,
      };
    }),
  };
}

/**
 * Writes the targets: FOLDERS static folders of FOLDER_SIZE charts each, GOALS goals (two thirds on
 * the folders, lamp and grade in absolute and proportion modes; the rest on single charts), and
 * QUESTS quests that share them out (each goal in one quest). Returns the quest ids.
 */
async function writeTargets(database: Database, targets: Target[]): Promise<string[]> {
  const folderIDs = Array.from({ length: FOLDERS }, (_, f) => `Fbench${String(f).padStart(3, '0')}`);
  await insertRows(
    database.db,
    folders,
    folderIDs.map((folderID, f) => ({
      folderID,
      game: 'sdvx',
      playtype: 'Single',
      title: `Bench folder ${f}`,
      type: 'static' as const,
      data: [],
      inactive: false,
      searchTerms: [],
      searchText: `bench folder ${f}`,
      seedHash: '',
    })),
  );
  await insertRows(
    database.db,
    folderCharts,
    folderIDs
      .flatMap((folderID, f) =>
        Array.from({ length: Math.min(FOLDER_SIZE, targets.length) }, (_, i) => ({ folderID, chartID: targets[(f * 53 + i) % targets.length].chartID })),
      )
      .filter((row, i, all) => all.findIndex((r) => r.folderID === row.folderID && r.chartID === row.chartID) === i),
  );
  // distinct goals: candidates are generated until GOALS distinct ids exist
  const byID = new Map<string, typeof goals.$inferInsert>();
  for (let k = 0; byID.size < GOALS; k++) {
    const onFolder = k % 3 !== 2;
    const key = k % 2 === 0 ? 'lamp' : 'grade';
    const value = key === 'lamp' ? 1 + (k % 3) : 5 + (k % 5);
    const charts = onFolder
      ? { type: 'folder' as const, data: folderIDs[k % FOLDERS] }
      : { type: 'single' as const, data: targets[(k * 31) % targets.length].chartID };
    const criteria = onFolder
      ? k % 4 < 2
        ? { key, value, mode: 'absolute' as const, countNum: 2 + (Math.floor(k / 4) % (FOLDER_SIZE - 2)) }
        : { key, value, mode: 'proportion' as const, countNum: Math.round((0.05 + (Math.floor(k / 4) % 90) / 100) * 1000) / 1000 }
      : { key, value, mode: 'single' as const };
    const goalID = computeGoalID({ charts, criteria, game: 'sdvx', playtype: 'Single' });
    byID.set(goalID, { goalID, game: 'sdvx', playtype: 'Single', name: `bench goal ${k}`, charts, criteria, seedHash: '' });
  }
  const unique = [...byID.values()];
  await insertRows(database.db, goals, unique);
  const perQuest = Math.ceil(unique.length / QUESTS);
  const questIDs = Array.from({ length: QUESTS }, (_, q) => `benchquest${String(q).padStart(4, '0')}`);
  await insertRows(
    database.db,
    quests,
    questIDs.map((questID, q) => ({
      questID,
      game: 'sdvx',
      playtype: 'Single',
      name: `Bench quest ${q}`,
      desc: '',
      questData: [{ title: 'All', goals: unique.slice(q * perQuest, (q + 1) * perQuest).map((g) => ({ goalID: g.goalID })) }],
      seedHash: '',
    })),
  );
  return questIDs;
}

/**
 * Issue 9's budget: a 1,000-score import for a user with 1,000 goal subscriptions (two thirds on
 * folders of 300 charts) and 100 quest subscriptions, against the same import for a user without
 * subscriptions, on the same database. Both users first import the same history (so the profiles
 * match); then ROUNDS measured imports each, alternating, and the medians compared.
 */
export async function targetsBench(): Promise<string> {
  const rows: (string | number)[][] = [];
  for (const make of await benchDatabases()) {
    const target = await make();
    let app: INestApplication | undefined;
    try {
      await loadSdvxCatalog(target.database);
      const targets = (
        await target.database.db
          .select({ chartID: charts.chartID, data: charts.data, difficulty: charts.difficulty })
          .from(charts)
          .where(and(eq(charts.game, 'sdvx'), eq(charts.isPrimary, true)))
      )
        .filter((c) => typeof c.data.inGameID === 'number')
        .map((c) => ({ chartID: c.chartID, inGameID: c.data.inGameID as number, difficulty: c.difficulty }));
      const questIDs = await writeTargets(target.database, targets);
      const config = loadConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '0', PORT: '0', DATA_DIR: '/tmp/st-bench-data' });
      app = await createApp({ config, database: target.database, ownsDatabase: false, redis: null, keyPrefix: 'bench', importQueue: new InlineImportQueue() });
      await app.listen(0, '127.0.0.1');
      const url = await app.getUrl();
      const post = async (token: string, body: unknown) => {
        const res = await fetch(`${url}/api/v1/ir/direct-manual/import`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify(body),
        });
        const doc = (await res.json()) as { scoreIDs?: unknown[]; goalInfo?: unknown[]; questInfo?: unknown[]; message?: string };
        if (res.status !== 200) throw new Error(`import failed: ${res.status} ${doc.message}`);
        return doc;
      };

      const subscribed = await newUser(target.database, 'targets_subscribed');
      const plain = await newUser(target.database, 'targets_plain');
      for (const user of [subscribed, plain]) await post(user.token, batchManual(SCORES, targets, 0));
      for (const questID of questIDs) {
        const res = await fetch(`${url}/api/v1/users/${subscribed.id}/games/sdvx/Single/targets/quests/${questID}`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${subscribed.token}` },
        });
        if (res.status !== 200) throw new Error(`subscribing to ${questID} failed: ${res.status} ${await res.text()}`);
      }
      const [{ goalSubs }] = await queryRows<{ goalSubs: number }>(
        target.database.db,
        sql`SELECT count(*)::int AS "goalSubs" FROM goal_subs WHERE user_id = ${subscribed.id}`,
      );

      const times: Record<'with' | 'without', number[]> = { with: [], without: [] };
      let moved = 0;
      for (let round = 1; round <= ROUNDS; round++) {
        for (const [kind, user] of (round % 2
          ? [
              ['with', subscribed],
              ['without', plain],
            ]
          : [
              ['without', plain],
              ['with', subscribed],
            ]) as ['with' | 'without', { token: string }][]) {
          const { ms, value } = await timed(() => post(user.token, batchManual(SCORES, targets, round)));
          times[kind].push(ms);
          if (kind === 'with') moved += value.goalInfo?.length ?? 0;
        }
      }
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      const range = (xs: number[]) => `${(Math.min(...xs) / 1000).toFixed(2)}–${(Math.max(...xs) / 1000).toFixed(2)}`;
      const withMs = median(times.with);
      const withoutMs = median(times.without);
      rows.push([
        target.kind,
        SCORES,
        goalSubs,
        questIDs.length,
        Math.round(moved / ROUNDS),
        ROUNDS,
        `${(withoutMs / 1000).toFixed(2)} (${range(times.without)})`,
        `${(withMs / 1000).toFixed(2)} (${range(times.with)})`,
        `${(((withMs - withoutMs) / withoutMs) * 100).toFixed(0)}%`,
      ]);
    } finally {
      await app?.close();
      await target.dispose();
    }
  }
  return table(
    [
      'Database',
      'Scores',
      'Goal subs',
      'Quest subs',
      'Goal subs moved / import',
      'Rounds',
      'Without subs: median (range) s',
      'With subs: median (range) s',
      'Extra (medians)',
    ],
    rows,
  );
}

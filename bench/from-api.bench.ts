import type { INestApplication } from '@nestjs/common';
import { and, eq } from 'drizzle-orm';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../src/app.factory.js';
import { randomHex } from '../src/common/crypto.js';
import { loadConfig } from '../src/config/app-config.js';
import { charts } from '../src/database/schema.js';
import { convertKaiSdvx } from '../src/imports/import-types/api-kai/convert.js';
import { InlineImportQueue } from '../src/imports/import-queue.js';
import { kaiEnv, startFakeKaiServer } from '../test/support/fake-kai-server.js';
import { loadSdvxCatalog } from './catalog-fixture.js';
import { benchDatabases, newUser, table, timed } from './support.js';

const PLAYS = Number(process.env.BENCH_FROM_API_PLAYS ?? 10_000);
const PAGE_SIZE = Number(process.env.BENCH_FROM_API_PAGE_SIZE ?? 100);
const ROUNDS = Number(process.env.BENCH_FROM_API_ROUNDS ?? 2);
const WARMUP_PLAYS = 500;

/** KAI's SDVX difficulty number of each chart difficulty (the fourth chart, whatever its name, is 3). */
const KAI_DIFFICULTY: Record<string, number> = { NOV: 0, ADV: 1, EXH: 2, INF: 3, GRV: 3, HVN: 3, VVD: 3, XCD: 3, MXM: 4 };
/** EXCEED GEAR: KAI's played_version 6, the GPT's version 'exceed'. */
const PLAYED_VERSION = 6;
const VERSION = 'exceed';

interface Target {
  inGameID: number;
  difficulty: number;
}

/** n plays of KAI's SDVX play_history over the charts, oldest first, one every 40 s from `start`. */
function kaiPlays(n: number, targets: Target[], start: number): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, i) => {
    const t = targets[(i * 7919) % targets.length];
    const clearType = 1 + (i % 4); // FAILED, CLEAR, EXCESSIVE CLEAR, ULTIMATE CHAIN (no error)
    return {
      music_id: t.inGameID,
      music_difficulty: t.difficulty,
      played_version: PLAYED_VERSION,
      clear_type: clearType,
      score: 8_000_000 + ((i * 104_729) % 1_900_000),
      max_chain: 500 + (i % 700),
      critical: 900 + (i % 300),
      near: 20 + (i % 40),
      error: clearType === 4 ? 0 : i % 15,
      early: 10 + (i % 20),
      late: 8 + (i % 25),
      gauge_rate: 50 + (i % 50),
      timestamp: new Date(start + i * 40_000).toISOString(),
    };
  });
}

/** The same plays as one batch-manual document: each the score element the KAI import type makes of it. */
function batchManualOf(plays: Record<string, unknown>[]): string {
  const scores = plays.map((p) => {
    const converted = convertKaiSdvx(p);
    if (converted.kind !== 'score') throw new Error(`The bench made a play KAI's import type refuses: ${JSON.stringify(converted)}`);
    return converted.element;
  });
  return JSON.stringify({ meta: { game: 'sdvx', playtype: 'Single', service: 'FLO', version: VERSION }, scores });
}

interface Answer {
  status: number;
  doc: { scoreIDs?: unknown[]; errors?: unknown[]; message?: string; timeStarted?: number; timeFinished?: number; emptyReason?: string };
  /** Client-measured: the request sent → the answer read. */
  ms: number;
  /** Unix ms when the request was sent (the import document's times are the same clock: one process). */
  sentAt: number;
}

async function post(url: string, token: string, init: { body: string | FormData; json?: boolean }): Promise<Answer> {
  const sentAt = Date.now();
  const { ms, value } = await timed(async () => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, ...(init.json ? { 'content-type': 'application/json' } : {}) },
      body: init.body,
    });
    return { status: res.status, doc: (await res.json()) as Answer['doc'] };
  });
  return { ...value, ms, sentAt };
}

function fileForm(body: string): FormData {
  const form = new FormData();
  form.append('importType', 'file/batch-manual');
  form.append('scoreData', new Blob([body], { type: 'application/json' }), 'scores.json');
  return form;
}

function checked(what: string, answer: Answer, expected: number): Answer {
  if (answer.status !== 200) throw new Error(`${what} answered ${answer.status}: ${answer.doc.message}`);
  const imported = answer.doc.scoreIDs?.length ?? 0;
  if (imported !== expected)
    throw new Error(
      `${what} imported ${imported} scores of ${expected} (${answer.doc.errors?.length ?? 0} errors, the first: ${JSON.stringify(answer.doc.errors?.[0])}).`,
    );
  return answer;
}

const seconds = (ms: number) => (ms / 1000).toFixed(2);

/**
 * A from-api sync (POST /import/from-api, api/flo-sdvx, inline) of PLAYS plays over PLAYS /
 * PAGE_SIZE pages of a local fake FLO, against the same scores as one batch-manual file
 * (POST /import/file) by another new player, on the same database, in ROUNDS rounds of new plays
 * (alternating which goes first); then each round's second sync, which has nothing new. A sync's
 * time is split at its import's timeStarted: before it, the fetch (the token refresh, the profile
 * and every page, plus the request's own few milliseconds); after it, the match and the write,
 * as for the file (whose part before is the upload and the parse). Every database kind available.
 */
export async function fromApiBench(): Promise<string> {
  const rows: (string | number)[][] = [];
  const notes: string[] = [];
  for (const make of await benchDatabases()) {
    const target = await make();
    const fake = await startFakeKaiServer({ pageSize: PAGE_SIZE });
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'st-bench-from-api-'));
    let app: INestApplication | undefined;
    try {
      const source = await loadSdvxCatalog(target.database);
      const targets = (
        await target.database.db
          .select({ data: charts.data, difficulty: charts.difficulty, versions: charts.versions })
          .from(charts)
          .where(and(eq(charts.game, 'sdvx'), eq(charts.isPrimary, true)))
      )
        .filter((c) => typeof c.data.inGameID === 'number' && c.difficulty in KAI_DIFFICULTY && c.versions.includes(VERSION))
        .map((c) => ({ inGameID: c.data.inGameID as number, difficulty: KAI_DIFFICULTY[c.difficulty] }));
      const config = loadConfig({
        LOG_LEVEL: 'silent',
        RATE_LIMIT_PER_MINUTE: '0',
        PORT: '0',
        DATA_DIR: dataDir,
        SECRETS_KEY: randomHex(32),
        SNAPSHOT_SCHEDULE: 'false',
        ...kaiEnv('FLO', fake),
      });
      app = await createApp({ config, database: target.database, ownsDatabase: false, redis: null, keyPrefix: 'bench', importQueue: new InlineImportQueue() });
      await app.listen(0, '127.0.0.1');
      const url = `${await app.getUrl()}/api/v1`;

      // Warm-up, untimed: a file import by a third player over other plays (the JIT, the charts' first reads).
      const warm = await newUser(target.database, `from_api_warm_${randomHex(3)}`);
      checked(
        'The warm-up import',
        await post(`${url}/import/file`, warm.token, { body: fileForm(batchManualOf(kaiPlays(WARMUP_PLAYS, targets, 1_500_000_000_000))) }),
        WARMUP_PLAYS,
      );

      const split = (a: Answer) => [seconds(a.doc.timeStarted! - a.sentAt), seconds(a.doc.timeFinished! - a.doc.timeStarted!)];
      for (let round = 1; round <= ROUNDS; round++) {
        const plays = kaiPlays(PLAYS, targets, 1_600_000_000_000 + round * 10_000_000_000);
        fake.clearPlays('sdvx');
        fake.addPlays('sdvx', plays);
        const body = batchManualOf(plays);
        const syncer = await newUser(target.database, `from_api_sync_${randomHex(3)}`);
        const filer = await newUser(target.database, `from_api_file_${randomHex(3)}`);
        const linked = await post(`${url}/users/${syncer.id}/integrations/kai/flo/oauth2callback`, syncer.token, {
          body: JSON.stringify({ code: fake.issueCode() }),
          json: true,
        });
        if (linked.status !== 200) throw new Error(`Linking FLO answered ${linked.status}: ${linked.doc.message}`);
        const sync = () => post(`${url}/import/from-api`, syncer.token, { body: JSON.stringify({ importType: 'api/flo-sdvx' }), json: true });
        const importFile = async () => checked('The file import', await post(`${url}/import/file`, filer.token, { body: fileForm(body) }), PLAYS);

        // Odd rounds sync first, even rounds import the file first: the second player on the charts pays for the first's ranks.
        const file = round % 2 === 0 ? await importFile() : undefined;
        const pagesBefore = fake.stats.pages;
        const first = checked('The sync', await sync(), PLAYS);
        const pages = fake.stats.pages - pagesBefore;
        const fileAnswer = file ?? (await importFile());

        const again = fake.stats.pages;
        const nothing = checked('The second sync', await sync(), 0);
        const nothingPages = fake.stats.pages - again;

        const order = round % 2 === 0 ? 'file first' : 'sync first';
        rows.push(
          [
            target.kind,
            `${round} (${order})`,
            `from-api sync (${pages} pages of ${PAGE_SIZE})`,
            first.doc.scoreIDs!.length,
            seconds(first.ms),
            Math.round(PLAYS / (first.ms / 1000)),
            ...split(first),
            `${(first.ms / fileAnswer.ms).toFixed(2)}×`,
          ],
          [
            target.kind,
            `${round} (${order})`,
            `batch-manual file (${(body.length / 1e6).toFixed(1)} MB)`,
            fileAnswer.doc.scoreIDs!.length,
            seconds(fileAnswer.ms),
            Math.round(PLAYS / (fileAnswer.ms / 1000)),
            ...split(fileAnswer),
            '1.00×',
          ],
          [
            target.kind,
            `${round}`,
            `second sync, nothing new (${nothingPages} page${nothingPages === 1 ? '' : 's'})`,
            0,
            seconds(nothing.ms),
            '–',
            ...split(nothing),
            '–',
          ],
        );
        if (round === 1) notes.push(`${target.kind} (${source}): the second sync answered "${nothing.doc.emptyReason}"`);
      }
    } finally {
      await app?.close();
      await fake.close();
      await target.dispose();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return [
    table(['Database', 'Round', 'Import', 'Imported', 'Total (s)', 'Scores/s', 'Fetch / upload+parse (s)', 'Match+write (s)', 'Time ÷ file'], rows),
    '',
    ...notes.map((n) => `- ${n}`),
  ].join('\n');
}

import fs from 'node:fs';
import path from 'node:path';
import type request from 'supertest';
import { SeedLoader } from '../../src/seeds/seed-loader.js';
import { SeedSource } from '../../src/seeds/seed-source.js';
import type { ImportDocument } from '../../src/presenters/import.presenter.js';
import type { TestApp } from './app.js';

/**
 * Seven small sdvx songs (ids 1–7, in-game ids 9001–9007), each with an EXH and an MXM chart:
 * EXH levels 14, 15, 16, 16, 17, 17, 18 and MXM levels 18, 17, 19, 20, 20, 19, 20.
 */
export const SCORE_FIXTURES = path.resolve('test/fixtures/scores');

interface FixtureChart {
  chartID: string;
  songID: number;
  difficulty: string;
  levelNum: number;
}
const fixtureCharts = JSON.parse(fs.readFileSync(path.join(SCORE_FIXTURES, 'charts-sdvx.json'), 'utf8')) as FixtureChart[];

export type SdvxDifficulty = 'EXH' | 'MXM';

export function fixtureChartID(songID: number, difficulty: SdvxDifficulty): string {
  const chart = fixtureCharts.find((c) => c.songID === songID && c.difficulty === difficulty);
  if (!chart) throw new Error(`no fixture chart ${songID} ${difficulty}`);
  return chart.chartID;
}

export async function loadScoreFixtures(t: TestApp): Promise<void> {
  const report = await new SeedLoader(t.database).load(new SeedSource(SCORE_FIXTURES), { games: ['sdvx'] });
  if (report.rejected.length) throw new Error(`fixture records rejected: ${JSON.stringify(report.rejected)}`);
}

/** A batch-manual score element on a fixture chart, matched by its in-game id. */
export function sdvxScore(songID: number, difficulty: SdvxDifficulty, score: number, lamp: string, timeAchieved: number | null) {
  return { score, lamp, matchType: 'sdvxInGameID', identifier: String(9000 + songID), difficulty, timeAchieved };
}

type Client = { post: (url: string) => request.Test };

/** POSTs a batch-manual document to /ir/direct-manual/import; auth is the agent's cookie or the given headers. Fails unless 200. */
export async function importSdvx(
  client: Client,
  scores: object[],
  options: { headers?: Record<string, string>; classes?: Record<string, string> } = {},
): Promise<ImportDocument> {
  const res = await client
    .post('/api/v1/ir/direct-manual/import')
    .set(options.headers ?? {})
    .send({ meta: { game: 'sdvx', playtype: 'Single', service: 'e2e' }, scores, ...(options.classes ? { classes: options.classes } : {}) });
  if (res.status !== 200) throw new Error(`import failed: ${res.status} ${JSON.stringify(res.body)}`);
  const doc = res.body as ImportDocument;
  if (doc.errors.length) throw new Error(`import had errors: ${JSON.stringify(doc.errors)}`);
  return doc;
}

/** The user's sdvx Single profile from GET /users/:userID/game-stats. */
export async function sdvxStats(t: TestApp, userID: number): Promise<{ ratings: Record<string, number | null>; classes: Record<string, string> } | undefined> {
  const res = await t.http().get(`/api/v1/users/${userID}/game-stats`);
  if (res.status !== 200) throw new Error(`game-stats failed: ${res.status}`);
  return (res.body as { game: string; playtype: string; ratings: Record<string, number | null>; classes: Record<string, string> }[]).find(
    (s) => s.game === 'sdvx' && s.playtype === 'Single',
  );
}

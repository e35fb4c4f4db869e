import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ApiKeysService } from '../../src/api-keys/api-keys.service.js';
import { SeedLoader } from '../../src/seeds/seed-loader.js';
import { SeedSource } from '../../src/seeds/seed-source.js';
import type { Permission } from '../../src/common/permissions.js';
import type { ImportDocument } from '../../src/presenters/import.presenter.js';
import type { TestApp } from './app.js';
import { storeUser } from './db-fixtures.js';
import { bearer } from './users.js';

/**
 * An sdvx catalog for the leaderboard and profile reads. Every chart's in-game id is 5000 + its
 * song id, and every chart is primary (versions exceed, konaste) except Old Mix's.
 *   1 Blue Horizon                   EXH 16, MXM 18
 *   2 Blue Horizon Remix             MXM 19
 *   3 Beyond the Blue Horizon Line   MXM 18
 *   4 Blue Horizen                   MXM 20
 *   5 Red Planet                     MXM 20
 *   6 Old Mix                        EXH 20, not primary (version booth only)
 *   100 + i, i = 1..130: Filler Track 001..130, MXM of level 17 + (i mod 4)
 */
export const FILLERS = 130;
export const fillerSong = (i: number) => 100 + i;
export const fillerLevel = (i: number) => 17 + (i % 4);

interface SongSeed {
  id: number;
  title: string;
  charts: { difficulty: 'EXH' | 'MXM'; level: number; isPrimary?: boolean }[];
}

const SONGS: SongSeed[] = [
  {
    id: 1,
    title: 'Blue Horizon',
    charts: [
      { difficulty: 'EXH', level: 16 },
      { difficulty: 'MXM', level: 18 },
    ],
  },
  { id: 2, title: 'Blue Horizon Remix', charts: [{ difficulty: 'MXM', level: 19 }] },
  { id: 3, title: 'Beyond the Blue Horizon Line', charts: [{ difficulty: 'MXM', level: 18 }] },
  { id: 4, title: 'Blue Horizen', charts: [{ difficulty: 'MXM', level: 20 }] },
  { id: 5, title: 'Red Planet', charts: [{ difficulty: 'MXM', level: 20 }] },
  { id: 6, title: 'Old Mix', charts: [{ difficulty: 'EXH', level: 20, isPrimary: false }] },
  ...Array.from({ length: FILLERS }, (_, k) => ({
    id: fillerSong(k + 1),
    title: `Filler Track ${String(k + 1).padStart(3, '0')}`,
    charts: [{ difficulty: 'MXM' as const, level: fillerLevel(k + 1) }],
  })),
];

export const lbChart = (songID: number, difficulty: 'EXH' | 'MXM') => createHash('sha1').update(`leaderboards-${songID}-${difficulty}`).digest('hex');

/** Writes the catalog as Tachi seed files and loads it with the real seed loader. */
export async function loadLeaderboardCatalog(t: TestApp): Promise<void> {
  const dir = path.join(t.dataDir, 'leaderboard-seeds');
  fs.mkdirSync(dir, { recursive: true });
  const songs = SONGS.map((s) => ({ id: s.id, title: s.title, artist: 'Fixture Artist', searchTerms: [], altTitles: [], data: { displayVersion: 'exceed' } }));
  const charts = SONGS.flatMap((s) =>
    s.charts.map((c) => ({
      chartID: lbChart(s.id, c.difficulty),
      songID: s.id,
      playtype: 'Single',
      difficulty: c.difficulty,
      level: String(c.level),
      levelNum: c.level,
      isPrimary: c.isPrimary ?? true,
      versions: c.isPrimary === false ? ['booth'] : ['exceed', 'konaste'],
      data: { inGameID: 5000 + s.id },
    })),
  );
  fs.writeFileSync(path.join(dir, 'songs-sdvx.json'), JSON.stringify(songs));
  fs.writeFileSync(path.join(dir, 'charts-sdvx.json'), JSON.stringify(charts));
  const report = await new SeedLoader(t.database).load(new SeedSource(dir), { games: ['sdvx'] });
  if (report.rejected.length) throw new Error(`fixture records rejected: ${JSON.stringify(report.rejected)}`);
}

export interface QuickPlayer {
  id: number;
  username: string;
  token: string;
}

/**
 * A user inserted straight into the table (no password: hashing one per player would dominate
 * the setup) with a real API token issued by the app's own service, so imports and PATCHes go
 * through HTTP as usual.
 */
export async function quickPlayer(t: TestApp, username: string, permissions: Permission[] = ['submit_score', 'customise_score']): Promise<QuickPlayer> {
  const id = await storeUser(t, username);
  const { token } = await t.app
    .get(ApiKeysService, { strict: false })
    .issue({ userID: id, identifier: 'leaderboard fixtures', permissions, fromAPIClient: null });
  return { id, username, token };
}

/** A batch-manual score on a catalog chart, matched by in-game id. */
export function play(songID: number, difficulty: 'EXH' | 'MXM', score: number, lamp: string, timeAchieved: number | null) {
  return { score, lamp, matchType: 'sdvxInGameID', identifier: String(5000 + songID), difficulty, timeAchieved };
}

/** POST /ir/direct-manual/import as the player; fails unless every score imported. */
export async function importAs(
  t: TestApp,
  p: QuickPlayer,
  scores: object[],
  options: { classes?: Record<string, string>; version?: string } = {},
): Promise<ImportDocument> {
  const res = await t
    .http()
    .post('/api/v1/ir/direct-manual/import')
    .set(bearer(p.token))
    .send({
      meta: { game: 'sdvx', playtype: 'Single', service: 'e2e', ...(options.version ? { version: options.version } : {}) },
      scores,
      ...(options.classes ? { classes: options.classes } : {}),
    });
  if (res.status !== 200) throw new Error(`import failed: ${res.status} ${JSON.stringify(res.body)}`);
  const doc = res.body as ImportDocument;
  if (doc.errors.length) throw new Error(`import had errors: ${JSON.stringify(doc.errors)}`);
  return doc;
}

/**
 * A profile with a provided dan and no score: an import of the dan with one untimed score on Old
 * Mix (not primary, so no rating and no vfClass), then that score deleted. (Classes alone make
 * no profile for a GPT the user never played.) The player's token needs delete_score.
 */
export async function danWithoutScores(t: TestApp, p: QuickPlayer, dan: string): Promise<void> {
  const doc = await importAs(t, p, [play(6, 'EXH', 9_000_000, 'CLEAR', null)], { classes: { dan }, version: 'booth' });
  const res = await t.http().delete(`/api/v1/scores/${doc.scoreIDs[0]}`).set(bearer(p.token));
  if (res.status !== 200) throw new Error(`score delete failed: ${res.status} ${JSON.stringify(res.body)}`);
}

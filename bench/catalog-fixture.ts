import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SeedLoader } from '../src/seeds/seed-loader.js';
import { SeedSource } from '../src/seeds/seed-source.js';
import type { Database } from '../src/database/database.js';
import { SEEDS_DIR } from './support.js';

const DIFFICULTIES = ['NOV', 'ADV', 'EXH', 'MXM'];

/** Writes SDVX songs and charts in Tachi's seed format, for machines without the real seeds. */
function generatedSdvxSeeds(songCount: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'st-bench-seeds-'));
  const songs = Array.from({ length: songCount }, (_, i) => ({
    id: i + 1,
    title: `Generated Song ${i + 1}`,
    artist: `Artist ${i % 97}`,
    altTitles: [],
    searchTerms: [],
    data: { displayVersion: 'exceed' },
  }));
  const charts = songs.flatMap((s) =>
    DIFFICULTIES.map((difficulty, d) => ({
      chartID: `${s.id.toString(16).padStart(8, '0')}${d.toString(16).padStart(32, '0')}`,
      songID: s.id,
      level: String(5 + d * 4 + (s.id % 3)),
      levelNum: 5 + d * 4 + (s.id % 3),
      isPrimary: true,
      difficulty,
      playtype: 'Single',
      data: { inGameID: s.id },
      versions: ['exceed'],
    })),
  );
  fs.writeFileSync(path.join(dir, 'songs-sdvx.json'), JSON.stringify(songs));
  fs.writeFileSync(path.join(dir, 'charts-sdvx.json'), JSON.stringify(charts));
  return dir;
}

/** Loads SDVX charts: the real seeds when they are there, otherwise 2,500 generated songs (10,000 charts). */
export async function loadSdvxCatalog(database: Database): Promise<string> {
  const real = fs.existsSync(path.join(SEEDS_DIR, 'charts-sdvx.json'));
  const dir = real ? SEEDS_DIR : generatedSdvxSeeds(2500);
  await new SeedLoader(database).load(new SeedSource(dir), { games: ['sdvx'] });
  if (!real) fs.rmSync(dir, { recursive: true, force: true });
  return real ? 'real sdvx seeds' : 'generated sdvx charts';
}

import { eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../database/database.js';
import { anyOf, upsertRows } from '../../database/bulk-write.js';
import { catalogState, charts, songs } from '../../database/schema.js';
import { CHART_KEY_FIELDS, chartMatchKeys } from '../../game-support/match-types.js';
import { findGpt } from '../../game-support/registry.js';
import type { GameSupport } from '../../game-support/types.js';
import { syncChartPrimaryFlags } from '../../scoring/maintenance/chart-primary-sync.js';
import { chartRecord, describeZodError, songRecord, type ChartRecord, type SongRecord } from '../seed-records.js';
import type { SeedSource } from '../seed-source.js';
import { diffWithStored, dropDangling, readArray, validate, type ChangedGpts, type Collection, type Diff, type SeedLoad } from './collections.js';

/** Songs and charts (songs-<game>.json, charts-<game>.json): the catalog, one file of each per game. */

const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;

function hashValues(value: unknown): string[] {
  if (typeof value === 'string') return [value.toLowerCase()];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string').map((v) => v.toLowerCase());
  return [];
}

/** The integers of an in-game id field (the match keys keep the same, see chartMatchKeys). */
function inGameIDs(value: unknown): number[] {
  if (typeof value === 'number' && Number.isInteger(value)) return [value];
  if (Array.isArray(value)) return value.filter((v): v is number => typeof v === 'number' && Number.isInteger(v));
  return [];
}

export async function readSongs(load: SeedLoad, source: SeedSource, game: GameSupport): Promise<Collection<SongRecord>> {
  const file = `songs-${game.game}.json`;
  const raw = (await readArray(load, source, file)) ?? [];
  return validate(load, file, raw, songRecord(game), (s) => String(s.id));
}

export async function readCharts(load: SeedLoad, source: SeedSource, game: GameSupport): Promise<Collection<ChartRecord>> {
  const file = `charts-${game.game}.json`;
  const raw = (await readArray(load, source, file)) ?? [];
  // (songID, playtype, difficulty, isPrimary) and the game's unique data fields (hashes), each to the first chart that has it
  const slots = new Map<string, string>();
  const keys = new Map<string, string>();
  return validate(
    load,
    file,
    raw,
    chartRecord(game),
    (c) => c.chartID,
    (c) => {
      const gpt = findGpt(game.game, c.playtype)!;
      if (gpt.difficulties.type === 'FIXED' && !gpt.difficulties.order.includes(c.difficulty)) {
        return `difficulty '${c.difficulty}' is not one of ${game.game} ${c.playtype}'s: ${gpt.difficulties.order.join(', ')}`;
      }
      const data = gpt.chartData.safeParse(c.data);
      if (!data.success) return `data.${describeZodError(data.error)}`;
      for (const field of CHART_KEY_FIELDS.chartInGameID) {
        const outOfRange = inGameIDs(c.data[field]).find((n) => n < INT32_MIN || n > INT32_MAX);
        if (outOfRange !== undefined) return `data.${field}: ${outOfRange} is outside the 32-bit integer range the database stores`;
      }
      const slot = `${c.songID}|${c.playtype}|${c.difficulty}|${c.isPrimary}`;
      if (slots.has(slot))
        return `song ${c.songID} already has a${c.isPrimary ? ' primary' : ' non-primary'} ${c.playtype} ${c.difficulty} chart (${slots.get(slot)})`;
      const unique = (game.uniqueChartKeys ?? []).flatMap(({ field, perPlaytype }) =>
        hashValues(c.data[field]).map((value) => ({ field, value, key: `${field}|${perPlaytype ? c.playtype : ''}|${value}` })),
      );
      const taken = unique.find((u) => keys.has(u.key));
      if (taken) return `data.${taken.field} ${taken.value} is already the ${taken.field} of chart ${keys.get(taken.key)}`;
      slots.set(slot, c.chartID);
      for (const u of unique) keys.set(u.key, c.chartID);
      return undefined;
    },
  );
}

/**
 * A chartID is global: the same one in two games' files, or in one game's file while the database holds it as
 * another game's chart, would silently move the chart between games. The later file's record is rejected.
 */
export async function dropChartsOfOtherGames(load: SeedLoad, games: readonly GameSupport[], collections: Collection<ChartRecord>[]) {
  const first = new Map<string, { file: string; index: number }>();
  for (const c of collections) {
    c.accepted = c.accepted.filter((a) => {
      const seen = first.get(a.record.chartID);
      if (seen === undefined) {
        first.set(a.record.chartID, { file: c.file, index: a.index });
        return true;
      }
      c.rejected++;
      load.reject(c.file, a.index, `duplicate id ${a.record.chartID}: already a chart in ${seen.file} (index ${seen.index})`);
      return false;
    });
  }
  if (first.size === 0) return;
  const stored = await load.database.db
    .select({ chartID: charts.chartID, game: charts.game })
    .from(charts)
    .where(anyOf(charts.chartID, [...first.keys()]));
  const gameOf = new Map(stored.map((r) => [r.chartID, r.game]));
  collections.forEach((c, i) =>
    dropDangling(load, [c], (chart) => {
      const owner = gameOf.get(chart.chartID);
      return owner !== undefined && owner !== games[i].game ? `duplicate id ${chart.chartID}: the database already holds it as a ${owner} chart` : undefined;
    }),
  );
}

/** Song ids per game: those in the database plus those this load accepts. */
async function existingSongIDs(load: SeedLoad, games: readonly GameSupport[], collections: Collection<SongRecord>[]): Promise<Map<string, Set<number>>> {
  const ids = games.map((g) => g.game);
  const result = new Map(ids.map((g) => [g, new Set<number>()]));
  const rows = ids.length ? await load.database.db.select({ game: songs.game, id: songs.id }).from(songs).where(inArray(songs.game, ids)) : [];
  for (const r of rows) result.get(r.game)!.add(r.id);
  collections.forEach((c, i) => c.accepted.forEach((a) => result.get(ids[i])!.add(a.record.id)));
  return result;
}

/** Rejects the charts whose song is neither in their game's songs file nor in the database. */
export async function dropChartsWithoutSong(
  load: SeedLoad,
  games: readonly GameSupport[],
  songCollections: Collection<SongRecord>[],
  chartCollections: Collection<ChartRecord>[],
) {
  const songIDs = await existingSongIDs(load, games, songCollections);
  chartCollections.forEach((c, i) => {
    const game = games[i].game;
    dropDangling(load, [c], (chart) =>
      songIDs.get(game)?.has(chart.songID) ? undefined : `song ${chart.songID} does not exist in songs-${game}.json or the database`,
    );
  });
}

export function diffSongs(load: SeedLoad, games: readonly GameSupport[], collections: Collection<SongRecord>[]): Promise<Diff<SongRecord>>[] {
  return collections.map((c, i) => diffWithStored(load, c, songs, songs.id, songs.seedHash, (r) => String(r.id), eq(songs.game, games[i].game)));
}

export function diffCharts(load: SeedLoad, games: readonly GameSupport[], collections: Collection<ChartRecord>[]): Promise<Diff<ChartRecord>>[] {
  return collections.map(async (c, i) => {
    const diff = await diffWithStored(load, c, charts, charts.chartID, charts.seedHash, (r) => r.chartID, eq(charts.game, games[i].game));
    return withStaleMatchKeys(load, c, diff, games[i].game);
  });
}

/**
 * Adds to a diff the unchanged charts whose stored match keys (in_game_ids, chart_hashes) are not what the
 * match-type registry now derives from their data: after a registry line reads a new data field into a key
 * column, the next seed load fills it in for the charts already stored, without a migration.
 */
async function withStaleMatchKeys(load: SeedLoad, collection: Collection<ChartRecord>, diff: Diff<ChartRecord>, game: string): Promise<Diff<ChartRecord>> {
  const writing = new Set(diff.write);
  const unchanged = collection.accepted.filter((a) => !writing.has(a));
  if (unchanged.length === 0) return diff;
  const rows = await load.database.db
    .select({ chartID: charts.chartID, inGameIDs: charts.inGameIDs, chartHashes: charts.chartHashes })
    .from(charts)
    .where(eq(charts.game, game));
  const stored = new Map(rows.map((r) => [r.chartID, JSON.stringify([r.inGameIDs, r.chartHashes])]));
  const stale = unchanged.filter((a) => {
    const keys = chartMatchKeys(a.record.data);
    return stored.get(a.record.chartID) !== JSON.stringify([keys.inGameIDs, keys.chartHashes]);
  });
  if (stale.length === 0) return diff;
  const { summary } = diff;
  return {
    write: [...diff.write, ...stale],
    updates: new Set([...diff.updates, ...stale]),
    summary: { ...summary, updated: summary.updated + stale.length, unchanged: summary.unchanged - stale.length },
  };
}

/** A changed song touches every playtype of its game; a new chart its playtype; an updated one may have left another playtype's folders, so it touches them all. */
export function touchSongAndChartGpts(changed: ChangedGpts, games: readonly GameSupport[], songDiffs: Diff<SongRecord>[], chartDiffs: Diff<ChartRecord>[]) {
  songDiffs.forEach((d, i) => {
    if (d.write.length) games[i].playtypes.forEach((p) => changed.touch(games[i].game, p));
  });
  chartDiffs.forEach((d, i) =>
    d.write.forEach((a) => (d.updates.has(a) ? games[i].playtypes : [a.record.playtype]).forEach((p) => changed.touch(games[i].game, p))),
  );
}

/**
 * Writes the changed songs and charts, brings the primary flags copied into scores and PBs in line
 * with the written charts, and counts a new catalog version when any changed.
 */
export async function writeSongsAndCharts(
  tx: Tx,
  games: readonly GameSupport[],
  songDiffs: Diff<SongRecord>[],
  chartDiffs: Diff<ChartRecord>[],
  tick: (n: number) => void,
) {
  for (const [i, d] of songDiffs.entries())
    await upsertRows(
      tx,
      songs,
      ['game', 'id'],
      d.write.map((a) => songRow(games[i].game, a.record, a.hash)),
      tick,
    );
  for (const [i, d] of chartDiffs.entries())
    await upsertRows(
      tx,
      charts,
      ['chart_id'],
      d.write.map((a) => chartRow(games[i].game, a.record, a.hash)),
      tick,
    );
  await syncChartPrimaryFlags(
    tx,
    chartDiffs.flatMap((d) => d.write.map((a) => a.record.chartID)),
  );
  if ([...songDiffs, ...chartDiffs].some((d) => d.write.length)) await tx.update(catalogState).set({ version: sql`${catalogState.version} + 1` });
}

function songRow(game: string, s: SongRecord, hash: string): typeof songs.$inferInsert {
  const titles = [...new Set([s.title, ...s.altTitles].map((t) => t.toLowerCase()))];
  return {
    game,
    id: s.id,
    title: s.title,
    artist: s.artist,
    altTitles: s.altTitles,
    searchTerms: s.searchTerms,
    data: s.data,
    matchTitles: titles,
    searchText: [s.title, ...s.altTitles, ...s.searchTerms].join(' '),
    seedHash: hash,
  };
}

function chartRow(game: string, c: ChartRecord, hash: string): typeof charts.$inferInsert {
  const d = c.data;
  return {
    chartID: c.chartID,
    game,
    playtype: c.playtype,
    songID: c.songID,
    difficulty: c.difficulty,
    level: c.level,
    levelNum: c.levelNum,
    isPrimary: c.isPrimary,
    versions: c.versions,
    data: d,
    // the batch-manual match keys, as the match-type registry derives them
    ...chartMatchKeys(d),
    seedHash: hash,
  };
}

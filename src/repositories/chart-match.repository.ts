import { Injectable, Optional } from '@nestjs/common';
import { and, eq } from 'drizzle-orm';
import { anyOf, overlaps } from '../database/bulk-write.js';
import { Database } from '../database/database.js';
import { charts, jsonDataField, songs, type ChartRow, type SongRow } from '../database/schema.js';
import { caseInsensitive, difficultiesOf, type MatchLookup } from '../game-support/common/match-type.js';
import { matchTypeOf } from '../game-support/match-types.js';
import { findGame } from '../game-support/registry.js';
import type { GptSupport, MatchType } from '../game-support/types.js';
import { groupBy } from '../common/collections.js';
import { CatalogCache } from './catalog-cache.js';

/** What chart matching reads of a score: how it names its chart. */
export interface ChartMatchCandidate {
  matchType: MatchType;
  identifier: string;
  difficulty: string | null;
  /** Tells apart songs that share a title (songTitle). */
  artist: string | null;
}

export type ChartMatch = { kind: 'found'; chart: ChartRow; song: SongRow } | { kind: 'notFound'; message: string } | { kind: 'invalid'; message: string };

const unique = <T>(values: T[]) => [...new Set(values)];

@Injectable()
export class ChartMatchRepository {
  constructor(
    private readonly database: Database,
    @Optional() private readonly cache?: CatalogCache,
  ) {}

  /**
   * The chart of every candidate (see lookup): found ones from the catalog cache where it holds
   * them, the rest looked up and the charts found kept there. Candidates not found are looked up
   * every time (a seed load may add their chart; none fills the cache with misses).
   */
  async resolve(gpt: GptSupport, version: string | null, candidates: readonly ChartMatchCandidate[]): Promise<ChartMatch[]> {
    const cache = this.cache;
    if (!cache) return this.lookup(gpt, version, candidates);
    const keys = candidates.map((c) => JSON.stringify([gpt.game, gpt.playtype, version, c.matchType, c.identifier, c.difficulty, c.artist]));
    const results: (ChartMatch | undefined)[] = keys.map((k) => {
      const hit = cache.match(k);
      return hit && { kind: 'found', ...hit };
    });
    const missing = candidates.flatMap((c, i) => (results[i] ? [] : [{ c, i }]));
    if (missing.length) {
      const generation = cache.matchGeneration();
      const fetched = await this.lookup(
        gpt,
        version,
        missing.map((m) => m.c),
      );
      fetched.forEach((r, j) => {
        const { i } = missing[j];
        results[i] = r;
        if (r.kind === 'found') cache.keepMatch(keys[i], { chart: r.chart, song: r.song }, generation);
      });
    }
    return results as ChartMatch[];
  }

  /**
   * Finds the chart of every candidate with one query per kind of lookup in use (one per song data
   * field), plus one for the charts of matched songs and one for the songs of matched charts, never
   * one per score. Each match type's lookup is declared in the match-type registry
   * (src/game-support/match-types.ts). With a version, a chart must list it; without one, only
   * primary charts match.
   */
  private async lookup(gpt: GptSupport, version: string | null, candidates: readonly ChartMatchCandidate[]): Promise<ChartMatch[]> {
    const q = this.database.db;
    const { game, playtype } = gpt;
    const lookupOf = (c: ChartMatchCandidate): MatchLookup => matchTypeOf(c.matchType).lookup;
    const byKind = groupBy(candidates, (c) => lookupOf(c).kind);
    const of = (kind: MatchLookup['kind']) => byKind.get(kind) ?? [];
    const songDataField = (c: ChartMatchCandidate) => (lookupOf(c) as Extract<MatchLookup, { kind: 'songData' }>).field;
    const chartDataField = (c: ChartMatchCandidate) => (lookupOf(c) as Extract<MatchLookup, { kind: 'chartData' }>).field;
    /** The identifier as its lookup compares it: lowercased where the match is in any case. */
    const key = (c: ChartMatchCandidate) => (caseInsensitive(lookupOf(c)) ? c.identifier.toLowerCase() : c.identifier);

    // Song-keyed lookups.
    const titleKeys = unique(of('songTitle').map(key));
    const songIDs = unique(of('songID').map((c) => Number(c.identifier)));
    const songDataKeys = [...groupBy(of('songData'), songDataField)].map(([field, cs]) => ({ field, keys: unique(cs.map(key)) }));
    const [byTitle, byID, ...bySongData] = await Promise.all([
      titleKeys.length
        ? q
            .select()
            .from(songs)
            .where(and(eq(songs.game, game), overlaps(songs.matchTitles, titleKeys)))
        : [],
      songIDs.length
        ? q
            .select()
            .from(songs)
            .where(and(eq(songs.game, game), anyOf(songs.id, songIDs)))
        : [],
      ...songDataKeys.map(({ field, keys }) =>
        q
          .select()
          .from(songs)
          .where(and(eq(songs.game, game), anyOf(jsonDataField(songs.data, field), keys))),
      ),
    ]);

    // Chart-keyed lookups.
    const inGameIDs = unique(of('chartInGameID').map((c) => Number(c.identifier)));
    const hashes = unique(of('chartHash').map(key));
    const chartDataKeys = [...groupBy(of('chartData'), chartDataField)].map(([field, cs]) => ({ field, keys: unique(cs.map(key)) }));
    const [byInGameID, byHash, ...byChartData] = await Promise.all([
      inGameIDs.length
        ? q
            .select()
            .from(charts)
            .where(and(eq(charts.game, game), eq(charts.playtype, playtype), overlaps(charts.inGameIDs, inGameIDs)))
        : [],
      hashes.length
        ? q
            .select()
            .from(charts)
            .where(and(eq(charts.game, game), overlaps(charts.chartHashes, hashes)))
        : [],
      ...chartDataKeys.map(({ field, keys }) =>
        q
          .select()
          .from(charts)
          .where(and(eq(charts.game, game), eq(charts.playtype, playtype), anyOf(jsonDataField(charts.data, field), keys))),
      ),
    ]);

    const matchedSongs = [...byTitle, ...byID, ...bySongData.flat()];
    const matchedSongIDs = unique(matchedSongs.map((s) => s.id));
    const songCharts = matchedSongIDs.length
      ? await q
          .select()
          .from(charts)
          .where(and(eq(charts.game, game), eq(charts.playtype, playtype), anyOf(charts.songID, matchedSongIDs)))
      : [];
    const knownSongs = new Map(matchedSongs.map((s) => [s.id, s]));
    const missingSongIDs = unique([...byInGameID, ...byHash, ...byChartData.flat()].map((c) => c.songID)).filter((id) => !knownSongs.has(id));
    if (missingSongIDs.length)
      for (const s of await q
        .select()
        .from(songs)
        .where(and(eq(songs.game, game), anyOf(songs.id, missingSongIDs))))
        knownSongs.set(s.id, s);

    const chartsBySong = groupBy(songCharts, (c) => c.songID);
    const titleIndex = groupBy(
      byTitle.flatMap((s) => s.matchTitles.map((t) => ({ t, s }))),
      (x) => x.t,
    );
    const byInGameKey = groupBy(
      byInGameID.flatMap((c) => c.inGameIDs.map((id) => ({ key: `${id}|${c.difficulty}`, c }))),
      (x) => x.key,
    );
    const byHashKey = groupBy(
      byHash.flatMap((c) => c.chartHashes.map((h) => ({ h, c }))),
      (x) => x.h,
    );
    const byDataKey = new Map(songDataKeys.map(({ field }, i) => [field, new Map(bySongData[i].map((s) => [s.data[field], s]))]));
    const songByID = new Map(byID.map((s) => [s.id, s]));
    const byChartDataKey = new Map(chartDataKeys.map(({ field }, i) => [field, groupBy(byChartData[i], (c) => `${String(c.data[field])}|${c.difficulty}`)]));

    const hashPerPlaytype = findGame(game)?.uniqueChartKeys?.some((k) => k.perPlaytype) ?? false;
    const versionOK = (c: ChartRow) => (version === null ? c.isPrimary : c.versions.includes(version));
    const versionNote = version === null ? '' : ` in version ${version}`;
    const found = (c: ChartRow): ChartMatch => {
      const song = knownSongs.get(c.songID);
      return song ? { kind: 'found', chart: c, song } : { kind: 'notFound', message: `The song of chart ${c.chartID} is missing.` };
    };
    const chartOfSong = (song: SongRow, difficulty: string): ChartMatch => {
      const chart = (chartsBySong.get(song.id) ?? []).find((c) => c.difficulty === difficulty && versionOK(c));
      return chart ? found(chart) : { kind: 'notFound', message: `'${song.title}' has no ${playtype} ${difficulty} chart${versionNote}.` };
    };

    return candidates.map((c): ChartMatch => {
      const lookup = lookupOf(c);
      switch (lookup.kind) {
        case 'songTitle': {
          let matches = (titleIndex.get(key(c)) ?? []).map((x) => x.s);
          const artist = c.artist;
          if (matches.length > 1 && artist !== null) matches = matches.filter((s) => s.artist.toLowerCase() === artist.toLowerCase());
          if (matches.length === 0) return { kind: 'notFound', message: `No ${game} song is titled '${c.identifier}'.` };
          if (matches.length > 1)
            return { kind: 'invalid', message: `The title '${c.identifier}' matches ${matches.length} ${game} songs; add 'artist' to say which.` };
          return chartOfSong(matches[0], c.difficulty!);
        }
        case 'songID': {
          const song = songByID.get(Number(c.identifier));
          return song ? chartOfSong(song, c.difficulty!) : { kind: 'notFound', message: `No ${game} song has id ${c.identifier}.` };
        }
        case 'songData': {
          const song = byDataKey.get(lookup.field)?.get(key(c));
          return song ? chartOfSong(song, c.difficulty!) : { kind: 'notFound', message: `No ${game} song has ${lookup.what} ${c.identifier}.` };
        }
        case 'chartInGameID': {
          const id = Number(c.identifier);
          const difficulties = difficultiesOf(lookup, c.difficulty!);
          const chart = difficulties.flatMap((d) => byInGameKey.get(`${id}|${d}`) ?? []).find((x) => versionOK(x.c))?.c;
          return chart ? found(chart) : { kind: 'notFound', message: `No ${playtype} ${c.difficulty} chart has in-game id ${id}${versionNote}.` };
        }
        case 'chartData': {
          const chart = (byChartDataKey.get(lookup.field)?.get(`${c.identifier}|${c.difficulty}`) ?? []).find(versionOK);
          return chart
            ? found(chart)
            : { kind: 'notFound', message: `No ${playtype} ${c.difficulty} chart has ${lookup.what} '${c.identifier}'${versionNote}.` };
        }
        case 'chartHash': {
          const matching = (byHashKey.get(key(c)) ?? []).map((x) => x.c);
          const chart = matching.find((ch) => ch.playtype === playtype);
          if (chart) return found(chart);
          // Where a hash names one chart per playtype (PMS, USC), another playtype's chart is no answer.
          if (matching.length && !hashPerPlaytype)
            return { kind: 'invalid', message: `The chart with hash ${c.identifier} is a ${matching[0].playtype} chart, not ${playtype}.` };
          return { kind: 'notFound', message: `No ${game} chart has the hash ${c.identifier}.` };
        }
      }
    });
  }
}

import { Injectable } from '@nestjs/common';
import { and, eq, sql } from 'drizzle-orm';
import { anyOf, overlaps } from '../database/bulk-write.js';
import { Database } from '../database/database.js';
import { charts, songs } from '../database/schema.js';
import { findGame } from '../game-support/registry.js';
import type { GptSupport, MatchType } from '../game-support/types.js';
import { groupBy } from '../common/collections.js';
import type { ChartRow, SongRow } from '../presenters/catalog.presenter.js';

/** sdvxInGameID's ANY_INF stands for the fourth difficulty, whatever a version calls it. */
export const ANY_INF = 'ANY_INF';
export const INF_DIFFICULTIES = ['INF', 'GRV', 'HVN', 'VVD', 'XCD'];

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
  constructor(private readonly database: Database) {}

  /**
   * Finds the chart of every candidate with one query per match type in use (plus one for the
   * charts of matched songs and one for the songs of matched charts), never one per score.
   * With a version, a chart must list it; without one, only primary charts match.
   */
  async resolve(gpt: GptSupport, version: string | null, candidates: readonly ChartMatchCandidate[]): Promise<ChartMatch[]> {
    const q = this.database.db;
    const { game, playtype } = gpt;
    const of = (type: MatchType) => candidates.filter((c) => c.matchType === type);

    // Song-keyed match types.
    const titleKeys = unique(of('songTitle').map((c) => c.identifier.toLowerCase()));
    const songIDs = unique(of('serviceSongID').map((c) => Number(c.identifier)));
    const ddrHashes = unique(of('ddrSongHash').map((c) => c.identifier));
    const [byTitle, byID, byDdrHash] = await Promise.all([
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
      ddrHashes.length
        ? q
            .select()
            .from(songs)
            .where(and(eq(songs.game, game), anyOf(sql`${songs.data} ->> 'ddrSongHash'`, ddrHashes)))
        : [],
    ]);

    // Chart-keyed match types.
    const inGameIDs = unique([...of('inGameID'), ...of('sdvxInGameID')].map((c) => Number(c.identifier)));
    const hashes = unique([...of('bmsChartHash'), ...of('uscChartHash'), ...of('itgChartHash'), ...of('iidxChartHash')].map((c) => c.identifier.toLowerCase()));
    const [byInGameID, byHash] = await Promise.all([
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
    ]);

    const matchedSongIDs = unique([...byTitle, ...byID, ...byDdrHash].map((s) => s.id));
    const songCharts = matchedSongIDs.length
      ? await q
          .select()
          .from(charts)
          .where(and(eq(charts.game, game), eq(charts.playtype, playtype), anyOf(charts.songID, matchedSongIDs)))
      : [];
    const knownSongs = new Map([...byTitle, ...byID, ...byDdrHash].map((s) => [s.id, s]));
    const missingSongIDs = unique([...byInGameID, ...byHash].map((c) => c.songID)).filter((id) => !knownSongs.has(id));
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
    const byDdrKey = new Map(byDdrHash.map((s) => [s.data.ddrSongHash, s]));
    const songIDSet = new Set(byID.map((s) => s.id));

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
      switch (c.matchType) {
        case 'songTitle': {
          let matches = (titleIndex.get(c.identifier.toLowerCase()) ?? []).map((x) => x.s);
          const artist = c.artist;
          if (matches.length > 1 && artist !== null) matches = matches.filter((s) => s.artist.toLowerCase() === artist.toLowerCase());
          if (matches.length === 0) return { kind: 'notFound', message: `No ${game} song is titled '${c.identifier}'.` };
          if (matches.length > 1)
            return { kind: 'invalid', message: `The title '${c.identifier}' matches ${matches.length} ${game} songs; add 'artist' to say which.` };
          return chartOfSong(matches[0], c.difficulty!);
        }
        case 'serviceSongID': {
          const song = knownSongs.get(Number(c.identifier));
          return song && songIDSet.has(song.id) ? chartOfSong(song, c.difficulty!) : { kind: 'notFound', message: `No ${game} song has id ${c.identifier}.` };
        }
        case 'ddrSongHash': {
          const song = byDdrKey.get(c.identifier);
          return song ? chartOfSong(song, c.difficulty!) : { kind: 'notFound', message: `No ${game} song has the song hash ${c.identifier}.` };
        }
        case 'inGameID':
        case 'sdvxInGameID': {
          const id = Number(c.identifier);
          const difficulties = c.difficulty === ANY_INF ? INF_DIFFICULTIES : [c.difficulty!];
          const chart = difficulties.flatMap((d) => byInGameKey.get(`${id}|${d}`) ?? []).find((x) => versionOK(x.c))?.c;
          return chart ? found(chart) : { kind: 'notFound', message: `No ${playtype} ${c.difficulty} chart has in-game id ${id}${versionNote}.` };
        }
        case 'bmsChartHash':
        case 'uscChartHash':
        case 'itgChartHash':
        case 'iidxChartHash': {
          const hash = c.identifier.toLowerCase();
          const matching = (byHashKey.get(hash) ?? []).map((x) => x.c);
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

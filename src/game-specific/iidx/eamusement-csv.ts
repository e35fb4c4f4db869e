import type { ChartRow, PbReadRow, SongRow } from '../../database/schema.js';
import { LAMPS, LAYOUTS, VERSION_NAMES } from '../../imports/import-types/eamusement-iidx-csv/tables.js';

/** The difficulties of the HEROIC VERSE onwards layout (41 cells), the one the export writes. */
const DIFFICULTIES = LAYOUTS[41];

/** e-amusement's header of that layout (the importer reads only its cell count). */
export const EAMUSEMENT_CSV_HEADER = [
  'バージョン',
  'タイトル',
  'ジャンル',
  'アーティスト',
  'プレー回数',
  ...DIFFICULTIES.flatMap((d) => ['難易度', 'スコア', 'PGreat', 'Great', 'ミスカウント', 'クリアタイプ', 'DJ LEVEL'].map((cell) => `${d} ${cell}`)),
  '最終プレー日時',
].join(',');

/** The iidx lamp → e-amusement's クリアタイプ (the importer's table, reversed). */
const CLEAR_TYPES: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(LAMPS).map(([clearType, lamp]) => [lamp, clearType]));

/** Version number → e-amusement's name for it. */
const VERSION_BY_NUMBER = new Map(Object.entries(VERSION_NAMES).map(([name, n]) => [n, name]));

const JST_OFFSET_MS = 9 * 60 * 60 * 1000;

/**
 * The song's debut version as e-amusement names it, from its displayVersion ('27', or '27-omni' and
 * the like by its number). A song without a known one is written as the first version: a real name
 * (the importer refuses unknown ones), and the oldest, so it never raises the version the importer
 * takes from the file's newest song.
 */
export function versionName(displayVersion: unknown): string {
  const n = typeof displayVersion === 'string' ? Number.parseInt(displayVersion, 10) : NaN;
  return VERSION_BY_NUMBER.get(n) ?? VERSION_BY_NUMBER.get(1)!;
}

/** Unix ms → e-amusement's last-played time, `YYYY-MM-DD HH:MM` in Japan time. */
export function jstMinute(ms: number): string {
  const d = new Date(ms + JST_OFFSET_MS);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
}

/** A cell: e-amusement's CSV quotes nothing, so line breaks (which would end the row) become spaces. */
const cell = (value: string) => value.replace(/[\r\n]+/g, ' ');

/** One song's PBs with its charts of the playtype. */
export interface CsvSong {
  song: SongRow;
  charts: readonly ChartRow[];
  pbs: readonly PbReadRow[];
}

/**
 * The player's PBs as e-amusement's IIDX CSV (the 41-cell layout the e-amusement CSV import
 * reads), one row per song with a PB: each difficulty block holds the chart's level and the PB's
 * EX score, PGREAT, GREAT, miss count (BP; --- when unknown), clear type and DJ LEVEL (MAX and MAX-
 * as AAA, which e-amusement tops out at); a chart without a PB is NO PLAY, a difficulty the song
 * lacks has level 0. The last played time is the latest PB's, in Japan time to the minute (as
 * e-amusement writes it), or empty when no PB has a time. Titles keep their commas, unescaped as
 * e-amusement does: the importer tells them apart from the cell separators.
 */
export function eamusementCsv(songs: readonly CsvSong[]): string {
  const rows = [EAMUSEMENT_CSV_HEADER];
  for (const { song, charts, pbs } of songs) {
    const genre = typeof song.data.genre === 'string' ? song.data.genre : '';
    const row = [versionName(song.data.displayVersion), cell(song.title), cell(genre), cell(song.artist), '0'];
    let lastPlayed: number | null = null;
    for (const difficulty of DIFFICULTIES) {
      const chart = charts.find((c) => c.difficulty === difficulty);
      const pb = chart && pbs.find((p) => p.chartID === chart.chartID);
      if (!chart || !pb) {
        row.push(chart?.level ?? '0', '0', '0', '0', '---', 'NO PLAY', '---');
        continue;
      }
      const { score, lamp, grade, judgements, optional } = pb.scoreData;
      const bp = optional.bp;
      row.push(
        chart.level,
        String(score),
        String(judgements.pgreat ?? 0),
        String(judgements.great ?? 0),
        typeof bp === 'number' ? String(bp) : '---',
        CLEAR_TYPES[lamp] ?? lamp,
        grade === 'MAX' || grade === 'MAX-' ? 'AAA' : grade,
      );
      if (pb.timeAchieved !== null && (lastPlayed === null || pb.timeAchieved > lastPlayed)) lastPlayed = pb.timeAchieved;
    }
    row.push(lastPlayed === null ? '' : jstMinute(lastPlayed));
    rows.push(row.join(','));
  }
  return rows.join('\n');
}

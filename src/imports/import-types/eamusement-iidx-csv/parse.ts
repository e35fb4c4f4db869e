import { HttpStatus } from '@nestjs/common';
import { z } from 'zod';
import { IIDX } from '../../../game-support/iidx/index.js';
import { ImportRejectedError } from '../../import-errors.js';
import type { ParsedImport } from '../types.js';
import { shown, type IidxCsvInput } from './read.js';
import { BLOCK_CELLS, LAYOUTS, LEADING_CELLS, VERSION_NAMES } from './tables.js';

/** One difficulty block of a row, as the CSV spells it; the converter checks and maps the cells. */
export interface ChartItem {
  kind: 'chart';
  line: number;
  /** The song's title, or why the row's title cannot be read. */
  title: string | { problem: string };
  artist: string | null;
  difficulty: string;
  level: string;
  exScore: string;
  pgreat: string;
  great: string;
  missCount: string;
  clearType: string;
  /** Last played, Japan time. */
  lastPlayed: string;
}

/** A row whose cells cannot be lined up with the header's: an error for that row alone. */
export interface BadRowItem {
  kind: 'badRow';
  line: number;
  message: string;
}

export type IidxCsvItem = ChartItem | BadRowItem;

const INPUT = z.object({
  playtype: z.enum(['SP', 'DP']),
  headerCells: z.number().int(),
  rows: z.array(z.object({ line: z.number().int(), cells: z.array(z.string()) })),
});

const LEGGENDARIA_SUFFIX = /†(LEGGENDARIA)?$/;

type Names = { title: string; artist: string | null } | { problem: string };

/**
 * Title and artist from the cells between the version and the play count (title, genre, artist).
 * With more cells than the header, some of these hold commas. The cells after the artist are
 * anchored to the row's end, so only the two boundaries title|genre and genre|artist are unknown:
 * every choice of them is a reading, except that no cell starts with a space (a comma followed by
 * a space is punctuation) and none is empty. The title is read when all readings agree on it.
 */
function readNames(line: number, middle: readonly string[]): Names {
  if (middle.length === 3) {
    const title = middle[0].trim();
    return title ? { title, artist: middle[2].trim() || null } : { problem: `Row ${line} has no title.` };
  }
  const boundaries = middle.slice(0, -1).flatMap((_, i) => (/^\s/.test(middle[i + 1]) ? [] : [i]));
  const titles = new Set<string>();
  const artists = new Set<string>();
  for (const [n, a] of boundaries.entries()) {
    for (const b of boundaries.slice(n + 1)) {
      const title = middle
        .slice(0, a + 1)
        .join(',')
        .trim();
      const genre = middle
        .slice(a + 1, b + 1)
        .join(',')
        .trim();
      const artist = middle
        .slice(b + 1)
        .join(',')
        .trim();
      if (title && genre && artist) {
        titles.add(title);
        artists.add(artist);
      }
    }
  }
  const extra = middle.length - 3;
  const cells = `${extra} more cell${extra > 1 ? 's' : ''} than the header`;
  if (titles.size === 1) return { title: [...titles][0], artist: artists.size === 1 ? [...artists][0] : null };
  if (titles.size === 0) return { problem: `Row ${line} has ${cells}, and no split of its title, genre and artist at the extra commas is consistent.` };
  const options = [...titles].slice(0, 3).map(shown).join(', ');
  return { problem: `Row ${line} has ${cells}: its title cannot be told from its genre and artist at the extra commas (it could be ${options}).` };
}

/**
 * Checks the CSV as a whole and lists one item per difficulty block of each row. The layout comes
 * from the header's cell count; the import's version is the newest debut version of any song in
 * the file (Konami's CSV does not say which game exported it). An unknown version name, layout or
 * version rejects the file; a row whose cells cannot be lined up is an error for that row alone.
 */
export function parseIidxCsv(input: unknown, service: string, maxScores: number): ParsedImport<IidxCsvItem> {
  const checked = INPUT.safeParse(input);
  if (!checked.success) throw new ImportRejectedError('The stored input of this import is not a read e-amusement IIDX CSV.');
  const { playtype, headerCells, rows } = checked.data as IidxCsvInput;
  const difficulties = Object.hasOwn(LAYOUTS, headerCells) ? LAYOUTS[headerCells] : undefined;
  if (!difficulties) {
    throw new ImportRejectedError(
      `Invalid CSV provided: its header has ${headerCells} cells, but an e-amusement IIDX CSV has 27 (before HEROIC VERSE) or 41 (HEROIC VERSE onwards).`,
    );
  }

  const items: IidxCsvItem[] = [];
  let newest = 0;
  for (const { line, cells } of rows) {
    const extra = cells.length - headerCells;
    if (extra < 0 || extra > headerCells) {
      const count = extra > headerCells ? `more than ${headerCells * 2}` : String(cells.length);
      items.push({ kind: 'badRow', line, message: `Row ${line} has ${count} cells, but the header has ${headerCells}.` });
      continue;
    }
    const versionName = cells[0].trim();
    const version = Object.hasOwn(VERSION_NAMES, versionName) ? VERSION_NAMES[versionName] : undefined;
    if (version === undefined) throw new ImportRejectedError(`Invalid/Unsupported Eamusement Version Name ${shown(versionName)} (row ${line}).`);
    newest = Math.max(newest, version);

    const names = readNames(line, cells.slice(1, 4 + extra));
    let title: ChartItem['title'] = 'problem' in names ? names : names.title;
    let leggendaria = false;
    // Before HEROIC VERSE a leggendaria was listed as a song of its own, titled with a dagger.
    if (headerCells === 27 && typeof title === 'string' && LEGGENDARIA_SUFFIX.test(title)) {
      title = title.replace(LEGGENDARIA_SUFFIX, '').trimEnd();
      leggendaria = true;
    }
    const artist = 'problem' in names ? null : names.artist;
    const lastPlayed = cells[cells.length - 1];
    difficulties.forEach((difficulty, k) => {
      const at = LEADING_CELLS + extra + k * BLOCK_CELLS;
      items.push({
        kind: 'chart',
        line,
        title,
        artist,
        difficulty: leggendaria ? 'LEGGENDARIA' : difficulty,
        level: cells[at],
        exScore: cells[at + 1],
        pgreat: cells[at + 2],
        great: cells[at + 3],
        missCount: cells[at + 4],
        clearType: cells[at + 5],
        lastPlayed,
      });
    });
  }

  if (newest === 0) throw new ImportRejectedError(`Invalid CSV provided: no row has the header's ${headerCells} cells, so there is no score to import.`);
  const gpt = IIDX.gpts[playtype];
  const version = String(newest);
  if (!Object.hasOwn(gpt.versions, version)) {
    throw new ImportRejectedError(
      `Unsupported version '${version}'. Is your CSV properly filled out? Its newest song must be from tricoro (20) or a later version.`,
    );
  }
  if (items.length > maxScores) {
    throw new ImportRejectedError(
      `This CSV has ${items.length} charts; the limit is ${maxScores} per import. Split it into several imports.`,
      HttpStatus.PAYLOAD_TOO_LARGE,
    );
  }
  return { gpt, context: { service, version }, classes: {}, items };
}

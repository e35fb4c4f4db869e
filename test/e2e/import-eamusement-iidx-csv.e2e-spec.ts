import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ImportDocument } from '../../src/presenters/import.presenter.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { importFormatContract } from '../support/import-format-contract.js';
import { errorsByIndex, expectOnlyClientAnswers, loadFixtureCatalog, player, refusedFile, seededRandom, uploadFile, type Player } from '../support/imports.js';
import { storedOrphans, storedScores } from '../support/stored.js';

const FIXTURES = path.resolve('test/fixtures/imports/eamusement-iidx-csv');
const WORKED = fs.readFileSync(path.join(FIXTURES, 'worked-example-27.csv'));
const HEADER_41 = Array.from({ length: 41 }, (_, i) => `h${i}`).join(',');

type Block = [level: string, ex: string, pgreat: string, great: string, miss: string, clearType: string];
const NONE: Block = ['0', '0', '0', '0', '---', 'NO PLAY'];
/** A 41-cell row: version, title, genre, artist, play count, five blocks, last played. */
const row41 = (version: string, names: string, blocks: Block[], lastPlayed = '2024-01-10 23:59') =>
  [version, names, '1', ...blocks.map((b) => [...b, '---']).flat(), lastPlayed].join(',');

interface Upload {
  type?: string;
  playtype?: string;
  filename?: string;
  fields?: Record<string, string>;
  headers?: Record<string, string>;
}

describe('file/eamusement-iidx-csv and file/pli-iidx-csv', () => {
  let t: TestApp;
  let p: Player;

  function upload(
    token: string | null,
    file: Buffer | null,
    { type = 'file/eamusement-iidx-csv', playtype = 'SP', filename = 'scores.csv', fields = {}, headers = {} }: Upload = {},
  ) {
    return uploadFile(t, token, type, file, { filename, contentType: 'text/csv', fields: { ...(playtype ? { playtype } : {}), ...fields }, headers });
  }
  async function imported(token: string, file: Buffer, options: Upload = {}): Promise<ImportDocument> {
    const res = await upload(token, file, options);
    if (res.status !== 200) throw new Error(`import failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as ImportDocument;
  }
  const ugpt = (who: Player, playtype = 'SP', rest = '') => t.http().get(`/api/v1/users/${who.user.id}/games/iidx/${playtype}${rest}`);

  beforeAll(async () => {
    t = await createTestApp();
    await loadFixtureCatalog(t.database, FIXTURES, ['iidx']);
    p = await player(t);
  });
  afterAll(async () => {
    await t.close();
  });

  describe('the worked example (27 cells, SP)', () => {
    let doc: ImportDocument;
    beforeAll(async () => {
      doc = await imported(p.token, WORKED, { filename: 'my_scores.csv' });
    });

    it('imports 2 scores and reports the EX score over the chart maximum', async () => {
      expect(doc).toMatchObject({ importType: 'file/eamusement-iidx-csv', game: 'iidx', idStrings: ['iidx:SP'] });
      expect(doc.scoreIDs).toHaveLength(2);
      // Items: Alpha NORMAL, HYPER, ANOTHER, Beta NORMAL, HYPER, ANOTHER.
      expect([...errorsByIndex(doc)]).toEqual([
        [2, { type: 'InvalidDatapoint', message: 'scores[2]: score 2001 is out of range: it must be between 0 and 2000.' }],
      ]);
      const rows = await storedScores(t, p.user.id);
      expect(
        rows.map((s) => [s.scoreData.score, s.scoreData.percent, s.scoreData.grade, s.scoreData.lamp, s.scoreData.optional, s.timeAchieved, s.service]),
      ).toEqual([
        [1500, 75, 'A', 'HARD CLEAR', { bp: 12 }, 1622550600000, 'e-amusement'],
        [900, 45, 'C', 'FAILED', { bp: 40 }, 1622550600000, 'e-amusement'],
      ]);
      expect(rows.map((s) => s.scoreData.judgements)).toEqual([
        { pgreat: 600, great: 300 },
        { pgreat: 400, great: 100 },
      ]);
    });

    it('shows the scores, PBs and session in the UGPT routes', async () => {
      expect((await ugpt(p)).body).toMatchObject({ totalScores: 2 });
      const pbs = (await ugpt(p, 'SP', '/pbs/all')).body as { pbs: unknown[]; songs: { title: string }[] };
      expect(pbs.pbs).toHaveLength(2);
      expect(pbs.songs.map((s) => s.title).sort()).toEqual(['Alpha Song', 'Beta Song']);
      expect(doc.createdSessions).toHaveLength(1);
      expect((await ugpt(p, 'SP', '/sessions/recent')).body).toHaveLength(1);
    });

    it('imports nothing new from a later export that only re-stamps the last-played times', async () => {
      const restamped = Buffer.from(WORKED.toString('utf8').replaceAll('2021-06-01 21:30', '2022-09-14 18:05'));
      const later = await imported(p.token, restamped, { filename: 'my_scores.csv' });
      expect(later.scoreIDs).toEqual([]);
      expect(await storedScores(t, p.user.id)).toHaveLength(2);
    });
  });

  describe('a 41-cell PLI CSV', () => {
    let q: Player;
    let doc: ImportDocument;
    const file = Buffer.from(
      [
        HEADER_41,
        row41('RESIDENT', 'Gamma,TECHNO,Gamma Artist', [
          ['2', '300', '100', '100', '5', 'CLEAR'],
          ['4', '0', '0', '0', '---', 'NO PLAY'],
          ['8', '1800', '850', '100', '3', 'EX HARD CLEAR'],
          ['11', '1950', '960', '30', '0', 'FULLCOMBO CLEAR'],
          ['12', '1000', '400', '200', '50', 'ASSIST CLEAR'],
        ]),
        row41('CastHour', 'Hello, World,POP,Comma Artist', [NONE, ['4', '1200', '500', '200', '10', 'EASY CLEAR'], NONE, NONE, NONE], '2024-01-10 23:40'),
        row41('SPADA', 'Twin,RAVE,DJ Two', [NONE, NONE, ['8', '1000', '500', '0', '20', 'CLEAR'], NONE, NONE], '2024-01-10 23:30'),
        row41('HEROIC VERSE', 'A,B,POP,Artist', [NONE, ['4', '100', '50', '0', '5', 'FAILED'], NONE, NONE, NONE]),
        'RESIDENT,Alpha Song,G,A,1,2',
        row41('RESIDENT', 'Alpha Song,G,A', [NONE, ['4', '100', '50', '0', '5', 'PERFECT'], NONE, NONE, NONE]),
        row41('RESIDENT', 'Nobody,G,A', [NONE, NONE, NONE, ['11', '500', '200', '100', '7', 'CLEAR'], NONE]),
        row41('HEROIC VERSE', 'Delta,G,A', [NONE, NONE, NONE, ['10', '1200', '500', '200', '9', 'CLEAR'], ['12', '1000', '500', '0', '1', 'HARD CLEAR']]),
        '',
      ].join('\r\n'),
    );

    beforeAll(async () => {
      q = await player(t);
      doc = await imported(q.token, file, { type: 'file/pli-iidx-csv' });
    });

    it('imports the played charts of version 30 (RESIDENT, the newest debut), titles with commas included', async () => {
      const rows = await storedScores(t, q.user.id);
      const songs = new Map([
        [3, 'Hello, World'],
        [5, 'Gamma'],
        [7, 'Twin (DJ Two)'],
        [4, 'Delta'],
      ]);
      expect(
        rows
          .map((s) => [songs.get(s.songID), s.scoreData.score, s.scoreData.lamp, s.scoreData.grade, s.service])
          .sort((a, b) => String(a[0]).localeCompare(String(b[0])) || Number(a[1]) - Number(b[1])),
      ).toEqual([
        ['Delta', 1200, 'CLEAR', 'B', 'PLI'],
        ['Gamma', 1000, 'ASSIST CLEAR', 'C', 'PLI'],
        ['Gamma', 1800, 'EX HARD CLEAR', 'AAA', 'PLI'],
        ['Gamma', 1950, 'FULL COMBO', 'MAX-', 'PLI'],
        ['Hello, World', 1200, 'EASY CLEAR', 'B', 'PLI'],
        ['Twin (DJ Two)', 1000, 'CLEAR', 'C', 'PLI'],
      ]);
      expect(doc.scoreIDs).toHaveLength(6);
      // 23:59 JST is 14:59 UTC.
      expect(Math.max(...rows.map((s) => s.timeAchieved ?? 0))).toBe(Date.UTC(2024, 0, 10, 14, 59));
    });

    it('reports each bad row or block on its own, and keeps unknown songs and charts as orphans', async () => {
      // Items: five per row in file order; the short row (line 6) is one item, so later rows start one after.
      const errors = errorsByIndex(doc);
      expect([...errors.entries()].map(([i, e]) => [i, e.type, e.message])).toEqual([
        [
          16,
          'InvalidDatapoint',
          "scores[16]: Row 5 has 1 more cell than the header: its title cannot be told from its genre and artist at the extra commas (it could be 'A', 'A,B').",
        ],
        [20, 'InvalidDatapoint', 'scores[20]: Row 6 has 6 cells, but the header has 41.'],
        [22, 'InvalidDatapoint', expect.stringMatching(/^scores\[22\]: Row 7 NORMAL: unknown clear type 'PERFECT'/)],
        [29, 'SongOrChartNotFound', "scores[29]: No iidx song is titled 'Nobody'. The score is kept as an orphan and will be retried when the chart is known."],
        [
          35,
          'SongOrChartNotFound',
          "scores[35]: 'Delta' has no SP LEGGENDARIA chart in version 30. The score is kept as an orphan and will be retried when the chart is known.",
        ],
      ]);
      expect(await storedOrphans(t, q.user.id)).toHaveLength(2);
    });
  });

  describe('DP, the file name check and leggendarias of the 27-cell layout', () => {
    const header27 = Array.from({ length: 27 }, (_, i) => `h${i}`).join(',');
    const dpFile = Buffer.from(
      `${header27}\nBISTROVER,Alpha Song,G,A,3,0,0,0,0,---,NO PLAY,---,8,1000,400,200,30,CLEAR,B,11,1300,600,100,22,HARD CLEAR,A,2022-03-03 10:00\n`,
    );

    it('imports DP from a DP-named file', async () => {
      const d = await player(t);
      const doc = await imported(d.token, dpFile, { playtype: 'DP', filename: '12345678_dp_score.csv' });
      expect(doc.idStrings).toEqual(['iidx:DP']);
      expect(doc.scoreIDs).toHaveLength(2);
      expect((await ugpt(d, 'DP')).body).toMatchObject({ totalScores: 2 });
    });

    it('refuses a DP-named file imported as SP, unless assertPlaytypeCorrect is sent', async () => {
      const d = await player(t);
      const refused = await upload(d.token, dpFile, { playtype: 'SP', filename: '12345678_dp_score.csv' });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(/^Safety Triggered: the file name '12345678_dp_score.csv' says DP, but playtype is SP/);
      const doc = await imported(d.token, dpFile, { playtype: 'SP', filename: '12345678_dp_score.csv', fields: { assertPlaytypeCorrect: 'true' } });
      expect(doc.idStrings).toEqual(['iidx:SP']);
      expect(doc.scoreIDs).toHaveLength(2);
    });

    it('reads a dagger title as its song’s LEGGENDARIA, charted in that version', async () => {
      const d = await player(t);
      const file = Buffer.from(
        `${header27}\nHEROIC VERSE,Delta†,G,A,3,0,0,0,0,---,NO PLAY,---,0,0,0,0,---,NO PLAY,---,12,1500,700,100,40,CLEAR,A,2022-03-03 10:00\n`,
      );
      const doc = await imported(d.token, file);
      expect(doc.errors).toEqual([]);
      const [score] = await storedScores(t, d.user.id);
      const chart = (await ugpt(d, 'SP', `/pbs/${score.chartID}`)).body as { chart: { difficulty: string; songID: number } };
      expect(chart.chart).toMatchObject({ difficulty: 'LEGGENDARIA', songID: 4 });
    });
  });

  importFormatContract({
    importType: 'file/eamusement-iidx-csv',
    app: () => t,
    send: (token, file, headers) => upload(token, file, { filename: 'my_scores.csv', headers }),
    // The worked example: 2 scores, one session, and an EX score over the chart maximum (scores[2]) reported every time (it is stored nowhere).
    input: WORKED,
    stores: { scores: 2, sessions: 1 },
    readsUserIntent: true,
    sameInputLater: true,
    answers: {
      imported: { status: 200, body: expect.objectContaining({ importType: 'file/eamusement-iidx-csv', idStrings: ['iidx:SP'] }) },
      duplicate: {
        status: 200,
        body: expect.objectContaining({
          scoreIDs: [],
          createdSessions: [],
          errors: [expect.objectContaining({ message: expect.stringMatching(/^scores\[2\]: /) })],
        }),
      },
      unauthenticated: { status: 401 },
      forbidden: { status: 403 },
    },
    refused: (
      [
        ['no file', null, {}, /Expected the CSV as a file in the multipart field 'scoreData'/],
        ['no playtype', WORKED, { playtype: '' }, /The form field playtype is required: SP or DP/],
        ['a bad playtype', WORKED, { playtype: 'Single' }, /Invalid playtype of 'Single' given/],
        ['an empty file', Buffer.alloc(0), {}, /the file is empty/],
        ['a header of the wrong length', Buffer.from('a,b,c\nRESIDENT,x,y\n'), {}, /header has 3 cells, but an e-amusement IIDX CSV has 27/],
        [
          'an unknown version name',
          Buffer.from(WORKED.toString('utf8').replace('BISTROVER', 'BISTRO')),
          {},
          /Invalid\/Unsupported Eamusement Version Name 'BISTRO' \(row 3\)/,
        ],
        [
          'only songs older than tricoro',
          Buffer.from(WORKED.toString('utf8').replace('HEROIC VERSE', 'GOLD').replace('BISTROVER', 'Lincle')),
          {},
          /Unsupported version '19'/,
        ],
        ['a JSON file', Buffer.from('{"meta":{},"scores":[]}'), {}, /header has 2 cells/],
      ] as [string, Buffer | null, Upload, RegExp][]
    ).map(([name, file, options, message]) => ({ name, send: (token: string) => upload(token, file, options), answer: refusedFile(message) })),
  });

  importFormatContract({
    importType: 'file/pli-iidx-csv',
    app: () => t,
    send: (token, file, headers) => upload(token, file, { type: 'file/pli-iidx-csv', headers }),
    input: Buffer.from(
      [HEADER_41, row41('RESIDENT', 'Gamma,TECHNO,Gamma Artist', [NONE, NONE, ['8', '1800', '850', '100', '3', 'EX HARD CLEAR'], NONE, NONE]), ''].join('\r\n'),
    ),
    stores: { scores: 1, sessions: 1 },
    readsUserIntent: true,
    sameInputLater: true,
    answers: {
      imported: { status: 200, body: expect.objectContaining({ importType: 'file/pli-iidx-csv', errors: [] }) },
      duplicate: { status: 200, body: expect.objectContaining({ scoreIDs: [], createdSessions: [] }) },
      unauthenticated: { status: 401 },
      forbidden: { status: 403 },
    },
  });

  describe('bad input', () => {
    let b: Player;
    beforeAll(async () => {
      b = await player(t);
    });

    it('answers random and truncated files with 4xx or a document, never 500', async () => {
      const next = seededRandom(7);
      const text = WORKED.toString('utf8');
      const files = [
        ...[0, 10, 200, 400, 500, 650, WORKED.length - 5].map((n) => WORKED.subarray(0, n)),
        ...Array.from({ length: 6 }, () => Buffer.from(Array.from({ length: 1 + Math.floor(next() * 600) }, () => Math.floor(next() * 256)))),
        ...Array.from({ length: 6 }, () => Buffer.from(text.replace(/[^\n]/g, (c) => (next() < 0.05 ? String.fromCharCode(Math.floor(next() * 0x3000)) : c)))),
      ];
      await expectOnlyClientAnswers(files, (file) => upload(b.token, file, { playtype: next() < 0.8 ? 'SP' : 'DP' }), [200, 400, 413]);
    });
  });
});

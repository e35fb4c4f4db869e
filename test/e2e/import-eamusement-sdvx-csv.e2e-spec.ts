import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ImportDocument } from '../../src/presenters/import.presenter.js';
import { SeedLoader } from '../../src/seeds/seed-loader.js';
import { SeedSource } from '../../src/seeds/seed-source.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { importFormatContract } from '../support/import-format-contract.js';
import {
  errorsByIndex,
  expectOnlyClientAnswers,
  loadFixtureCatalog,
  mutatedTexts,
  player,
  refusedFile,
  seededRandom,
  uploadFile,
  type Player,
} from '../support/imports.js';
import { countRows, storedOrphans, storedScores } from '../support/stored.js';
import { TACHI_SEEDS } from '../support/tachi-seeds.js';

const FIXTURES = path.resolve('test/fixtures/imports/eamusement-sdvx-csv');
const CSV = fs.readFileSync(path.join(FIXTURES, 'scores.csv'));
const HEADER = '楽曲名,難易度,楽曲レベル,クリアランク,スコアグレード,ハイスコア,EXスコア,プレー回数,クリア回数,ULTIMATE CHAIN,PERFECT';
const chart = (tag: string) => createHash('sha1').update(`import-fixture-${tag}`).digest('hex');

/** The real Tachi seeds, when this machine has them (never copied into the project). */
const haveSeeds = fs.existsSync(path.join(TACHI_SEEDS, 'charts-sdvx.json')) && fs.existsSync(path.join(TACHI_SEEDS, 'songs-sdvx.json'));

describe('file/eamusement-sdvx-csv through POST /import/file', () => {
  let t: TestApp;
  let p: Player;

  const upload = (token: string | null, file: Buffer | string | null, headers: Record<string, string> = {}) =>
    uploadFile(t, token, 'file/eamusement-sdvx-csv', file, { filename: 'sdvx_scores.csv', contentType: 'text/csv', headers });

  beforeAll(async () => {
    t = await createTestApp();
    if (haveSeeds) {
      const report = await new SeedLoader(t.database).load(new SeedSource(TACHI_SEEDS), { games: ['sdvx'] });
      if (report.rejected.length) throw new Error(`seed records rejected: ${JSON.stringify(report.rejected.slice(0, 3))}`);
    }
    await loadFixtureCatalog(t.database, FIXTURES, ['sdvx']);
    p = await player(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('imports the fixture CSV into the fixture charts: titles with commas, an orphan and per-row errors', async () => {
    const res = await upload(p.token, CSV);
    expect(res.status).toBe(200);
    const doc = res.body as ImportDocument;
    expect(doc.importType).toBe('file/eamusement-sdvx-csv');
    expect(doc.idStrings).toEqual(['sdvx:Single']);
    expect(doc.scoreIDs).toHaveLength(3);
    // No play times in this export: no session.
    expect(doc.createdSessions).toEqual([]);
    const errors = errorsByIndex(doc);
    expect([...errors.keys()].sort()).toEqual([3, 4, 5, 6]);
    expect(errors.get(3)?.type).toBe('SongOrChartNotFound');
    expect(errors.get(3)?.message).toMatch(/^scores\[3\]: No sdvx song is titled 'Not In The Catalog'\./);
    expect(errors.get(4)?.type).toBe('InvalidDatapoint');
    expect(errors.get(4)?.message).toMatch(/PERFECT ULTIMATE CHAIN must have a score of 10,000,000/);
    expect(errors.get(5)).toEqual({
      type: 'InvalidDatapoint',
      message:
        "scores[5]: Row 7: unknown clear rank 'CRASHED': expected one of PLAYED, COMPLETE, EXCESSIVE COMPLETE, MAXXIVE COMPLETE, ULTIMATE CHAIN, PERFECT.",
    });
    expect(errors.get(6)?.message).toMatch(/^scores\[6\]: Row 8 has 12 cells where the header has 11, and read with the extra commas in its title/);

    const stored = await storedScores(t, p.user.id);
    expect(
      stored
        .map((s) => [
          s.chartID,
          s.scoreData.score,
          s.scoreData.lamp,
          s.scoreData.grade,
          s.scoreData.percent,
          s.scoreData.optional.exScore ?? null,
          s.timeAchieved,
          s.service,
        ])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    ).toEqual(
      [
        [chart('sdvx-90001-MXM'), 9_400_000, 'CLEAR', 'AA', 94, 4321, null, 'e-amusement'],
        [chart('sdvx-90002-INF'), 9_750_000, 'EXCESSIVE CLEAR', 'AAA', 97.5, null, null, 'e-amusement'],
        [chart('sdvx-90003-EXH'), 9_950_000, 'ULTIMATE CHAIN', 'S', 99.5, null, null, 'e-amusement'],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    expect((await storedOrphans(t, p.user.id)).length).toBe(1);

    // The player's PBs are there through the UGPT routes.
    const pbs = await t.http().get(`/api/v1/users/${p.user.id}/games/sdvx/Single/pbs/all`);
    expect(pbs.status).toBe(200);
    expect((pbs.body.pbs as { chartID: string }[]).map((b) => b.chartID).sort()).toEqual(
      [chart('sdvx-90001-MXM'), chart('sdvx-90002-INF'), chart('sdvx-90003-EXH')].sort(),
    );
  });

  it('imports nothing new when the same file is sent again (the invalid rows are reported again)', async () => {
    const before = await countRows(t, 'scores', { userID: p.user.id });
    const res = await upload(p.token, CSV);
    expect(res.status).toBe(200);
    expect(res.body.scoreIDs).toEqual([]);
    expect([...errorsByIndex(res.body as ImportDocument).keys()].sort()).toEqual([4, 5, 6]);
    expect(await countRows(t, 'scores', { userID: p.user.id })).toBe(before);
  });

  it("refuses a row whose level is not the matched chart's, after matching (the rest imports)", async () => {
    const q = await player(t);
    const csv = [
      HEADER,
      'Import Fixture Gamma,MAXIMUM,17,COMPLETE,AA,9400000,0,2,1,0,0',
      'Import Fixture Gamma,EXHAUST,16,COMPLETE,A,9100000,0,1,1,0,0',
      'Help me, FIXTURE!!,EXHAUST,12,COMPLETE,A,9100000,0,1,1,0,0',
      'Not In The Catalog,EXHAUST,99,COMPLETE,A,9000000,0,1,1,0,0',
    ].join('\n');
    const res = await upload(q.token, csv);
    expect(res.status).toBe(200);
    const errors = errorsByIndex(res.body as ImportDocument);
    expect(errors.get(0)).toEqual({ type: 'InvalidDatapoint', message: 'scores[0]: Row 2: the CSV says level 17, but the matched MXM chart is level 18.' });
    expect(errors.get(2)).toEqual({ type: 'InvalidDatapoint', message: 'scores[2]: Row 4: the CSV says level 12, but the matched EXH chart is level 13.' });
    // A row without a chart has no level to check: it is kept as an orphan.
    expect(errors.get(3)?.type).toBe('SongOrChartNotFound');
    expect(errors.has(1)).toBe(false);
    expect((await storedScores(t, q.user.id)).map((s) => s.chartID)).toEqual([chart('sdvx-90001-EXH')]);
  });

  importFormatContract({
    importType: 'file/eamusement-sdvx-csv',
    app: () => t,
    send: (token, file, headers) => upload(token, file, headers),
    // No play times in this export: no session.
    input: `${HEADER}\nImport Fixture Gamma,EXHAUST,16,COMPLETE,A,9100000,0,1,1,0,0\n`,
    stores: { scores: 1, sessions: 0 },
    readsUserIntent: true,
    sameInputLater: true,
    answers: {
      imported: { status: 200, body: expect.objectContaining({ importType: 'file/eamusement-sdvx-csv', errors: [] }) },
      duplicate: { status: 200, body: expect.objectContaining({ scoreIDs: [] }) },
      unauthenticated: { status: 401 },
      forbidden: { status: 403 },
    },
    refused: [
      ...(
        [
          [
            'a header of the wrong size',
            'a,b,c\nx,y,z',
            /Invalid CSV provided\. CSV does not have the correct number of headers: an e-amusement SDVX export has 11, this one 3\./,
          ],
          ['an IIDX CSV', `${Array(27).fill('h').join(',')}\n`, /this one 27/],
          ['an empty file', '', /the header line is empty/],
          ['a row with too few cells', `${HEADER}\nImport Fixture Gamma,MAXIMUM,18`, /Row 2 has 3 cells, fewer than the header's 11/],
          ['JSON instead of CSV', '{"meta":{"game":"sdvx"}}', /correct number of headers/],
        ] as const
      ).map(([name, text, message]) => ({ name, send: (token: string) => upload(token, text), answer: refusedFile(message) })),
      { name: 'no file', send: (token) => upload(token, null), answer: refusedFile(/multipart field 'scoreData'/) },
    ],
  });

  it('property: random and truncated files only ever get 200 or a 4xx', async () => {
    const q = await player(t);
    const text = CSV.toString('utf8');
    const inputs = mutatedTexts(text, seededRandom(5), {
      cuts: [0, 1, 40, 150, 200, 260, 330, 400],
      count: 12,
      edits: 6,
      alphabet: [',', '\n', '\u0000', 'x', '9', '"'],
    });
    await expectOnlyClientAnswers(inputs, (input) => upload(q.token, input));
  });

  (haveSeeds ? describe : describe.skip)('into the real seed charts', () => {
    interface RawChart {
      chartID: string;
      songID: number;
      difficulty: string;
    }
    interface RawSong {
      id: number;
      title: string;
    }
    const chartOf = (title: string, difficulty: string) => {
      const songs = JSON.parse(fs.readFileSync(path.join(TACHI_SEEDS, 'songs-sdvx.json'), 'utf8')) as RawSong[];
      const charts = JSON.parse(fs.readFileSync(path.join(TACHI_SEEDS, 'charts-sdvx.json'), 'utf8')) as RawChart[];
      const song = songs.find((s) => s.title === title);
      return charts.find((c) => c.songID === song?.id && c.difficulty === difficulty)?.chartID;
    };

    it('matches real titles, with commas and a trailing space, and keeps re-sends idempotent', async () => {
      const q = await player(t);
      const csv = [
        HEADER,
        'Help me, ERINNNNNN!!,EXHAUST,13,COMPLETE,AA,9412345,0,1,1,0,0',
        'Aqua,Luna-rium,MAXIMUM,16,EXCESSIVE COMPLETE,AAA,9800001,2100,3,2,0,0',
        'ALBIDA Powerless Mix,INFINITE,17,PLAYED,B,8123456,0,4,0,0,0',
        'グレイスちゃんの超～絶!!グラビティ講座w ,GRAVITY,1,PERFECT,S,10000000,0,1,1,1,1',
      ].join('\r\n');
      const res = await upload(q.token, csv);
      expect(res.status).toBe(200);
      expect(res.body.errors).toEqual([]);
      const expected = [
        [chartOf('Help me, ERINNNNNN!!', 'EXH'), 9_412_345, 'CLEAR'],
        [chartOf('Aqua,Luna-rium', 'MXM'), 9_800_001, 'EXCESSIVE CLEAR'],
        [chartOf('ALBIDA Powerless Mix', 'INF'), 8_123_456, 'FAILED'],
        [chartOf('グレイスちゃんの超～絶!!グラビティ講座w ', 'GRV'), 10_000_000, 'PERFECT ULTIMATE CHAIN'],
      ];
      expect(expected.every(([id]) => typeof id === 'string')).toBe(true);
      const stored = (await storedScores(t, q.user.id)).map((s) => [s.chartID, s.scoreData.score, s.scoreData.lamp]);
      expect(stored.sort()).toEqual(expected.sort());
      const again = await upload(q.token, csv);
      expect(again.status).toBe(200);
      expect(again.body.scoreIDs).toEqual([]);
      expect(await storedScores(t, q.user.id)).toHaveLength(4);
    });
  });
});

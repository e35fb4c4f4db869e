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
import { storedGameStats, storedPb, storedScores } from '../support/stored.js';
import { TACHI_SEEDS } from '../support/tachi-seeds.js';

const FIXTURES = path.resolve('test/fixtures/imports/mypagescraper');
const RECORDS = fs.readFileSync(path.join(FIXTURES, 'records.csv'));
const PLAYER = fs.readFileSync(path.join(FIXTURES, 'player.csv'));
const HEADER = 'music_id,music_title,music_artist,music_genre,music_levels,music_play_counts,music_scores,music_achieves';
const haveSeeds = fs.existsSync(path.join(TACHI_SEEDS, 'charts-wacca.json')) && fs.existsSync(path.join(TACHI_SEEDS, 'songs-wacca.json'));

/** The fixture charts' ids: sha1 of "imports-wacca-<songID>-<difficulty>". */
const chartOf = (song: number, difficulty: string) => createHash('sha1').update(`imports-wacca-${song}-${difficulty}`).digest('hex');

type Kind = 'records' | 'player';

function upload(t: TestApp, token: string | null, kind: Kind, data: Buffer | string | null, headers: Record<string, string> = {}) {
  return uploadFile(t, token, `file/mypagescraper-${kind}-csv`, data, { filename: `${kind}.csv`, contentType: 'text/csv', headers });
}

async function imported(t: TestApp, token: string, kind: Kind, data: Buffer | string): Promise<ImportDocument> {
  const res = await upload(t, token, kind, data);
  if (res.status !== 200) throw new Error(`import failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as ImportDocument;
}

describe('file/mypagescraper-records-csv and file/mypagescraper-player-csv', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    await loadFixtureCatalog(t.database, FIXTURES);
  });
  afterAll(async () => {
    await t.close();
  });

  describe('a records file into the fixture charts', () => {
    let p: Player;
    let doc: ImportDocument;

    beforeAll(async () => {
      p = await player(t);
      doc = await imported(t, p.token, 'records', RECORDS);
    });

    it('imports every played chart, matched by title (and artist for a shared title)', async () => {
      expect(doc.importType).toBe('file/mypagescraper-records-csv');
      expect(doc.idStrings).toEqual(['wacca:Single']);
      expect(doc.scoreIDs).toHaveLength(6);
      const expected: [number, string, number, string][] = [
        [1, 'HARD', 950_000, 'CLEAR'],
        [1, 'EXPERT', 990_000, 'FULL COMBO'],
        [2, 'NORMAL', 800_000, 'CLEAR'],
        [2, 'HARD', 900_000, 'MISSLESS'],
        [2, 'EXPERT', 1_000_000, 'ALL MARVELOUS'],
        [4, 'EXPERT', 970_000, 'MISSLESS'],
      ];
      for (const [song, difficulty, score, lamp] of expected) {
        const pb = await storedPb(t, p.user.id, chartOf(song, difficulty));
        expect([song, difficulty, pb?.scoreData.score, pb?.scoreData.lamp]).toEqual([song, difficulty, score, lamp]);
      }
      expect(await storedPb(t, p.user.id, chartOf(3, 'EXPERT'))).toBeUndefined();
      const stored = await storedScores(t, p.user.id);
      expect(new Set(stored.map((s) => `${s.service} ${s.timeAchieved}`))).toEqual(new Set(['mypage-scraper null']));
    });

    it('reports the unknown song as an orphan and the bad achievement code as invalid', () => {
      const errors = errorsByIndex(doc);
      expect([...errors.keys()].sort()).toEqual([6, 7]);
      expect(errors.get(6)).toMatchObject({ type: 'SongOrChartNotFound', message: expect.stringContaining("No wacca song is titled 'Unknown Song'") });
      expect(errors.get(7)).toEqual({
        type: 'InvalidDatapoint',
        message: "scores[7]: row 5 ('Epsilon' NORMAL): invalid achievement code '9': expected 0 to 4.",
      });
    });

    it('shows the PBs in the UGPT routes; bests carry no time, so no session', async () => {
      const res = await t.http().get(`/api/v1/users/${p.user.id}/games/wacca/Single/pbs/all`);
      expect(res.status).toBe(200);
      expect((res.body as { pbs: unknown[] }).pbs).toHaveLength(6);
      expect(doc.createdSessions).toEqual([]);
    });

    it('sets stageUp from the player file, only upwards', async () => {
      const up = await imported(t, p.token, 'player', PLAYER);
      expect(up.importType).toBe('file/mypagescraper-player-csv');
      expect(up.scoreIDs).toEqual([]);
      expect(up.classDeltas).toEqual([{ game: 'wacca', playtype: 'Single', set: 'stageUp', old: null, new: 'IX' }]);
      expect((await storedGameStats(t, p.user.id, 'wacca', 'Single'))?.classes).toMatchObject({ stageUp: 'IX' });
      const summary = await t.http().get(`/api/v1/users/${p.user.id}/games/wacca/Single`);
      expect(summary.body.gameStats.classes).toMatchObject({ stageUp: 'IX' });

      const lower = await imported(t, p.token, 'player', 'player_name,player_stage\nTESTER,"[4,ステージⅣ,1]"\n');
      expect(lower.classDeltas).toEqual([]);
      const higher = await imported(t, p.token, 'player', 'player_name,player_stage\nTESTER,"[14,ステージⅩⅣ,3]"\n');
      expect(higher.classDeltas).toEqual([{ game: 'wacca', playtype: 'Single', set: 'stageUp', old: 'IX', new: 'XIV' }]);
      expect((await storedGameStats(t, p.user.id, 'wacca', 'Single'))?.classes).toMatchObject({ stageUp: 'XIV' });
    });
  });

  it("refuses a chart whose level in the file is not the matched chart's, after matching; the row's other charts import", async () => {
    const q = await player(t);
    const doc = await imported(t, q.token, 'records', `${HEADER}\n1001,Epsilon,X,0,"[3,8,11+,0]","[1,1,1]","[0,950000,990000]","[0,1,3]"\n`);
    expect(doc.errors).toEqual([{ type: 'InvalidDatapoint', message: "scores[0]: row 1 ('Epsilon' HARD): the file says level 8, but the chart is level 7." }]);
    expect(doc.scoreIDs).toHaveLength(1);
    expect((await storedPb(t, q.user.id, chartOf(1, 'EXPERT')))?.scoreData.score).toBe(990_000);
    expect(await storedPb(t, q.user.id, chartOf(1, 'HARD'))).toBeUndefined();
  });

  it('stores no profile from a player file alone for a user who never played WACCA (as Tachi)', async () => {
    const p = await player(t);
    const doc = await imported(t, p.token, 'player', PLAYER);
    expect(doc.classDeltas).toEqual([]);
    expect(await storedGameStats(t, p.user.id, 'wacca', 'Single')).toBeUndefined();
  });

  const refusals: [string, Kind, string | null, RegExp][] = [
    ['a CSV syntax error', 'records', `${HEADER}\n1,"open`, /^Failed to parse CSV: the quoted cell opened on line 2 is never closed\.$/],
    ['a short row', 'records', `${HEADER}\n1,A`, /^Failed to parse CSV: record 1 after the header has 2 cells; the header has 8\.$/],
    ['a missing column', 'records', 'music_id,music_title\n1,A', /^Malformed CSV, invalid column\(s\): missing music_levels, music_scores, music_achieves\./],
    ['an empty file', 'records', '', /^The CSV file is empty/],
    ['no file', 'records', null, /^Expected the CSV file in the multipart field 'scoreData'\.$/],
    ['a player file with two records', 'player', 'player_stage\n"[1,a,1]"\n"[2,a,1]"', /exactly one player record; this one has 2/],
    ['a bad player_stage', 'player', 'player_stage\nstage 3', /^Invalid player_stage 'stage 3'/],
    ['an unknown stage id', 'player', 'player_stage\n"[15,a,1]"', /^Unknown stage id 15/],
  ];
  const refusedAs = (kind: Kind) =>
    refusals
      .filter(([, k]) => k === kind)
      .map(([name, , text, message]) => ({ name, send: (token: string) => upload(t, token, kind, text), answer: refusedFile(message) }));
  const fileAnswers = (importType: string, duplicate: object) => ({
    imported: { status: 200, body: expect.objectContaining({ importType }) },
    duplicate: { status: 200, body: expect.objectContaining({ scoreIDs: [], ...duplicate }) },
    unauthenticated: { status: 401 },
    forbidden: { status: 403 },
  });

  importFormatContract({
    importType: 'file/mypagescraper-records-csv',
    app: () => t,
    send: (token, text, headers) => upload(t, token, 'records', text, headers),
    // Bests carry no time, so no session; the unknown song and the bad achievement code aside.
    input: RECORDS,
    stores: { scores: 6, sessions: 0 },
    readsUserIntent: true,
    sameInputLater: true,
    // The invalid row is reported again.
    answers: fileAnswers('file/mypagescraper-records-csv', { errors: [expect.objectContaining({ type: 'InvalidDatapoint' })] }),
    refused: refusedAs('records'),
  });

  importFormatContract({
    importType: 'file/mypagescraper-player-csv',
    app: () => t,
    send: (token, text, headers) => upload(t, token, 'player', text, headers),
    // A player file alone stores no profile for a user who never played WACCA.
    input: PLAYER,
    stores: { scores: 0, sessions: 0 },
    readsUserIntent: true,
    sameInputLater: true,
    answers: fileAnswers('file/mypagescraper-player-csv', { classDeltas: [] }),
    refused: refusedAs('player'),
  });

  it('answers random and truncated files with 200 or a 4xx, never a 500', async () => {
    const p = await player(t);
    const base = RECORDS.toString('utf8');
    const cuts = Array.from({ length: Math.ceil(base.length / 23) }, (_, k) => k * 23);
    const texts = mutatedTexts(base, seededRandom(3), { cuts, count: 20, edits: 4, alphabet: ['"', ',', '\n', '[', '9', '\u0000'] });
    // The truncations go to the records type; the edited copies alternate between the two types.
    const inputs = texts.map((text, k): [Kind, string] => [k < cuts.length || (k - cuts.length) % 2 ? 'records' : 'player', text]);
    await expectOnlyClientAnswers(inputs, ([kind, text]) => upload(t, p.token, kind, text), [200, 400, 413]);
  });
});

(haveSeeds ? describe : describe.skip)('file/mypagescraper-records-csv into the real WACCA seeds', () => {
  let t: TestApp;
  let p: Player;

  beforeAll(async () => {
    t = await createTestApp();
    const report = await new SeedLoader(t.database).load(new SeedSource(TACHI_SEEDS), { games: ['wacca'] });
    expect(report.rejected).toEqual([]);
    p = await player(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('matches songs by their seed titles, including full-width spaces and commas', async () => {
    const text = [
      HEADER,
      // ヒトガタ: NORMAL 3, HARD 9+, EXPERT 12 (no INFERNO)
      '3030,ヒトガタ,HIMEHINA,アニメ／ＰＯＰ,"[3,9+,12,0]","[1,1,1]","[980000,960000,930000]","[3,2,1]"',
      '2204,叩ケ　叩ケ　手ェ叩ケ,SIRO,アニメ／ＰＯＰ,"[0,0,12,0]","[0,0,1]","[0,0,905000]","[0,0,0]"',
      '9999,"Good Night, Bad Luck.",,x,"[5,10+,13+,0]","[1,0,0]","[700000,0,0]","[1,0,0]"',
    ].join('\n');
    const doc = await imported(t, p.token, 'records', text);
    expect(doc.errors).toEqual([]);
    expect(doc.scoreIDs).toHaveLength(5);
    const res = await t.http().get(`/api/v1/users/${p.user.id}/games/wacca/Single/pbs/all`);
    const body = res.body as { pbs: { chartID: string; scoreData: { score: number } }[]; charts: { chartID: string; difficulty: string; level: string }[] };
    const levels = body.pbs.map((pb) => {
      const chart = body.charts.find((c) => c.chartID === pb.chartID)!;
      return `${chart.difficulty} ${chart.level} ${pb.scoreData.score}`;
    });
    expect(levels.sort()).toEqual(['EXPERT 12 905000', 'EXPERT 12 930000', 'HARD 9+ 960000', 'NORMAL 5 700000', 'NORMAL 3 980000'].sort());
  });
});

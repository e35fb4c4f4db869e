import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import { imports, scores } from '../../src/database/schema.js';
import type { ImportDocument } from '../../src/presenters/import.presenter.js';
import { SeedLoader } from '../../src/seeds/seed-loader.js';
import { SeedSource } from '../../src/seeds/seed-source.js';
import { createTestApp, type TestApp } from '../support/app.js';
import {
  errorsByIndex,
  expectOnlyClientAnswers,
  loadFixtureCatalog,
  mutatedTexts,
  pbOf,
  player,
  seededRandom,
  statsOf,
  uploadFile,
  type Player,
} from '../support/imports.js';
import { TACHI_SEEDS } from '../support/tachi-seeds.js';

const FIXTURES = path.resolve('test/fixtures/imports/mypagescraper');
const RECORDS = fs.readFileSync(path.join(FIXTURES, 'records.csv'));
const PLAYER = fs.readFileSync(path.join(FIXTURES, 'player.csv'));
const HEADER = 'music_id,music_title,music_artist,music_genre,music_levels,music_play_counts,music_scores,music_achieves';
const haveSeeds = fs.existsSync(path.join(TACHI_SEEDS, 'charts-wacca.json')) && fs.existsSync(path.join(TACHI_SEEDS, 'songs-wacca.json'));

/** The fixture charts' ids: sha1 of "imports-wacca-<songID>-<difficulty>". */
const chartOf = (song: number, difficulty: string) => createHash('sha1').update(`imports-wacca-${song}-${difficulty}`).digest('hex');

type Kind = 'records' | 'player';

function upload(t: TestApp, token: string | null, kind: Kind, data: Buffer | string | null) {
  return uploadFile(t, token, `file/mypagescraper-${kind}-csv`, data, { filename: `${kind}.csv`, contentType: 'text/csv' });
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

  const scoreCount = async (userID: number) => (await t.database.db.select({ n: count() }).from(scores).where(eq(scores.userID, userID)))[0].n;
  const importCount = async (userID: number) => (await t.database.db.select({ n: count() }).from(imports).where(eq(imports.userID, userID)))[0].n;

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
        const pb = await pbOf(t.database, p.user.id, chartOf(song, difficulty));
        expect([song, difficulty, pb?.scoreData.score, pb?.scoreData.lamp]).toEqual([song, difficulty, score, lamp]);
      }
      expect(await pbOf(t.database, p.user.id, chartOf(3, 'EXPERT'))).toBeUndefined();
      const stored = await t.database.db.select().from(scores).where(eq(scores.userID, p.user.id));
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

    it('imports nothing new when the same file is sent again (the invalid row is reported again)', async () => {
      const again = await imported(t, p.token, 'records', RECORDS);
      expect(again.scoreIDs).toEqual([]);
      expect(again.errors.map((e) => e.type)).toEqual(['InvalidDatapoint']);
      expect(await scoreCount(p.user.id)).toBe(6);
    });

    it('sets stageUp from the player file, only upwards', async () => {
      const up = await imported(t, p.token, 'player', PLAYER);
      expect(up.importType).toBe('file/mypagescraper-player-csv');
      expect(up.scoreIDs).toEqual([]);
      expect(up.classDeltas).toEqual([{ game: 'wacca', playtype: 'Single', set: 'stageUp', old: null, new: 'IX' }]);
      expect((await statsOf(t.database, p.user.id, 'wacca', 'Single'))?.classes).toMatchObject({ stageUp: 'IX' });
      const summary = await t.http().get(`/api/v1/users/${p.user.id}/games/wacca/Single`);
      expect(summary.body.gameStats.classes).toMatchObject({ stageUp: 'IX' });

      const lower = await imported(t, p.token, 'player', 'player_name,player_stage\nTESTER,"[4,ステージⅣ,1]"\n');
      expect(lower.classDeltas).toEqual([]);
      const higher = await imported(t, p.token, 'player', 'player_name,player_stage\nTESTER,"[14,ステージⅩⅣ,3]"\n');
      expect(higher.classDeltas).toEqual([{ game: 'wacca', playtype: 'Single', set: 'stageUp', old: 'IX', new: 'XIV' }]);
      expect((await statsOf(t.database, p.user.id, 'wacca', 'Single'))?.classes).toMatchObject({ stageUp: 'XIV' });
    });
  });

  it("refuses a chart whose level in the file is not the matched chart's, after matching; the row's other charts import", async () => {
    const q = await player(t);
    const doc = await imported(t, q.token, 'records', `${HEADER}\n1001,Epsilon,X,0,"[3,8,11+,0]","[1,1,1]","[0,950000,990000]","[0,1,3]"\n`);
    expect(doc.errors).toEqual([{ type: 'InvalidDatapoint', message: "scores[0]: row 1 ('Epsilon' HARD): the file says level 8, but the chart is level 7." }]);
    expect(doc.scoreIDs).toHaveLength(1);
    expect((await pbOf(t.database, q.user.id, chartOf(1, 'EXPERT')))?.scoreData.score).toBe(990_000);
    expect(await pbOf(t.database, q.user.id, chartOf(1, 'HARD'))).toBeUndefined();
  });

  it('stores no profile from a player file alone for a user who never played WACCA (as Tachi)', async () => {
    const p = await player(t);
    const doc = await imported(t, p.token, 'player', PLAYER);
    expect(doc.classDeltas).toEqual([]);
    expect(await statsOf(t.database, p.user.id, 'wacca', 'Single')).toBeUndefined();
  });

  describe('bad files are refused whole, with nothing stored', () => {
    let p: Player;
    beforeAll(async () => {
      p = await player(t);
    });

    const cases: [string, Kind, string, number, RegExp][] = [
      ['a CSV syntax error', 'records', `${HEADER}\n1,"open`, 400, /^Failed to parse CSV: the quoted cell opened on line 2 is never closed\.$/],
      ['a short row', 'records', `${HEADER}\n1,A`, 400, /^Failed to parse CSV: record 1 after the header has 2 cells; the header has 8\.$/],
      [
        'a missing column',
        'records',
        'music_id,music_title\n1,A',
        400,
        /^Malformed CSV, invalid column\(s\): missing music_levels, music_scores, music_achieves\./,
      ],
      ['an empty file', 'records', '', 400, /^The CSV file is empty/],
      ['a player file with two records', 'player', 'player_stage\n"[1,a,1]"\n"[2,a,1]"', 400, /exactly one player record; this one has 2/],
      ['a bad player_stage', 'player', 'player_stage\nstage 3', 400, /^Invalid player_stage 'stage 3'/],
      ['an unknown stage id', 'player', 'player_stage\n"[15,a,1]"', 400, /^Unknown stage id 15/],
    ];
    it.each(cases)('%s', async (_, kind, text, status, message) => {
      const res = await upload(t, p.token, kind, text);
      expect(res.status).toBe(status);
      expect(res.body.message).toMatch(message);
      expect(await scoreCount(p.user.id)).toBe(0);
      expect(await importCount(p.user.id)).toBe(0);
    });

    it('no file', async () => {
      const res = await upload(t, p.token, 'records', null);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe("Expected the CSV file in the multipart field 'scoreData'.");
    });
  });

  it('needs a token with submit_score: 401 without one, 403 without the permission', async () => {
    expect((await upload(t, null, 'records', RECORDS)).status).toBe(401);
    const reader = await player(t, ['customise_profile']);
    const res = await upload(t, reader.token, 'player', PLAYER);
    expect(res.status).toBe(403);
    expect(await importCount(reader.user.id)).toBe(0);
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

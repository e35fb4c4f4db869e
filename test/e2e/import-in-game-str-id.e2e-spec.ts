import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SeedLoader } from '../../src/seeds/seed-loader.js';
import { SeedSource } from '../../src/seeds/seed-source.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { batchManual, directManual, errorsByIndex, imported, player, T0 } from '../support/imports.js';
import { storedScore } from '../support/stored.js';
import { issueTachiToken, ok, polledImport, signUpTachi } from '../support/tachi.js';

type Doc = Record<string, unknown>;

const MAIMAI_MASTER = '1'.repeat(40);
const MAIMAI_EXPERT = '2'.repeat(40);
const MAIMAI_OLD = '3'.repeat(40);
const ARCAEA_FUTURE = '4'.repeat(40);
const ARCAEA_FUTURE_SWITCH = '5'.repeat(40);

const chart = (chartID: string, songID: number, playtype: string, difficulty: string, data: Doc, more: Doc = {}) => ({
  chartID,
  songID,
  level: '10',
  levelNum: 10,
  isPrimary: true,
  difficulty,
  playtype,
  versions: [],
  data,
  ...more,
});
const song = (id: number, title: string, data: Doc) => ({ id, title, artist: 'A', searchTerms: [], altTitles: [], data });

/** maimai and Arcaea charts, whose data carries the string id HEAD's inGameStrID names. */
function seeds(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'st-strid-'));
  const write = (game: string, songs: Doc[], charts: Doc[]) => {
    fs.writeFileSync(path.join(dir, `songs-${game}.json`), JSON.stringify(songs));
    fs.writeFileSync(path.join(dir, `charts-${game}.json`), JSON.stringify(charts));
  };
  write(
    'maimai',
    [
      song(1, 'Maimai Song', { titleJP: 'M', artistJP: 'A', displayVersion: 'FiNALE' }),
      song(2, 'Other Song', { titleJP: 'O', artistJP: 'A', displayVersion: 'FiNALE' }),
    ],
    [
      chart(MAIMAI_MASTER, 1, 'Single', 'Master', { inGameID: 100, inGameStrID: 'MaiSong', maxPercent: 103.5 }),
      chart(MAIMAI_EXPERT, 1, 'Single', 'Expert', { inGameID: 100, inGameStrID: 'MaiSong', maxPercent: 102 }),
      // Same string in another case: the id is compared exactly.
      chart(MAIMAI_OLD, 2, 'Single', 'Master', { inGameID: 101, inGameStrID: 'maisong', maxPercent: 101 }),
    ],
  );
  write(
    'arcaea',
    [song(3, 'Arc Song', { displayVersion: '1.0', songPack: 'Base' })],
    [
      chart(ARCAEA_FUTURE, 3, 'Touch', 'Future', { inGameStrID: 'arcsong', notecount: 1000 }, { versions: ['mobile'] }),
      chart(ARCAEA_FUTURE_SWITCH, 3, 'Touch', 'Future', { inGameStrID: 'arcsong', notecount: 1000 }, { versions: ['switch'], isPrimary: false }),
    ],
  );
  return dir;
}

const GAMES = ['maimai', 'arcaea'];

async function loadSeeds(t: TestApp, dir: string) {
  const report = await new SeedLoader(t.database).load(new SeedSource(dir), { games: GAMES });
  expect(report.rejected).toEqual([]);
}

const el = (identifier: string, difficulty: string | undefined, i: number, more: Doc = {}) => ({
  matchType: 'inGameStrID',
  identifier,
  ...(difficulty === undefined ? {} : { difficulty }),
  percent: 99 + i / 10,
  lamp: 'CLEAR',
  timeAchieved: T0 + i * 60_000,
  ...more,
});

describe('inGameStrID (HEAD): chart data.inGameStrID and a difficulty, in batch-manual', () => {
  let t: TestApp;
  let dir: string;

  beforeAll(async () => {
    t = await createTestApp();
    dir = seeds();
    await loadSeeds(t, dir);
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('maimai: the exact string id and the difficulty find the chart; a miss, another case or no difficulty do not', async () => {
    const p = await player(t);
    const doc = await imported(
      t,
      p.token,
      batchManual('maimai', 'Single', [
        el('MaiSong', 'Master', 0),
        el('MaiSong', 'Expert', 1),
        el('maisong', 'Master', 2),
        el('NoSuchSong', 'Master', 3),
        el('MaiSong', 'Re:Master', 4),
        el('MaiSong', undefined, 5),
        el('MaiSong', 'Ultra', 6),
      ]),
    );
    expect(doc.scoreIDs).toHaveLength(3);
    const charts = await Promise.all(doc.scoreIDs.map(async (id) => (await storedScore(t, id))!.chartID));
    expect(charts).toEqual([MAIMAI_MASTER, MAIMAI_EXPERT, MAIMAI_OLD]);
    const errors = errorsByIndex(doc);
    expect([...errors.keys()]).toEqual([3, 4, 5, 6]);
    expect(errors.get(3)).toMatchObject({
      type: 'SongOrChartNotFound',
      message: expect.stringMatching(/No Single Master chart has the in-game string id 'NoSuchSong'/),
    });
    expect(errors.get(4)).toMatchObject({ type: 'SongOrChartNotFound', message: expect.stringMatching(/No Single Re:Master chart/) });
    expect(errors.get(5)).toMatchObject({ type: 'InvalidDatapoint', message: expect.stringMatching(/difficulty is required for matchType inGameStrID/) });
    expect(errors.get(6)).toMatchObject({ type: 'InvalidDatapoint', message: expect.stringMatching(/Invalid difficulty 'Ultra'/) });
  });

  it('Arcaea: meta.version picks the chart of that version; without one only the primary chart matches', async () => {
    const p = await player(t);
    const score = (i: number) => ({ ...el('arcsong', 'Future', i), percent: undefined, score: 9_800_000 + i, lamp: 'CLEAR' });
    const primary = await imported(t, p.token, batchManual('arcaea', 'Touch', [score(0)]));
    expect((await storedScore(t, primary.scoreIDs[0]))!.chartID).toBe(ARCAEA_FUTURE);
    const onSwitch = await imported(
      t,
      p.token,
      batchManual('arcaea', 'Touch', [score(1)], { meta: { game: 'arcaea', playtype: 'Touch', service: 'pipeline-test', version: 'switch' } }),
    );
    expect(onSwitch.errors).toEqual([]);
    expect((await storedScore(t, onSwitch.scoreIDs[0]))!.chartID).toBe(ARCAEA_FUTURE_SWITCH);
  });

  it('a game whose charts have no string id (maimai DX) refuses it, as does the resolve route', async () => {
    const p = await player(t);
    const doc = await imported(t, p.token, batchManual('maimaidx', 'Single', [el('MaiSong', 'Master', 0)]));
    expect(doc.scoreIDs).toEqual([]);
    expect(errorsByIndex(doc).get(0)).toMatchObject({
      type: 'InvalidDatapoint',
      message: expect.stringMatching(/matchType 'inGameStrID' is not supported for maimaidx Single/),
    });

    const resolved = await t
      .http()
      .get('/api/v1/games/maimai/Single/charts/resolve')
      .query({ matchType: 'inGameStrID', identifier: 'MaiSong', difficulty: 'Expert' });
    expect(resolved.status).toBe(200);
    expect(resolved.body.chart.chartID).toBe(MAIMAI_EXPERT);
    const elsewhere = await t
      .http()
      .get('/api/v1/games/maimaidx/Single/charts/resolve')
      .query({ matchType: 'inGameStrID', identifier: 'MaiSong', difficulty: 'Master' });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.message).toMatch(/matchType 'inGameStrID' is not supported for maimaidx Single/);
  });

  it("the GPT configs list it where HEAD's do", async () => {
    const maimai = await t.http().get('/api/v1/games/maimai/Single');
    expect(maimai.body.config.supportedMatchTypes).toEqual(['songTitle', 'serviceSongID', 'inGameID', 'inGameStrID']);
    const arcaea = await t.http().get('/api/v1/games/arcaea/Touch');
    expect(arcaea.body.config.supportedMatchTypes).toEqual(['inGameStrID', 'songTitle', 'serviceSongID']);
  });
});

describe('API_PROFILE=tachi: inGameStrID through /ir/direct-manual', () => {
  let t: TestApp;
  let dir: string;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp({ API_PROFILE: 'tachi' });
    dir = seeds();
    await loadSeeds(t, dir);
    token = await issueTachiToken(await signUpTachi(t), ['submit_score']);
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('imports by the string id and names a miss as the score’s error, in Tachi’s shape', async () => {
    const doc = await polledImport<{ scoreIDs: string[]; errors: Array<{ type: string; message: string }> }>(
      t,
      await directManual(t, token, batchManual('maimai', 'Single', [el('MaiSong', 'Master', 0), el('Nope', 'Master', 1)])),
    );
    expect(doc.scoreIDs).toHaveLength(1);
    expect(doc.errors).toEqual([expect.objectContaining({ type: 'SongOrChartNotFound', message: expect.stringMatching(/in-game string id 'Nope'/) })]);
    const score = ok<{ score: { chartID: string } }>(await t.http().get(`/api/v1/scores/${doc.scoreIDs[0]}`));
    expect(score.score.chartID).toBe(MAIMAI_MASTER);
    const config = ok<{ config: { supportedMatchTypes: string[] } }>(await t.http().get('/api/v1/games/maimai/Single'));
    expect(config.config.supportedMatchTypes).toEqual(['songTitle', 'tachiSongID', 'inGameID', 'inGameStrID']);
  });
});

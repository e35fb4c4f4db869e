import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SeedLoader } from '../../src/seeds/seed-loader.js';
import { SeedSource } from '../../src/seeds/seed-source.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { batchManual, directManual, errorsByIndex, imported, player, T0, type ScoreElement } from '../support/imports.js';
import { storedPb, storedScore } from '../support/stored.js';
import { failed, issueTachiToken, ok, polledImport, signUpTachi } from '../support/tachi.js';

type Doc = Record<string, unknown>;

const CHUNITHM_CHART = 'c'.repeat(40);
const ONGEKI_CHART = 'e'.repeat(40);
const POPN_CHART = 'b'.repeat(40);
const JUBEAT_CHART = 'd'.repeat(40);
const ITG_CHART = 'f'.repeat(40);
const POPN_HASH = 'ab'.repeat(32);
const ITG_HASH = '0123456789abcdef';

const chart = (chartID: string, songID: number, playtype: string, difficulty: string, levelNum: number, data: Doc) => ({
  chartID,
  songID,
  level: String(levelNum),
  levelNum,
  isPrimary: true,
  difficulty,
  playtype,
  versions: [],
  data,
});
const song = (id: number, title: string, data: Doc) => ({ id, title, artist: 'A', searchTerms: [], altTitles: [], data });

/** One song and chart for each game whose data Tachi (HEAD) names differently. */
function seeds(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'st-head-'));
  const write = (game: string, songs: Doc[], charts: Doc[]) => {
    fs.writeFileSync(path.join(dir, `songs-${game}.json`), JSON.stringify(songs));
    fs.writeFileSync(path.join(dir, `charts-${game}.json`), JSON.stringify(charts));
  };
  write('chunithm', [song(1, 'Chuni Song', { genre: 'G', displayVersion: 'SUN' })], [chart(CHUNITHM_CHART, 1, 'Single', 'MASTER', 14, { inGameID: 10 })]);
  write(
    'ongeki',
    [song(2, 'Ongeki Song', { genre: 'VARIETY', duration: 120 })],
    [chart(ONGEKI_CHART, 2, 'Single', 'MASTER', 14, { displayVersion: 'オンゲキ', maxPlatScore: 3000, inGameID: 20 })],
  );
  write('popn', [song(3, 'Popn Song', {})], [chart(POPN_CHART, 3, '9B', 'EX', 45, { hashSHA256: POPN_HASH, inGameID: 30 })]);
  write(
    'jubeat',
    [song(4, 'Jubeat Song', { displayVersion: 'ave' })],
    [chart(JUBEAT_CHART, 4, 'Single', 'EXT', 10, { inGameID: 40, noteCount: 500, musicBar: [] })],
  );
  write(
    'itg',
    [song(5, 'Stream Song', { subtitle: null })],
    [
      chart(ITG_CHART, 5, 'Stamina', 'Hard 14', 14, {
        rankedLevel: 14,
        chartLevel: 14,
        hashGSv3: ITG_HASH,
        difficultyTag: 'Hard',
        length: 120,
        charter: 'C',
        streamBPM: null,
        breakdown: null,
        npsPerMeasure: [],
        notesPerMeasure: [],
        bannerLocationOverride: null,
        originalPack: 'P',
        packs: ['P'],
      }),
    ],
  );
  return dir;
}

const GAMES = ['chunithm', 'ongeki', 'popn', 'jubeat', 'itg'];
const at = (i: number) => T0 + i * 60_000;

async function loadSeeds(t: TestApp, dir: string) {
  const report = await new SeedLoader(t.database).load(new SeedSource(dir), { games: GAMES });
  expect(report.rejected).toEqual([]);
}

describe('game data as Tachi (HEAD) names it: inputs in either form, under both profiles', () => {
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

  it('CHUNITHM: noteLamp + clearLamp (today’s hooks) and lamp (older clients) name the same score; the spec document keeps lamp', async () => {
    const p = await player(t);
    const el = (fields: ScoreElement, i: number): ScoreElement => ({
      matchType: 'inGameID',
      identifier: '10',
      difficulty: 'MASTER',
      timeAchieved: at(i),
      ...fields,
    });
    const doc = await imported(
      t,
      p.token,
      batchManual('chunithm', 'Single', [
        // 0: HEAD's pair, a FULL COMBO cleared on the BRAVE gauge
        el({ score: 1_002_000, noteLamp: 'FULL COMBO', clearLamp: 'BRAVE', judgements: { miss: 0 } }, 0),
        // 1: the older single lamp
        el({ score: 990_000, lamp: 'CLEAR' }, 1),
        // 2: a full combo that failed the gauge: the single lamp is FAILED, the combo kept as optional.noteLamp
        el({ score: 960_000, noteLamp: 'FULL COMBO', clearLamp: 'FAILED', judgements: { miss: 0 } }, 2),
        // 3..7: what cannot be read
        el({ score: 990_000, lamp: 'CLEAR', noteLamp: 'NONE', clearLamp: 'CLEAR' }, 3),
        el({ score: 990_000, noteLamp: 'NONE' }, 4),
        el({ score: 990_000, noteLamp: 'MAX COMBO', clearLamp: 'CLEAR' }, 5),
        el({ score: 990_000, noteLamp: 'NONE', clearLamp: 'HARD', optional: { clearLamp: 'BRAVE' } }, 6),
        el({ score: 990_000, lamp: 'CLEAR', optional: { noteLamp: 'FULL COMBO' } }, 7),
      ]),
    );
    expect(doc.scoreIDs).toHaveLength(3);
    const errors = errorsByIndex(doc);
    expect([...errors.keys()]).toEqual([3, 4, 5, 6, 7]);
    expect(errors.get(3)!.message).toMatch(/Give lamp, or noteLamp and clearLamp, not both/);
    expect(errors.get(4)!.message).toMatch(/noteLamp and clearLamp go together/);
    expect(errors.get(5)!.message).toMatch(/Invalid noteLamp "MAX COMBO": expected one of NONE, FULL COMBO, ALL JUSTICE, ALL JUSTICE CRITICAL/);
    expect(errors.get(6)!.message).toMatch(/clearLamp is given twice, differently/);
    expect(errors.get(7)!.message).toMatch(/optional.noteLamp is only for a FAILED score/);

    const [braveFc, clear, failedFc] = await Promise.all(doc.scoreIDs.map((id) => storedScore(t, id)));
    expect(braveFc!.scoreData).toMatchObject({ score: 1_002_000, lamp: 'FULL COMBO', optional: { clearLamp: 'BRAVE' } });
    expect(clear!.scoreData).toMatchObject({ score: 990_000, lamp: 'CLEAR' });
    expect(failedFc!.scoreData).toMatchObject({ score: 960_000, lamp: 'FAILED', optional: { clearLamp: 'FAILED', noteLamp: 'FULL COMBO' } });
    // The spec profile serves the spec's documents: no HEAD names beside them.
    expect(braveFc!.scoreData).not.toHaveProperty('noteLamp');
    expect(braveFc!.scoreData).not.toHaveProperty('enumIndexes');
    const pb = await storedPb(t, p.user.id, CHUNITHM_CHART);
    expect(pb!.scoreData).toMatchObject({ score: 1_002_000, lamp: 'FULL COMBO', optional: { clearLamp: 'BRAVE' } });
  });

  it('ONGEKI, pop’n, jubeat and ITG take HEAD’s provided metrics as well as the older fields', async () => {
    const p = await player(t);
    const ongeki = await imported(
      t,
      p.token,
      batchManual('ongeki', 'Single', [
        {
          matchType: 'inGameID',
          identifier: '20',
          difficulty: 'MASTER',
          score: 1_000_000,
          noteLamp: 'FULL COMBO',
          bellLamp: 'FULL BELL',
          platinumScore: 2900,
          timeAchieved: at(0),
        },
        { matchType: 'inGameID', identifier: '20', difficulty: 'MASTER', score: 1_000_000, noteLamp: 'FULL COMBO', bellLamp: 'ALL BELLS', timeAchieved: at(1) },
        { matchType: 'inGameID', identifier: '20', difficulty: 'MASTER', score: 990_000, lamp: 'CLEAR', noteLamp: 'CLEAR', timeAchieved: at(2) },
        { matchType: 'inGameID', identifier: '20', difficulty: 'MASTER', score: 990_000, noteLamp: 'CLEAR', platinumScore: 3001, timeAchieved: at(3) },
      ]),
    );
    expect(ongeki.scoreIDs).toHaveLength(1);
    const ongekiErrors = errorsByIndex(ongeki);
    expect(ongekiErrors.get(1)!.message).toMatch(/Invalid bellLamp "ALL BELLS": expected one of NONE, FULL BELL/);
    expect(ongekiErrors.get(2)!.message).toMatch(/Give lamp or its HEAD name noteLamp, not both/);
    // platinumScore moved into the optional metrics is checked against the chart like one sent there.
    expect(ongekiErrors.get(3)!.message).toMatch(/platinumScore 3001 is out of range: this chart's maximum is 3000/);
    // platinumStars is derived with the chart: floor(100 × 2900 / 3000) = 96 → 96 − 93 = 3
    expect((await storedScore(t, ongeki.scoreIDs[0]))!.scoreData).toMatchObject({
      lamp: 'FULL COMBO',
      optional: { bellLamp: 'FULL BELL', platinumScore: 2900, platinumStars: 3 },
    });
    // The spec profile's PB carries it too, beside its platinumScore.
    expect((await storedPb(t, p.user.id, ONGEKI_CHART))!.scoreData.optional).toMatchObject({ platinumScore: 2900, platinumStars: 3 });

    const popn = await imported(
      t,
      p.token,
      batchManual('popn', '9B', [
        // HEAD provides the medal and derives the lamp; HEAD's popnChartHash names the chart
        {
          matchType: 'popnChartHash',
          identifier: POPN_HASH.toUpperCase(),
          score: 95_000,
          clearMedal: 'clearDiamond',
          judgements: { bad: 10 },
          timeAchieved: at(0),
        },
        { matchType: 'tachiSongID', identifier: '3', difficulty: 'EX', score: 80_000, lamp: 'FAILED', timeAchieved: at(1) },
        { matchType: 'inGameID', identifier: '30', difficulty: 'EX', score: 96_000, lamp: 'FULL COMBO', clearMedal: 'clearStar', timeAchieved: at(2) },
        { matchType: 'inGameID', identifier: '30', difficulty: 'EX', score: 96_000, clearMedal: 'goldMedal', timeAchieved: at(3) },
      ]),
    );
    expect(popn.scoreIDs).toHaveLength(2);
    const popnErrors = errorsByIndex(popn);
    expect([...popnErrors.keys()]).toEqual([2, 3]);
    expect(popnErrors.get(2)!.message).toMatch(/The clear medal clearStar means the lamp CLEAR, not FULL COMBO/);
    expect(popnErrors.get(3)!.message).toMatch(/Invalid clearMedal "goldMedal"/);
    expect((await storedScore(t, popn.scoreIDs[0]))!.scoreData).toMatchObject({ lamp: 'CLEAR', optional: { clearMedal: 'clearDiamond' } });
    expect((await storedScore(t, popn.scoreIDs[1]))!.chartID).toBe(POPN_CHART);

    const jubeat = await imported(
      t,
      p.token,
      batchManual('jubeat', 'Single', [
        { matchType: 'inGameID', identifier: '40', difficulty: 'EXT', score: 950_000, musicRate: 88.5, lamp: 'CLEAR', timeAchieved: at(0) },
        { matchType: 'inGameID', identifier: '40', difficulty: 'EXT', score: 900_000, percent: 80, lamp: 'CLEAR', timeAchieved: at(1) },
        { matchType: 'inGameID', identifier: '40', difficulty: 'EXT', score: 900_000, percent: 80, musicRate: 81, lamp: 'CLEAR', timeAchieved: at(2) },
      ]),
    );
    expect(jubeat.scoreIDs).toHaveLength(2);
    expect(errorsByIndex(jubeat).get(2)!.message).toMatch(/Give percent or its HEAD name musicRate, not both with different values/);
    expect((await storedScore(t, jubeat.scoreIDs[0]))!.scoreData).toMatchObject({ score: 950_000, percent: 88.5 });

    const itg = await imported(
      t,
      p.token,
      batchManual('itg', 'Stamina', [
        { matchType: 'itgChartHash', identifier: ITG_HASH, scorePercent: 97.5, survivedPercent: 60, lamp: 'FAILED', timeAchieved: at(0) },
        { matchType: 'itgChartHash', identifier: ITG_HASH, score: 90, lamp: 'CLEAR', optional: { survivedPercent: 100 }, timeAchieved: at(1) },
      ]),
    );
    expect(itg.scoreIDs).toHaveLength(2);
    expect((await storedScore(t, itg.scoreIDs[0]))!.scoreData).toMatchObject({ score: 97.5, lamp: 'FAILED', grade: 'F', optional: { survivedPercent: 60 } });
  });

  it('GET /charts/resolve takes HEAD’s tachiSongID and popnChartHash', async () => {
    const bySongID = await t.http().get('/api/v1/games/popn/9B/charts/resolve').query({ matchType: 'tachiSongID', identifier: '3', difficulty: 'EX' });
    expect(bySongID.status).toBe(200);
    expect(bySongID.body.chart.chartID).toBe(POPN_CHART);
    const byHash = await t.http().get('/api/v1/games/popn/9B/charts/resolve').query({ matchType: 'popnChartHash', identifier: POPN_HASH });
    expect(byHash.status).toBe(200);
    expect(byHash.body.chart.chartID).toBe(POPN_CHART);
    // popnChartHash is pop'n's own.
    const elsewhere = await t.http().get('/api/v1/games/chunithm/Single/charts/resolve').query({ matchType: 'popnChartHash', identifier: POPN_HASH });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.message).toMatch(/matchType 'popnChartHash' is not supported for chunithm Single/);
  });

  it('the spec profile’s GamePTConfig keeps the spec’s keys', async () => {
    const res = await t.http().get('/api/v1/games/chunithm/Single');
    expect(res.status).toBe(200);
    expect(res.body.config).toMatchObject({ idString: 'chunithm:Single', lamps: ['FAILED', 'CLEAR', 'FULL COMBO', 'ALL JUSTICE', 'ALL JUSTICE CRITICAL'] });
    expect(res.body.config).not.toHaveProperty('providedMetrics');
    expect(res.body.config.supportedMatchTypes).toContain('serviceSongID');
  });
});

describe('API_PROFILE=tachi: scores, PBs and configs under today’s Tachi names', () => {
  let t: TestApp;
  let dir: string;
  let token: string;
  let userID: number;

  beforeAll(async () => {
    t = await createTestApp({ API_PROFILE: 'tachi' });
    dir = seeds();
    await loadSeeds(t, dir);
    const u = await signUpTachi(t);
    userID = u.user.id;
    token = await issueTachiToken(u, ['submit_score']);
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const importDirect = async (game: string, playtype: string, scores: ScoreElement[]) =>
    polledImport<{ scoreIDs: string[]; errors: unknown[] }>(t, await directManual(t, token, batchManual(game, playtype, scores)));
  const scoreData = async (scoreID: string) => ok<{ score: { scoreData: Doc } }>(await t.http().get(`/api/v1/scores/${scoreID}`)).score.scoreData;
  const pbData = async (game: string, playtype: string, chartID: string) =>
    ok<{ pb: { scoreData: Doc } }>(await t.http().get(`/api/v1/users/${userID}/games/${game}/${playtype}/pbs/${chartID}`)).pb.scoreData;

  it('CHUNITHM: scoreData carries noteLamp and clearLamp with their enum indexes, beside the older lamp', async () => {
    const doc = await importDirect('chunithm', 'Single', [
      { matchType: 'inGameID', identifier: '10', difficulty: 'MASTER', score: 1_002_000, noteLamp: 'FULL COMBO', clearLamp: 'BRAVE', timeAchieved: at(0) },
      { matchType: 'tachiSongID', identifier: '1', difficulty: 'MASTER', score: 960_000, lamp: 'CLEAR', timeAchieved: at(1) },
    ]);
    expect(doc.errors).toEqual([]);
    expect(await scoreData(doc.scoreIDs[0])).toMatchObject({
      score: 1_002_000,
      lamp: 'FULL COMBO',
      noteLamp: 'FULL COMBO',
      clearLamp: 'BRAVE',
      grade: 'SS',
      // FULL COMBO is lamps[2] and noteLamps[1]; BRAVE is clearLamps[3]; SS is grades[10].
      enumIndexes: { lamp: 2, noteLamp: 1, clearLamp: 3, grade: 10 },
    });
    // An older client's CLEAR, with no gauge given: no combo, and the least clear.
    expect(await scoreData(doc.scoreIDs[1])).toMatchObject({
      lamp: 'CLEAR',
      noteLamp: 'NONE',
      clearLamp: 'CLEAR',
      enumIndexes: { lamp: 1, noteLamp: 0, clearLamp: 1 },
    });
    expect(await pbData('chunithm', 'Single', CHUNITHM_CHART)).toMatchObject({
      noteLamp: 'FULL COMBO',
      clearLamp: 'BRAVE',
      enumIndexes: { noteLamp: 1, clearLamp: 3 },
    });
  });

  it('ONGEKI, pop’n, jubeat and ITG: HEAD’s metrics in scoreData and PBs', async () => {
    const ongeki = await importDirect('ongeki', 'Single', [
      {
        matchType: 'inGameID',
        identifier: '20',
        difficulty: 'MASTER',
        score: 1_000_000,
        noteLamp: 'FULL COMBO',
        bellLamp: 'FULL BELL',
        platinumScore: 2900,
        timeAchieved: at(0),
      },
    ]);
    expect(await scoreData(ongeki.scoreIDs[0])).toMatchObject({
      lamp: 'FULL COMBO',
      noteLamp: 'FULL COMBO',
      bellLamp: 'FULL BELL',
      platinumScore: 2900,
      // HEAD's derived metric: floor(100 × 2900 / 3000) = 96 → 3 stars
      platinumStars: 3,
      enumIndexes: { lamp: 2, noteLamp: 2, bellLamp: 1 },
    });
    expect(await pbData('ongeki', 'Single', ONGEKI_CHART)).toMatchObject({ platinumScore: 2900, platinumStars: 3 });
    // A play without a platinumScore has none to derive stars from.
    const noPlat = await importDirect('ongeki', 'Single', [
      { matchType: 'inGameID', identifier: '20', difficulty: 'MASTER', score: 900_000, noteLamp: 'CLEAR', timeAchieved: at(9) },
    ]);
    expect(await scoreData(noPlat.scoreIDs[0])).toMatchObject({ platinumScore: null, platinumStars: null });

    const popn = await importDirect('popn', '9B', [
      { matchType: 'popnChartHash', identifier: POPN_HASH, score: 95_000, clearMedal: 'clearDiamond', timeAchieved: at(0) },
    ]);
    // clearDiamond is clearMedals[5]; CLEAR is lamps[2].
    expect(await pbData('popn', '9B', POPN_CHART)).toMatchObject({ lamp: 'CLEAR', clearMedal: 'clearDiamond', enumIndexes: { lamp: 2, clearMedal: 5 } });
    expect(popn.scoreIDs).toHaveLength(1);

    const jubeat = await importDirect('jubeat', 'Single', [
      { matchType: 'inGameID', identifier: '40', difficulty: 'EXT', score: 950_000, musicRate: 88.5, lamp: 'CLEAR', timeAchieved: at(0) },
    ]);
    expect(await scoreData(jubeat.scoreIDs[0])).toMatchObject({ percent: 88.5, musicRate: 88.5 });

    const itg = await importDirect('itg', 'Stamina', [
      { matchType: 'itgChartHash', identifier: ITG_HASH, scorePercent: 97.5, survivedPercent: 60, lamp: 'FAILED', timeAchieved: at(0) },
      { matchType: 'itgChartHash', identifier: ITG_HASH, scorePercent: 90, lamp: 'CLEAR', timeAchieved: at(1) },
    ]);
    expect(await scoreData(itg.scoreIDs[0])).toMatchObject({ score: 97.5, scorePercent: 97.5, survivedPercent: 60, finalPercent: 60 });
    // A clear survived all of the chart; its finalPercent is 100 + 90.
    expect(await pbData('itg', 'Stamina', ITG_CHART)).toMatchObject({ lamp: 'CLEAR', scorePercent: 90, survivedPercent: 100, finalPercent: 190 });
  });

  it('a HEAD-named element that cannot be read is the import’s error for that score, in Tachi’s shape', async () => {
    const doc = await importDirect('chunithm', 'Single', [
      { matchType: 'inGameID', identifier: '10', difficulty: 'MASTER', score: 990_000, noteLamp: 'FULL COMBO', timeAchieved: at(5) },
    ]);
    expect(doc.scoreIDs).toEqual([]);
    expect(doc.errors).toEqual([expect.objectContaining({ type: 'InvalidDatapoint', message: expect.stringMatching(/noteLamp and clearLamp go together/) })]);
    // A document that is not batch-manual at all is still refused whole.
    expect(failed(await directManual(t, token, { meta: { game: 'chunithm', playtype: 'Single', service: 'x' } }), 400)).toMatch(/scores/);
  });

  it('GamePTConfig: HEAD’s provided, derived and optional metrics, preferredDefaultEnum and schemas, per game', async () => {
    const config = async (game: string, playtype: string) => ok<{ config: Doc }>(await t.http().get(`/api/v1/games/${game}/${playtype}`)).config;
    const chunithm = await config('chunithm', 'Single');
    expect(Object.keys(chunithm.providedMetrics as Doc)).toEqual(['score', 'noteLamp', 'clearLamp']);
    expect(chunithm).toMatchObject({
      providedMetrics: {
        score: { type: 'INTEGER' },
        noteLamp: { type: 'ENUM', values: ['NONE', 'FULL COMBO', 'ALL JUSTICE', 'ALL JUSTICE CRITICAL'], minimumRelevantValue: 'FULL COMBO' },
        clearLamp: { type: 'ENUM', values: ['FAILED', 'CLEAR', 'HARD', 'BRAVE', 'ABSOLUTE', 'CATASTROPHY'], minimumRelevantValue: 'CLEAR' },
      },
      derivedMetrics: { grade: { type: 'ENUM', minimumRelevantValue: 'A' } },
      defaultMetric: 'score',
      preferredDefaultEnum: 'grade',
      supportedMatchTypes: ['inGameID', 'songTitle', 'tachiSongID'],
      chartData: { type: 'object', properties: { inGameID: { type: 'integer' } } },
    });
    // HEAD's optional metrics: the provided noteLamp and clearLamp are not among them.
    expect(Object.keys(chunithm.optionalMetrics as Doc).sort()).toEqual(['fast', 'lifeGraph', 'maxCombo', 'scoreGraph', 'slow']);
    expect(chunithm.optionalMetrics).toMatchObject({ lifeGraph: { type: 'GRAPH' }, fast: { type: 'INTEGER' } });

    const popn = await config('popn', '9B');
    expect(Object.keys(popn.providedMetrics as Doc)).toEqual(['score', 'clearMedal']);
    expect(Object.keys(popn.derivedMetrics as Doc)).toEqual(['lamp', 'grade']);
    expect(popn).toMatchObject({ preferredDefaultEnum: 'lamp', supportedMatchTypes: ['inGameID', 'tachiSongID', 'popnChartHash'] });
    expect(Object.keys(popn.optionalMetrics as Doc).sort()).toEqual(['fast', 'gauge', 'maxCombo', 'slow']);

    const ongeki = await config('ongeki', 'Single');
    expect(Object.keys(ongeki.providedMetrics as Doc)).toEqual(['score', 'noteLamp', 'bellLamp', 'platinumScore']);
    expect(Object.keys(ongeki.derivedMetrics as Doc)).toEqual(['grade', 'platinumStars']);
    expect(ongeki.derivedMetrics).toMatchObject({ platinumStars: { type: 'INTEGER' } });
    expect(ongeki.optionalMetrics).not.toHaveProperty('platinumStars');
    expect(ongeki.optionalMetrics).toMatchObject({ damage: { type: 'INTEGER' }, scoreGraph: { type: 'NULLABLE_GRAPH' } });
    expect(ongeki.optionalMetrics).not.toHaveProperty('bellLamp');

    const jubeat = await config('jubeat', 'Single');
    expect(Object.keys(jubeat.providedMetrics as Doc)).toEqual(['score', 'musicRate', 'lamp']);
    expect(jubeat).toMatchObject({ defaultMetric: 'musicRate', preferredDefaultEnum: 'grade' });

    const itg = await config('itg', 'Stamina');
    expect(Object.keys(itg.providedMetrics as Doc)).toEqual(['scorePercent', 'survivedPercent', 'lamp']);
    expect(Object.keys(itg.derivedMetrics as Doc)).toEqual(['grade', 'finalPercent']);
    expect(itg).toMatchObject({ defaultMetric: 'finalPercent', preferredDefaultEnum: 'lamp' });
    expect(Object.keys(itg.optionalMetrics as Doc)).toEqual(['lifebarHistory']);

    const maimaidx = await config('maimaidx', 'Single');
    expect(Object.keys(maimaidx.providedMetrics as Doc)).toEqual(['percent', 'lamp']);
    const iidx = await config('iidx', 'SP');
    expect(iidx).toMatchObject({
      defaultMetric: 'percent',
      preferredDefaultEnum: 'lamp',
      derivedMetrics: { percent: { type: 'DECIMAL' }, grade: { type: 'ENUM' } },
      preferences: { type: 'object', properties: { display2DXTra: { type: 'boolean' }, bpiTarget: { type: 'number', minimum: -15, maximum: 100 } } },
    });
    // A GPT without game-specific preferences: an empty object.
    expect(chunithm.preferences).toEqual({ type: 'object', properties: {}, additionalProperties: false });

    const game = ok<Doc>(await t.http().get('/api/v1/games/chunithm'));
    expect(game).toMatchObject({ name: 'CHUNITHM', playtypes: ['Single'], songData: { type: 'object', properties: { genre: { type: 'string' } } } });
    expect(failed(await t.http().get('/api/v1/games/chunithm/Double'), 404)).toEqual(expect.any(String));
  });
});

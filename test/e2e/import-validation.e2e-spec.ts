import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTestApp, type TestApp } from '../support/app.js';
import { importFormatContract } from '../support/import-format-contract.js';
import {
  batchManual,
  directManual,
  errorsByIndex,
  fixtureChart,
  imported,
  importFile,
  importText,
  loadFixtureCatalog,
  player,
  refusedFile,
  T0,
  uploadFile,
  type Player,
} from '../support/imports.js';
import { countRows, storedGameStats, storedScore, storedScoresOfImport } from '../support/stored.js';
import { bearer } from '../support/users.js';

const GAME_LIST = 'iidx, bms, pms, sdvx, usc, chunithm, ongeki, maimai, maimaidx, popn, jubeat, ddr, gitadora, museca, wacca, itg, arcaea';
const sdvx = (score: number, extra: Record<string, unknown> = {}) => ({
  matchType: 'sdvxInGameID',
  identifier: '1001',
  difficulty: 'EXH',
  score,
  lamp: 'CLEAR',
  timeAchieved: T0,
  ...extra,
});

const meta = { game: 'sdvx', playtype: 'Single', service: 'pipeline-test' };
/** Documents refused whole, with a 400 that says where, and the message it matches. */
const STRUCTURAL: [string, unknown, RegExp][] = [
  ['an array', [meta], /must be a batch-manual JSON object with meta and scores; received an array\./],
  ['a number', 5, /must be a batch-manual JSON object with meta and scores; received the number 5\./],
  ['null', null, /must be a batch-manual JSON object with meta and scores; received null\./],
  ['a string', 'scores', /must be a batch-manual JSON object with meta and scores; received a string\./],
  ['no meta', { scores: [] }, /meta must be an object/],
  ['meta not an object', { meta: 'sdvx', scores: [] }, /meta must be an object/],
  ['no meta.game', { meta: { playtype: 'Single', service: 'x1' }, scores: [] }, /meta\.game is required/],
  ['meta.game not a string', { meta: { ...meta, game: 5 }, scores: [] }, /meta\.game is required and must be a string/],
  [
    'unknown game, with the list',
    { meta: { ...meta, game: 'guitarfreaks' }, scores: [] },
    new RegExp(`meta\\.game 'guitarfreaks' is not a supported game\\. Expected one of: ${GAME_LIST}\\.`),
  ],
  ['no meta.playtype', { meta: { game: 'sdvx', service: 'x1' }, scores: [] }, /meta\.playtype is required/],
  [
    'unknown playtype, with the list',
    { meta: { ...meta, playtype: 'Double' }, scores: [] },
    /meta\.playtype 'Double' is not a playtype of sdvx\. Expected one of: Single\./,
  ],
  ['a playtype of another game', { meta: { ...meta, playtype: 'SP' }, scores: [] }, /meta\.playtype 'SP' is not a playtype of sdvx/],
  ['an inherited property as playtype', { meta: { ...meta, playtype: 'constructor' }, scores: [] }, /meta\.playtype 'constructor' is not a playtype of sdvx/],
  ['no meta.service', { meta: { game: 'sdvx', playtype: 'Single' }, scores: [] }, /meta\.service is required: a string of 2 to 15 characters/],
  ['a 1-character service', { meta: { ...meta, service: 'x' }, scores: [] }, /meta\.service .* 2 to 15 characters/],
  ['a 16-character service', { meta: { ...meta, service: 'x'.repeat(16) }, scores: [] }, /meta\.service .* 2 to 15 characters/],
  ['a non-string service', { meta: { ...meta, service: 12 }, scores: [] }, /meta\.service/],
  ['an unknown meta key', { meta: { ...meta, hash: 'x' }, scores: [] }, /Unknown key in meta: hash/],
  [
    'an unknown version, with the list',
    { meta: { ...meta, version: 'sdvx7' }, scores: [] },
    /meta\.version 'sdvx7' is not a version of sdvx Single\. Expected one of: booth, inf, gw, heaven, vivid, exceed, konaste\./,
  ],
  ['an inherited property as version', { meta: { ...meta, version: 'toString' }, scores: [] }, /meta\.version 'toString' is not a version/],
  ['a non-string version', { meta: { ...meta, version: 6 }, scores: [] }, /meta\.version must be a string/],
  ['no scores', { meta }, /scores must be an array/],
  ['scores not an array', { meta, scores: { 0: sdvx(9_000_000) } }, /scores must be an array/],
  ['an unknown top-level key', { meta, scores: [], extra: 1 }, /Unknown top-level key 'extra': expected meta, scores and optionally classes/],
  ['both meta and head', { meta, head: meta, scores: [] }, /Give 'meta' or its older name 'head', not both/],
  ['both scores and body', { meta, scores: [], body: [] }, /Give 'scores' or its older name 'body', not both/],
  ['classes not an object', { meta, scores: [], classes: ['DAN_1'] }, /classes must be an object/],
  [
    'an unknown class set',
    { meta, scores: [], classes: { rank: 'DAN_1' } },
    /classes\.rank is not a class an import can set for sdvx Single\. Expected: dan\./,
  ],
  ['a derived class set', { meta, scores: [], classes: { vfClass: 'COBALT_I' } }, /classes\.vfClass is not a class an import can set/],
  [
    'an unknown class value',
    { meta, scores: [], classes: { dan: 'DAN_99' } },
    /classes\.dan 'DAN_99' is not a value of dan\. Expected one of: DAN_1, .*, INF\./,
  ],
];

describe('batch-manual validation', () => {
  let t: TestApp;
  let p: Player;

  beforeAll(async () => {
    t = await createTestApp();
    await loadFixtureCatalog(t.database);
    p = await player(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('accepts the edges: a 2- and a 15-character service, an empty scores array, a null version and null classes', async () => {
    const q = await player(t);
    for (const service of ['ab', 'x'.repeat(15)]) {
      const res = await importFile(t, q.token, { meta: { ...meta, service, version: null }, scores: [], classes: null });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ scoreIDs: [], errors: [], idStrings: [] });
    }
  });

  it('reads a file saved with a UTF-8 byte order mark', async () => {
    const q = await player(t);
    const res = await importText(t, q.token, `\uFEFF${JSON.stringify(batchManual('sdvx', 'Single', [sdvx(9_050_000)]))}`);
    expect(res.status).toBe(200);
    expect(res.body.scoreIDs).toHaveLength(1);
  });

  it('reads the older head and body keys as meta and scores', async () => {
    const q = await player(t);
    const doc = await imported(t, q.token, { head: { game: 'sdvx', playtype: 'Single', service: 'legacy' }, body: [sdvx(9_100_000)] });
    expect(doc.errors).toEqual([]);
    expect(doc.scoreIDs).toHaveLength(1);
    const score = (await storedScore(t, doc.scoreIDs[0]))!;
    expect(score).toMatchObject({ chartID: fixtureChart('sdvx-1-EXH'), service: 'legacy', importType: 'file/batch-manual' });
  });

  it('turns each bad score into an error naming its index, and imports the rest', async () => {
    const q = await player(t);
    const elements: unknown[] = [
      sdvx(9_000_000), // 0: fine
      sdvx(9_000_001, { lamp: 'HARD CLEAR' }), // 1
      sdvx(10_000_001), // 2
      sdvx(-1), // 3
      sdvx(9_000_002, { difficulty: undefined }), // 4
      sdvx(9_000_003, { difficulty: 'EXTREME' }), // 5
      sdvx(9_000_004, { judgements: { critical: 1000, perfect: 3 } }), // 6
      sdvx(9_000_005, { judgements: { critical: -1 } }), // 7
      sdvx(9_000_006, { optional: { gauge: 150 } }), // 8
      sdvx(9_000_007, { optional: { bp: 3 } }), // 9
      sdvx(9_000_008, { scoreMeta: { inSkillAnalyser: 'yes' } }), // 10
      sdvx(9_000_009, { timeAchieved: 1_705_320_000 }), // 11: unix seconds
      sdvx(9_000_010, { comment: 'x'.repeat(121) }), // 12
      sdvx(9_000_011, { comment: '' }), // 13
      sdvx(9_000_012, { percent: 90 }), // 14
      sdvx(9_000_013, { bonus: true }), // 15
      sdvx(9_000_014, { score: '9000014' }), // 16
      42, // 17
      sdvx(9_000_015, { timeAchieved: Date.now() + 48 * 60 * 60 * 1000 }), // 18
      sdvx(9_000_016, {
        comment: 'c'.repeat(120),
        judgements: { critical: 1500, near: 20, miss: 3 },
        optional: { gauge: 71.5, exScore: 3000 },
        scoreMeta: { inSkillAnalyser: false },
      }), // 19: fine
      sdvx(9_000_017, { lamp: 'PERFECT ULTIMATE CHAIN' }), // 20: a PUC is 10,000,000
      sdvx(9_000_018, { timeAchieved: 0 }), // 21: fine, 0 means unknown
      sdvx(9_000_019, { identifier: 'bad\u0000id' }), // 22
    ];
    const doc = await imported(t, q.token, batchManual('sdvx', 'Single', elements as Record<string, unknown>[]));
    const errors = errorsByIndex(doc);
    const expected: [number, RegExp][] = [
      [1, /^scores\[1\]: Invalid lamp 'HARD CLEAR' for sdvx Single: expected one of FAILED, CLEAR, EXCESSIVE CLEAR/],
      [2, /^scores\[2\]: score 10000001 is out of range: it must be between 0 and 10000000/],
      [3, /^scores\[3\]: score -1 is out of range/],
      [4, /^scores\[4\]: difficulty is required for matchType sdvxInGameID/],
      [5, /^scores\[5\]: Invalid difficulty 'EXTREME' for sdvx Single: expected one of NOV, .*, ANY_INF/],
      [6, /^scores\[6\]: Unknown judgement 'perfect' for sdvx Single: expected critical, near, miss/],
      [7, /^scores\[7\]: judgements\.critical/],
      [8, /^scores\[8\]: Invalid optional metrics: gauge/],
      [9, /^scores\[9\]: Invalid optional metrics: .*bp/],
      [10, /^scores\[10\]: Invalid scoreMeta: inSkillAnalyser/],
      [11, /^scores\[11\]: timeAchieved 1705320000 is too small: it must be Unix milliseconds \(was it sent in seconds\?\)/],
      [12, /^scores\[12\]: comment must be 1 to 120 characters/],
      [13, /^scores\[13\]: comment must be 1 to 120 characters/],
      [14, /^scores\[14\]: percent must not be sent for sdvx/],
      [15, /^scores\[15\]: .*bonus/],
      [16, /^scores\[16\]: score:/],
      [17, /^scores\[17\]: value:/],
      [18, /^scores\[18\]: timeAchieved \d+ is in the future/],
      [20, /^scores\[20\]: A PERFECT ULTIMATE CHAIN must have a score of 10,000,000/],
      [22, /^scores\[22\]: .*NUL/],
    ];
    for (const [index, message] of expected) {
      expect([index, errors.get(index)?.type]).toEqual([index, 'InvalidDatapoint']);
      expect(errors.get(index)?.message).toMatch(message);
    }
    expect([...errors.keys()].sort((a, b) => a - b)).toEqual(expected.map(([i]) => i));
    expect(doc.errors.map((e) => Number(/\[(\d+)\]/.exec(e.message)![1]))).toEqual(expected.map(([i]) => i)); // in index order
    expect(doc.scoreIDs).toHaveLength(3);
    const stored = await storedScoresOfImport(t, doc.importID);
    expect(stored.map((s) => s.scoreData.score).sort()).toEqual([9_000_000, 9_000_016, 9_000_018]);
    const full = stored.find((s) => s.scoreData.score === 9_000_016)!;
    expect(full.comment).toBe('c'.repeat(120));
    expect(full.scoreData).toMatchObject({ judgements: { critical: 1500, near: 20, miss: 3 }, optional: { gauge: 71.5, exScore: 3000 } });
    expect(full.scoreMeta).toEqual({ inSkillAnalyser: false });
    expect(stored.find((s) => s.scoreData.score === 9_000_018)!.timeAchieved).toBeNull();
  });

  it('checks an EX score against its chart: at most notecount × 2, percent = score / (notecount × 2)', async () => {
    const q = await player(t);
    const el = (score: number, extra: Record<string, unknown> = {}) => ({
      matchType: 'serviceSongID',
      identifier: '1',
      difficulty: 'CHART',
      score,
      lamp: 'CLEAR',
      ...extra,
    });
    const doc = await imported(
      t,
      q.token,
      batchManual('bms', '7K', [el(2001), el(1500), el(2000, { lamp: 'FULL COMBO' }), el(1500, { judgements: { pgreat: 700, great: 99 } })]),
    );
    const errors = errorsByIndex(doc);
    expect(errors.get(0)?.message).toMatch(/^scores\[0\]: score 2001 is out of range: it must be between 0 and 2000/);
    expect(errors.get(3)?.message).toMatch(/^scores\[3\]: pgreat × 2 \+ great is 1499, but the EX score is 1500/);
    expect(doc.scoreIDs).toHaveLength(2);
    const stored = await storedScoresOfImport(t, doc.importID);
    // 1500 / (1000 × 2) = 75%: grade A (A ≥ 6/9 = 66.7%, AA ≥ 7/9 = 77.8%); 2000 / 2000 = 100%: MAX.
    expect(stored.map((s) => [s.scoreData.score, s.scoreData.percent, s.scoreData.grade]).sort()).toEqual([
      [1500, 75, 'A'],
      [2000, 100, 'MAX'],
    ]);
  });

  it('applies the music-rate rules to jubeat: percent required, at most 100 (120 on HARD charts), not a fraction', async () => {
    const q = await player(t);
    const el = (difficulty: string, score: number, percent: number | undefined, lamp = 'CLEAR') => ({
      matchType: 'inGameID',
      identifier: '70000001',
      difficulty,
      score,
      lamp,
      ...(percent === undefined ? {} : { percent }),
    });
    const doc = await imported(
      t,
      q.token,
      batchManual('jubeat', 'Single', [
        el('EXT', 950_000, undefined), // 0
        el('EXT', 950_000, 100.5), // 1
        el('HARD EXT', 950_000, 120.5), // 2
        el('EXT', 950_000, 0.95), // 3: a fraction
        el('HARD EXT', 950_000, 1.2), // 4: a fraction of the HARD maximum
        el('EXT', 950_000, 95.5), // 5: fine
        el('HARD EXT', 960_000, 110.25), // 6: fine, above 100 on a HARD chart
        el('EXT', 50_000, 1, 'FAILED'), // 7: fine, a low rate with a low score is believable
        el('EXT', 1_000_001, 99), // 8
      ]),
    );
    const errors = errorsByIndex(doc);
    expect(errors.get(0)?.message).toMatch(/^scores\[0\]: percent is required for jubeat: it carries the music rate/);
    expect(errors.get(1)?.message).toMatch(/^scores\[1\]: percent \(music rate\) 100\.5 is out of range: it must be between 0 and 100/);
    expect(errors.get(2)?.message).toMatch(/^scores\[2\]: percent \(music rate\) 120\.5 is out of range: it must be between 0 and 120/);
    expect(errors.get(3)?.message).toMatch(/^scores\[3\]: A music rate of 0\.95 with a score of 950000 looks like a fraction/);
    expect(errors.get(4)?.message).toMatch(/^scores\[4\]: A music rate of 1\.2 with a score of 950000 looks like a fraction/);
    expect(errors.get(8)?.message).toMatch(/^scores\[8\]: score 1000001 is out of range/);
    expect([...errors.keys()].sort()).toEqual([0, 1, 2, 3, 4, 8]);
    const stored = await storedScoresOfImport(t, doc.importID);
    // jubeat's percent is the music rate as sent; its grade comes from the score (SS ≥ 950,000).
    expect(stored.map((s) => [s.scoreData.score, s.scoreData.percent, s.scoreData.grade]).sort()).toEqual([
      [50_000, 1, 'E'],
      [950_000, 95.5, 'SS'],
      [960_000, 110.25, 'SS'],
    ]);
  });

  it('applies a valid provided class from the classes block', async () => {
    const q = await player(t);
    const doc = await imported(t, q.token, batchManual('sdvx', 'Single', [sdvx(9_000_000)], { classes: { dan: 'DAN_5' } }));
    expect(doc.classDeltas).toContainEqual({ game: 'sdvx', playtype: 'Single', set: 'dan', old: null, new: 'DAN_5' });
    expect((await storedGameStats(t, q.user.id, 'sdvx', 'Single'))?.classes.dan).toBe('DAN_5');
  });

  describe('the file route itself', () => {
    it('imports through a session cookie too, which holds every permission', async () => {
      const res = await p.agent
        .post('/api/v1/import/file')
        .field('importType', 'file/batch-manual')
        .attach('scoreData', Buffer.from(JSON.stringify(batchManual('sdvx', 'Single', [sdvx(9_000_000)]))), 'scores.json');
      expect(res.status).toBe(200);
      expect(res.body.scoreIDs).toHaveLength(1);
    });

    it('sets userIntent only for X-User-Intent: true', async () => {
      const q = await player(t);
      const doc = (score: number) => batchManual('sdvx', 'Single', [sdvx(score)]);
      expect((await importFile(t, q.token, doc(9_000_001), { 'X-User-Intent': 'true' })).body.userIntent).toBe(true);
      expect((await importFile(t, q.token, doc(9_000_002), { 'X-User-Intent': 'TRUE' })).body.userIntent).toBe(true);
      expect((await importFile(t, q.token, doc(9_000_003), { 'X-User-Intent': 'false' })).body.userIntent).toBe(false);
      expect((await importFile(t, q.token, doc(9_000_004), { 'X-User-Intent': 'yes' })).body.userIntent).toBe(false);
      expect((await importFile(t, q.token, doc(9_000_005))).body.userIntent).toBe(false);
      expect((await directManual(t, q.token, doc(9_000_006), { 'X-User-Intent': 'true' })).body.userIntent).toBe(true);
      expect((await directManual(t, q.token, doc(9_000_007))).body).toMatchObject({ userIntent: false, importType: 'ir/direct-manual' });
    });

    it('serves direct-manual also at /ir/direct-manual/import, without the API prefix', async () => {
      const q = await player(t);
      const res = await t
        .http()
        .post('/ir/direct-manual/import')
        .set(bearer(q.token))
        .send(batchManual('sdvx', 'Single', [sdvx(9_000_000)]));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ importType: 'ir/direct-manual', errors: [] });
      expect(res.body.scoreIDs).toHaveLength(1);
      const score = (await storedScore(t, res.body.scoreIDs[0]))!;
      expect(score.importType).toBe('ir/direct-manual');
    });
  });

  /** What the batch-manual routes (the file and direct-manual) share. */
  const batchManualFormat = {
    app: () => t,
    input: batchManual('sdvx', 'Single', [sdvx(9_000_000)]),
    stores: { scores: 1, sessions: 1 },
    otherResults: [batchManual('sdvx', 'Single', [sdvx(9_000_000, { lamp: 'EXCESSIVE CLEAR' })])],
    readsUserIntent: true,
    sameInputLater: true,
  };
  /** A token without submit_score may not retry orphans either. */
  const importOrphans = {
    name: 'POST /import/orphans',
    send: (token: string | null) => {
      const req = t.http().post('/api/v1/import/orphans');
      return token ? req.set(bearer(token)) : req;
    },
  };
  const importedAs = (importType: string) => ({ status: 200, body: expect.objectContaining({ importType, errors: [] }) });
  const fileRoute = () => t.http().post('/api/v1/import/file');
  const documentText = JSON.stringify(batchManual('sdvx', 'Single', [sdvx(9_000_000)]));

  importFormatContract<unknown>({
    ...batchManualFormat,
    importType: 'file/batch-manual',
    send: (token, document, headers) =>
      uploadFile(t, token, 'file/batch-manual', JSON.stringify(document), { filename: 'scores.json', contentType: 'application/json', headers }),
    answers: {
      imported: importedAs('file/batch-manual'),
      duplicate: { status: 200, body: expect.objectContaining({ scoreIDs: [] }) },
      unauthenticated: { status: 401 },
      forbidden: { status: 403 },
    },
    otherRoutes: [importOrphans],
    refused: [
      ...STRUCTURAL.map(([name, document, message]) => ({ name, send: (token: string) => importFile(t, token, document), answer: refusedFile(message) })),
      ...['{"meta": {', 'meta,scores', '', '{"meta": {}} trailing'].map((text) => ({
        name: `a file that is not JSON: ${JSON.stringify(text)}`,
        send: (token: string) => importText(t, token, text),
        answer: refusedFile(/The scoreData file is not valid JSON/),
      })),
      {
        name: 'a NUL in its meta',
        send: (token) => importFile(t, token, { meta: { ...meta, service: 'bad\u0000svc' }, scores: [sdvx(9_000_000)] }),
        answer: refusedFile(/meta\.service/),
      },
      // The file route itself
      {
        name: 'an unknown importType',
        send: (token) => fileRoute().set(bearer(token)).field('importType', 'file/not-a-type').attach('scoreData', Buffer.from(documentText), 'scores.json'),
        answer: refusedFile(/Unknown importType 'file\/not-a-type'\. Supported file import types: file\/batch-manual/),
      },
      {
        name: 'an importType that is no file type',
        send: (token) => fileRoute().set(bearer(token)).field('importType', 'ir/direct-manual').attach('scoreData', Buffer.from(documentText), 'scores.json'),
        answer: { status: 400 },
      },
      {
        name: 'no importType',
        send: (token) => fileRoute().set(bearer(token)).attach('scoreData', Buffer.from(documentText), 'scores.json'),
        answer: refusedFile(/importType/),
      },
      {
        name: 'no file',
        send: (token) => fileRoute().set(bearer(token)).field('importType', 'file/batch-manual'),
        answer: refusedFile(/Expected the score data as a file in the multipart field 'scoreData'/),
      },
      {
        name: 'the file in another field',
        send: (token) => fileRoute().set(bearer(token)).field('importType', 'file/batch-manual').attach('scores', Buffer.from(documentText), 'scores.json'),
        answer: { status: 400 },
      },
      {
        // 415, naming the media type and field expected.
        name: 'a JSON body, not a multipart upload',
        send: (token) =>
          fileRoute()
            .set(bearer(token))
            .send(JSON.parse(documentText) as object),
        answer: {
          status: 415,
          body: expect.objectContaining({
            message: expect.stringMatching(/^Send the body as multipart\/form-data with the file in field 'scoreData'.*\(received application\/json\)\.$/),
          }),
        },
      },
    ],
  });

  importFormatContract<unknown>({
    ...batchManualFormat,
    importType: 'ir/direct-manual',
    send: (token, document, headers = {}) =>
      t
        .http()
        .post('/api/v1/ir/direct-manual/import')
        .set({ ...(token ? bearer(token) : {}), ...headers })
        .send(document as object),
    answers: {
      imported: importedAs('ir/direct-manual'),
      duplicate: { status: 200, body: expect.objectContaining({ scoreIDs: [] }) },
      unauthenticated: { status: 401 },
      forbidden: { status: 403 },
    },
    otherRoutes: [importOrphans],
    refused: STRUCTURAL.filter(([, document]) => typeof document === 'object' && document !== null).map(([name, document, message]) => ({
      name,
      send: (token: string) => directManual(t, token, document),
      answer: refusedFile(message),
    })),
  });
});

describe('import size limits (IMPORT_FILE_LIMIT_BYTES, IMPORT_MAX_SCORES)', () => {
  let t: TestApp;
  let p: Player;

  beforeAll(async () => {
    t = await createTestApp({ IMPORT_FILE_LIMIT_BYTES: '2048', IMPORT_MAX_SCORES: '3' });
    await loadFixtureCatalog(t.database, 'catalog', ['sdvx']);
    p = await player(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 413 for a file over the byte limit, and for more scores than the limit', async () => {
    const big = batchManual('sdvx', 'Single', [sdvx(9_000_000, { comment: 'x'.repeat(100) })]);
    const padded = JSON.stringify(big) + ' '.repeat(2100);
    const file = await importText(t, p.token, padded);
    expect(file.status).toBe(413);
    expect(file.body.message).toMatch(/^The file in field 'scoreData' is too large: the limit is 2 KiB \(IMPORT_FILE_LIMIT_BYTES=2048\)/);
    const body = await directManual(t, p.token, { ...big, scores: Array.from({ length: 30 }, (_, i) => sdvx(9_000_000 + i, { comment: 'y'.repeat(60) })) });
    expect(body.status).toBe(413);
    expect(body.body.message).toMatch(/^The request body is too large: it is [\d.]+ KiB; the limit is 2 KiB \(IMPORT_FILE_LIMIT_BYTES=2048\)\.$/);

    const four = batchManual(
      'sdvx',
      'Single',
      [0, 1, 2, 3].map((i) => sdvx(9_000_000 + i)),
    );
    const tooMany = await importFile(t, p.token, four);
    expect(tooMany.status).toBe(413);
    expect(tooMany.body.message).toMatch(/This import has 4 scores; the limit is 3 per import/);
    expect((await directManual(t, p.token, four)).status).toBe(413);
    expect(await countRows(t, 'scores', { userID: p.user.id })).toBe(0);

    const three = await importFile(
      t,
      p.token,
      batchManual(
        'sdvx',
        'Single',
        [0, 1, 2].map((i) => sdvx(9_000_000 + i)),
      ),
    );
    expect(three.status).toBe(200);
    expect(three.body.scoreIDs).toHaveLength(3);
  });
});

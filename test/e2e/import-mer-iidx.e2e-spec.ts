import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ImportDocument } from '../../src/presenters/import.presenter.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { importFormatContract } from '../support/import-format-contract.js';
import { errorsByIndex, expectOnlyClientAnswers, loadFixtureCatalog, player, refusedFile, seededRandom, uploadFile, type Player } from '../support/imports.js';
import { countRows, storedOrphans, storedScores } from '../support/stored.js';

const FIXTURES = path.resolve('test/fixtures/imports/mer-iidx');
const FILE = fs.readFileSync(path.join(FIXTURES, 'scores.json'));
const chart = (tag: string) => createHash('sha1').update(`import-fixture-${tag}`).digest('hex');
/** The reference's worked example. */
const EXAMPLE = JSON.stringify([
  { music_id: 25001, play_type: 'DOUBLE', diff_type: 'HYPER', score: 1000, miss_count: -1, clear_type: 'FULLCOMBO CLEAR', update_time: '2022-03-05 10:00:00' },
]);

describe('file/mer-iidx through POST /import/file', () => {
  let t: TestApp;
  let p: Player;

  const upload = (token: string | null, file: Buffer | string | null, fields: Record<string, string> = {}, headers: Record<string, string> = {}) =>
    uploadFile(t, token, 'file/mer-iidx', file, { filename: 'mer.json', contentType: 'application/json', fields, headers });

  beforeAll(async () => {
    t = await createTestApp();
    await loadFixtureCatalog(t.database, FIXTURES, ['iidx']);
    p = await player(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('imports the reference example: DP HYPER of in-game 25001, FULL COMBO, 10:00 JST', async () => {
    const q = await player(t);
    const res = await upload(q.token, EXAMPLE);
    expect(res.status).toBe(200);
    expect(res.body.errors).toEqual([]);
    const [score] = await storedScores(t, q.user.id);
    expect([
      score.chartID,
      score.scoreData.score,
      score.scoreData.percent,
      score.scoreData.lamp,
      score.scoreData.optional.bp ?? null,
      score.timeAchieved,
      score.service,
    ]).toEqual([chart('mer-DP-HYPER'), 1000, 50, 'FULL COMBO', null, 1646442000000, 'MER']);
  });

  it('imports SP and DP scores of one file in one import, by in-game id, with an orphan and a BEGINNER error', async () => {
    const res = await upload(p.token, FILE);
    expect(res.status).toBe(200);
    const doc = res.body as ImportDocument;
    expect(doc.idStrings).toEqual(['iidx:DP', 'iidx:SP']);
    expect(doc.scoreIDs).toHaveLength(4);
    const errors = errorsByIndex(doc);
    expect([...errors.keys()].sort()).toEqual([3, 4]);
    expect(errors.get(3)?.type).toBe('SongOrChartNotFound');
    expect(errors.get(4)).toEqual({ type: 'InvalidDatapoint', message: 'scores[4]: music_id 25001: BEGINNER charts are not tracked for iidx.' });
    const stored = await storedScores(t, p.user.id);
    expect(stored.map((s) => [s.chartID, s.scoreData.score, s.scoreData.lamp, s.scoreData.grade, s.scoreData.optional.bp ?? null, s.timeAchieved])).toEqual([
      [chart('mer-DP-HYPER'), 1000, 'FULL COMBO', 'C', null, Date.UTC(2022, 2, 5, 1, 0)],
      [chart('mer-SP-HYPER'), 1400, 'HARD CLEAR', 'AA', 12, Date.UTC(2022, 2, 5, 1, 3)],
      [chart('mer-SP-ANOTHER'), 1500, 'FAILED', 'B', 40, Date.UTC(2022, 2, 5, 1, 6)],
      [chart('mer-SP-HYPER'), 1500, 'FULL COMBO', 'AAA', 0, Date.UTC(2022, 2, 5, 1, 15)],
    ]);
    // A session per playtype.
    expect(doc.createdSessions).toHaveLength(2);
    expect(await storedOrphans(t, p.user.id)).toHaveLength(1);
    const sp = await t.http().get(`/api/v1/users/${p.user.id}/games/iidx/SP/pbs/${chart('mer-SP-HYPER')}`);
    expect(sp.status).toBe(200);
    expect(sp.body.pb.scoreData).toMatchObject({ score: 1500, lamp: 'FULL COMBO' });
    const dp = await t.http().get(`/api/v1/users/${p.user.id}/games/iidx/DP/pbs/${chart('mer-DP-HYPER')}`);
    expect(dp.status).toBe(200);
    expect(dp.body.pb.scoreData).toMatchObject({ score: 1000, lamp: 'FULL COMBO' });
  });

  it('imports nothing new when the same file is sent again (a playtype field, once a choice, is ignored)', async () => {
    for (const fields of [{}, { playtype: 'SP' }] as Record<string, string>[]) {
      const again = await upload(p.token, FILE, fields);
      expect(again.status).toBe(200);
      expect(again.body.scoreIDs).toEqual([]);
      expect([...errorsByIndex(again.body as ImportDocument).keys()]).toEqual([4]);
    }
    expect(await countRows(t, 'scores', { userID: p.user.id })).toBe(4);
  });

  importFormatContract({
    importType: 'file/mer-iidx',
    app: () => t,
    send: (token, file, headers) => upload(token, file, {}, headers),
    input: EXAMPLE,
    stores: { scores: 1, sessions: 1 },
    readsUserIntent: true,
    sameInputLater: true,
    answers: {
      imported: { status: 200, body: expect.objectContaining({ importType: 'file/mer-iidx', errors: [] }) },
      duplicate: { status: 200, body: expect.objectContaining({ scoreIDs: [] }) },
      unauthenticated: { status: 401 },
      forbidden: { status: 403 },
    },
    refused: [
      ...(
        [
          ['invalid JSON', '[{"music_id":', /^The scoreData file is not valid JSON/],
          ['an object', '{"scores":[]}', /^A MER export must be a JSON array of scores\.$/],
          ['a bad entry', JSON.stringify([JSON.parse(EXAMPLE)[0], { ...JSON.parse(EXAMPLE)[0], clear_type: 'FC' }]), /^clear_type: .* \[Index 1\]$/],
          ['a bad update_time', EXAMPLE.replace('2022-03-05 10:00:00', '05/03/2022'), /^update_time: expected YYYY-MM-DD HH:MM:SS \[Index 0\]$/],
        ] as const
      ).map(([name, text, message]) => ({ name, send: (token: string) => upload(token, text), answer: refusedFile(message) })),
      { name: 'no file', send: (token) => upload(token, null), answer: refusedFile(/multipart field 'scoreData'/) },
    ],
  });

  it('property: random and truncated files only ever get 200 or a 4xx', async () => {
    const q = await player(t);
    const next = seededRandom(13);
    const inputs = [0, 1, 30, 100, EXAMPLE.length - 1].map((cut) => EXAMPLE.slice(0, cut));
    const values = [null, -1, 1.5, 2 ** 60, '', 'SINGLE', 'BEGINNER', '2022-02-30 10:00:00', [], {}];
    for (let n = 0; n < 12; n++) {
      const entry: Record<string, unknown> = { ...JSON.parse(EXAMPLE)[0] };
      const keys = Object.keys(entry);
      entry[keys[Math.floor(next() * keys.length)]] = values[Math.floor(next() * values.length)];
      inputs.push(JSON.stringify([entry]));
    }
    await expectOnlyClientAnswers(inputs, (input) => upload(q.token, input));
  });
});

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { ImportDocument } from '../../src/presenters/import.presenter.js';
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
import { countRows, storedOrphans, storedScores, storedSessions } from '../support/stored.js';

const FIXTURES = path.resolve('test/fixtures/imports/solid-state-squad');
const XML = fs.readFileSync(path.join(FIXTURES, 'scores.xml'));
const chart = (tag: string) => createHash('sha1').update(`import-fixture-${tag}`).digest('hex');

/** The reference's worked example: one DP ANOTHER score of Delta in 10th style. */
const EXAMPLE = `<s3data><userdata><id>1</id><login>a</login><djname>A</djname></userdata><scoredata><song><id>1</id><diff>A14</diff><songname><![CDATA[Delta]]></songname><styles>9th,10th</styles><exscore>1200</exscore><mods/><cleartype>cleared</cleartype><date>2008-05-01 20:00:00</date></song></scoredata></s3data>`;

describe('file/solid-state-squad through POST /import/file', () => {
  let t: TestApp;
  let p: Player;

  const upload = (token: string | null, file: Buffer | string | null, fields: Record<string, string> = {}, headers: Record<string, string> = {}) =>
    uploadFile(t, token, 'file/solid-state-squad', file, { filename: 's3.xml', contentType: 'application/xml', fields, headers });

  beforeAll(async () => {
    t = await createTestApp();
    await loadFixtureCatalog(t.database, FIXTURES, ['iidx']);
    p = await player(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('imports SP and DP scores of one file in one import, each into the charts of its version, with an orphan, a skip and per-score errors', async () => {
    const res = await upload(p.token, XML);
    expect(res.status).toBe(200);
    const doc = res.body as ImportDocument;
    expect(doc.idStrings).toEqual(['iidx:SP', 'iidx:DP']);
    expect(doc.scoreIDs).toHaveLength(4);
    const errors = errorsByIndex(doc);
    expect([...errors.keys()].sort()).toEqual([2, 5, 6]);
    expect(errors.get(2)?.type).toBe('SongOrChartNotFound');
    expect(errors.get(5)).toEqual({ type: 'InvalidDatapoint', message: "scores[5]: 'Delta': unknown style '11th' (the last of its styles)." });
    expect(errors.get(6)?.type).toBe('InvalidDatapoint');
    expect(errors.get(6)?.message).toMatch(/1500/);

    const stored = await storedScores(t, p.user.id);
    expect(stored.map((s) => [s.chartID, s.scoreData.score, s.scoreData.lamp, s.scoreData.grade, s.service, s.timeAchieved, s.comment])).toEqual([
      [chart('s3-delta-DP-ANOTHER'), 1200, 'CLEAR', 'B', 'Solid State Squad', Date.UTC(2008, 4, 1, 20), null],
      [chart('s3-delta-SP-ANOTHER-cs'), 1300, 'HARD CLEAR', 'AAA', 'Solid State Squad', Date.UTC(2009, 3, 1, 20, 0), 'hard clear & happy'],
      [chart('s3-delta-SP-HYPER'), 900, 'FULL COMBO', 'AAA', 'Solid State Squad', Date.UTC(2009, 3, 1, 20, 5), null],
      [chart('s3-epsilon-SP-NORMAL'), 700, 'CLEAR', 'AA', 'Solid State Squad', Date.UTC(2009, 3, 1, 20, 7), null],
    ]);
    expect(stored[1].scoreData.judgements).toEqual({ pgreat: 600, great: 100, good: 0, bad: 0, poor: 0 });
    expect(stored[1].scoreData.percent).toBeCloseTo((100 * 1300) / 1400, 10);
    // One session per playtype: the SP scores of both versions are one sitting (the 11-cs batch joins
    // the session the 10-cs batch created), reported once, as created.
    const [spSession, dpSession] = doc.createdSessions;
    expect(doc.createdSessions.map((c) => c.type)).toEqual(['Created', 'Created']);
    expect(dpSession.sessionID).not.toBe(spSession.sessionID);
    expect(await storedSessions(t, p.user.id)).toHaveLength(2);
    expect(await storedOrphans(t, p.user.id)).toHaveLength(1);

    const sp = await t.http().get(`/api/v1/users/${p.user.id}/games/iidx/SP/pbs/all`);
    expect(sp.status).toBe(200);
    expect((sp.body.pbs as { chartID: string }[]).map((b) => b.chartID).sort()).toEqual(
      [chart('s3-delta-SP-ANOTHER-cs'), chart('s3-delta-SP-HYPER'), chart('s3-epsilon-SP-NORMAL')].sort(),
    );
    const dp = await t.http().get(`/api/v1/users/${p.user.id}/games/iidx/DP/pbs/all`);
    expect(dp.status).toBe(200);
    expect((dp.body.pbs as { chartID: string }[]).map((b) => b.chartID)).toEqual([chart('s3-delta-DP-ANOTHER')]);
  });

  it('imports nothing new when the same file is sent again (playtype and version fields, once a choice, are ignored)', async () => {
    for (const fields of [{}, { playtype: 'SP', version: '10-cs' }] as Record<string, string>[]) {
      const res = await upload(p.token, XML, fields);
      expect(res.status).toBe(200);
      expect(res.body.scoreIDs).toEqual([]);
      expect([...errorsByIndex(res.body as ImportDocument).keys()].sort()).toEqual([5, 6]);
    }
    expect(await countRows(t, 'scores', { userID: p.user.id })).toBe(4);
  });

  it('imports the reference example', async () => {
    const q = await player(t);
    const example = await upload(q.token, EXAMPLE);
    expect(example.status).toBe(200);
    expect(example.body.errors).toEqual([]);
    expect(example.body.idStrings).toEqual(['iidx:DP']);
    const [score] = await storedScores(t, q.user.id);
    expect([score.chartID, score.scoreData.score, score.scoreData.lamp, score.scoreData.grade, score.timeAchieved]).toEqual([
      chart('s3-delta-DP-ANOTHER'),
      1200,
      'CLEAR',
      'B',
      Date.UTC(2008, 4, 1, 20),
    ]);
  });

  importFormatContract({
    importType: 'file/solid-state-squad',
    app: () => t,
    send: (token, file, headers) => upload(token, file, {}, headers),
    input: EXAMPLE,
    stores: { scores: 1, sessions: 1 },
    readsUserIntent: true,
    sameInputLater: true,
    answers: {
      imported: { status: 200, body: expect.objectContaining({ importType: 'file/solid-state-squad', errors: [] }) },
      duplicate: { status: 200, body: expect.objectContaining({ scoreIDs: [] }) },
      unauthenticated: { status: 401 },
      forbidden: { status: 403 },
    },
    refused: [
      ...(
        [
          [
            'a billion-laughs payload',
            `<?xml version="1.0"?><!DOCTYPE s3data [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]><s3data>&b;</s3data>`,
            /^Could not parse XML: DOCTYPE/,
          ],
          ['an attribute', EXAMPLE.replace('<song>', '<song id="1">'), /^Could not parse XML: <song> has attributes/],
          ['XML cut short', EXAMPLE.slice(0, 120), /^Could not parse XML: /],
          ['not XML at all', 'id,diff\n1,A', /^Could not parse XML: Text outside the root element/],
          ['another root', '<scores/>', /root element must be <s3data>/],
          ['no song', '<s3data><userdata/><scoredata/></s3data>', /no <song> inside/],
          ['an unknown diff', EXAMPLE.replace('A14', 'X'), /^Invalid S3 XML\. s3data\.scoredata\.song\[0\]\.diff/],
          ['an unknown cleartype', EXAMPLE.replace('cleared', 'failed'), /song\[0\]\.cleartype/],
        ] as const
      ).map(([name, xml, message]) => ({ name, send: (token: string) => upload(token, xml), answer: refusedFile(message) })),
      { name: 'no file', send: (token) => upload(token, null), answer: refusedFile(/multipart field 'scoreData'/) },
    ],
  });

  it('property: random and truncated files only ever get 200 or a 4xx', async () => {
    const q = await player(t);
    const inputs = mutatedTexts(EXAMPLE, seededRandom(9), {
      cuts: [0, 10, 60, 200, 300, EXAMPLE.length - 1],
      count: 12,
      edits: 3,
      alphabet: ['<', '>', '&', '/', 'x', '5', '\u0000'],
    });
    await expectOnlyClientAnswers(inputs, (input) => upload(q.token, input));
  });
});

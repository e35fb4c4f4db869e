import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { ImportsService } from '../../src/imports/imports.service.js';
import { findImportType } from '../../src/imports/import-types/registry.js';
import { createCgSource, type CgConfig, type CgCredentials } from '../../src/integrations/cg/index.js';
import type { CgGame } from '../../src/imports/import-types/api-cg/index.js';
import type { FromApiFetchContext } from '../../src/integrations/from-api/source.js';
import type { ImportDocument } from '../../src/presenters/import.presenter.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { cgPlays, startFakeCgServer, type FakeCgServer } from '../support/fake-cg-server.js';
import { loadFixtureCatalog, player, type Player } from '../support/imports.js';
import { storedPb, storedScores } from '../support/stored.js';

// A CG sync through the real pipeline, on the app's database: the source fetches from the fake CG over HTTP,
// and the api/cg-* import type's plays are imported as POST /import/from-api will import them (inline).
// The route itself (linking, credentials, the cursor's storage) is FOUNDATION's: from-api-cg.e2e-spec.ts.

/** Chart ids of test/fixtures/imports/api-cg: sha1 of "api-cg-<game>-<inGameID>-<playtype>-<difficulty>". */
const chartID = (game: string, inGameID: number, playtype: string, difficulty: string) =>
  createHash('sha1').update(`api-cg-${game}-${inGameID}-${playtype}-${difficulty}`).digest('hex');

const T = Date.UTC(2024, 4, 1, 18, 30, 0);
const PIN = '4821';

describe('api/cg-* imports through the pipeline', () => {
  let t: TestApp;
  let cg: FakeCgServer;
  let cards = 0;

  beforeAll(async () => {
    t = await createTestApp();
    await loadFixtureCatalog(t.database, '../imports/api-cg');
    cg = await startFakeCgServer();
  });
  afterAll(async () => {
    await cg.close();
    await t.close();
  });

  /** A player with a card of their own on the fake CG. */
  async function cgPlayer(): Promise<Player & { cardID: string }> {
    const cardID = `E0040200000${String(++cards).padStart(5, '0')}`;
    cg.addCard(cardID, PIN);
    return { ...(await player(t)), cardID };
  }

  /** One sync: fetch from CG with the cursor, import what it brought; the cursor to keep and the ImportDocument. */
  async function sync(p: Player & { cardID: string }, service: 'dev' | 'nag' | 'gan', game: CgGame, cursor: unknown = null) {
    const ctx: FromApiFetchContext<CgCredentials, CgConfig> = {
      userID: p.user.id,
      credentials: { cardID: p.cardID, pin: PIN },
      saveCredentials: () => Promise.reject(new Error('unused')),
      config: { url: cg.url, apiKey: cg.apiKey },
      cursor,
      signal: new AbortController().signal,
      requestTimeoutMs: 5_000,
      userAgent: 'score-tracker-test/1.0.0',
    };
    const fetched = await createCgSource(service, game).fetch(ctx);
    const type = findImportType(`api/cg-${service}-${game}`)!;
    const result = await t.app.get(ImportsService).submit(p.user.id, type, { body: { items: fetched.items }, fields: {} }, true, { inline: true });
    if (result.kind !== 'completed') throw new Error('expected an inline import');
    return { fetched, document: result.document as ImportDocument };
  }

  it('SDVX: the play lands on the chart of its version, with grade and percent derived; the PB follows; service "CG"', async () => {
    const p = await cgPlayer();
    cg.addPlay('sdvx', p.cardID, cgPlays.sdvx(), cgPlays.sdvx({ difficulty: 5, score: 9_500_000, clearType: 6, dateTime: '2024-05-01 18:34:00' }));
    const { document } = await sync(p, 'nag', 'sdvx');
    expect(document).toMatchObject({ importType: 'api/cg-nag-sdvx', errors: [], userID: p.user.id });
    expect(document.scoreIDs).toHaveLength(2);
    const [exh, ult] = await storedScores(t, p.user.id);
    expect(exh).toMatchObject({
      chartID: chartID('sdvx', 1, 'Single', 'EXH'),
      service: 'CG',
      importType: 'api/cg-nag-sdvx',
      timeAchieved: T,
      scoreData: {
        score: 9_123_000,
        lamp: 'CLEAR',
        // 9,123,000 / 100,000; A+ is 9,000,000 to 9,299,999.
        percent: 91.23,
        grade: 'A+',
        judgements: { critical: 100, near: 50, miss: 10 },
        optional: expect.objectContaining({ maxCombo: 300, exScore: 1234 }),
      },
    });
    expect(ult).toMatchObject({ chartID: chartID('sdvx', 1, 'Single', 'ULT'), scoreData: { lamp: 'MAXXIVE CLEAR', grade: 'AA+' } });
    expect(await storedPb(t, p.user.id, chartID('sdvx', 1, 'Single', 'EXH'))).toMatchObject({ scoreData: { score: 9_123_000 } });
  });

  it('a second sync imports only the plays that are new since the first', async () => {
    const p = await cgPlayer();
    cg.addPlay('msc', p.cardID, cgPlays.msc());
    const first = await sync(p, 'gan', 'museca');
    expect(first.document.errors).toEqual([]);
    expect(first.document.scoreIDs).toHaveLength(1);

    const again = await sync(p, 'gan', 'museca', first.fetched.cursor);
    expect(again.fetched.items).toEqual([]);
    expect(again.fetched.emptyReason).toMatch(/^No new MÚSECA plays on CG \(gan\) since your last sync/);

    cg.addPlay('msc', p.cardID, cgPlays.msc({ score: 1_000_000, near: 0, error: 0, dateTime: '2024-05-02 09:00:00' }));
    const second = await sync(p, 'gan', 'museca', again.fetched.cursor);
    expect(second.fetched.items).toHaveLength(1);
    expect(second.document.scoreIDs).toHaveLength(1);
    const scores = await storedScores(t, p.user.id);
    expect(scores.map((s) => s.scoreData.lamp)).toEqual(['CLEAR', 'PERFECT CONNECT ALL']);
    expect(scores[0]).toMatchObject({ chartID: chartID('museca', 10, 'Single', 'Red'), service: 'CG', scoreData: { score: 900_000 } });
  });

  it("pop'n: the clear medal is kept; a battle play is skipped and a malformed play is only that play's error", async () => {
    const p = await cgPlayer();
    cg.addPlay('popn', p.cardID, cgPlays.popn());
    cg.switches.popnBattle = true;
    cg.switches.malformedItem = true;
    try {
      const { document } = await sync(p, 'dev', 'popn');
      expect(document.scoreIDs).toHaveLength(1);
      expect(document.errors).toEqual([{ type: 'InvalidDatapoint', message: expect.stringMatching(/^scores\[1\]: Invalid CG pop'n score: internalId: /) }]);
    } finally {
      cg.switches.popnBattle = false;
      cg.switches.malformedItem = false;
    }
    const [score] = await storedScores(t, p.user.id);
    expect(score).toMatchObject({
      chartID: chartID('popn', 1000, '9B', 'Hyper'),
      service: 'CG Dev',
      scoreData: { score: 95_000, lamp: 'CLEAR', optional: expect.objectContaining({ clearMedal: 'clearDiamond' }) },
    });
  });

  it('jubeat: version 10 (festo) imports; the music rate is the percent', async () => {
    const p = await cgPlayer();
    cg.switches.jubeatVersion10 = true;
    try {
      const { document } = await sync(p, 'nag', 'jubeat');
      expect(document).toMatchObject({ errors: [] });
      expect(document.scoreIDs).toHaveLength(1);
    } finally {
      cg.switches.jubeatVersion10 = false;
    }
    const [score] = await storedScores(t, p.user.id);
    expect(score).toMatchObject({ chartID: chartID('jubeat', 50000001, 'Single', 'EXT'), scoreData: { score: 950_000, percent: 95.5, lamp: 'CLEAR' } });
  });

  it('IIDX: SP and DP plays land in their playtypes; an old † id is the LEGGENDARIA; BEGINNER is skipped', async () => {
    const p = await cgPlayer();
    cg.addPlay(
      'iidx',
      p.cardID,
      cgPlays.iidx(),
      cgPlays.iidx({ difficulty: 'DPH', exScore: 1000, perfectCount: 400, greatCount: 200, dateTime: '2024-05-01 18:35:00' }),
      cgPlays.iidx({ internalId: 1100, version: 30, exScore: 1800, perfectCount: 700, greatCount: 400, dateTime: '2024-05-01 18:40:00' }),
      cgPlays.iidx({ difficulty: 'SPB', dateTime: '2024-05-01 18:45:00' }),
    );
    const { document } = await sync(p, 'gan', 'iidx');
    expect(document).toMatchObject({ errors: [] });
    expect(document.scoreIDs).toHaveLength(3);
    const scores = await storedScores(t, p.user.id);
    const byChart = Object.fromEntries(scores.map((s) => [s.chartID, s]));
    // 1500 of 2000 (1000 notes) is 75%: A (A is 6/9 = 66.7% up to AA at 7/9 = 77.8%). 1800 of 2400 is 75% too.
    expect(byChart[chartID('iidx', 1017, 'SP', 'ANOTHER')]).toMatchObject({
      playtype: 'SP',
      scoreData: { score: 1500, percent: 75, grade: 'A', optional: expect.objectContaining({ bp: 12 }) },
    });
    expect(byChart[chartID('iidx', 1017, 'DP', 'HYPER')]).toMatchObject({ playtype: 'DP', scoreData: { score: 1000 } });
    expect(byChart[chartID('iidx', 1017, 'SP', 'LEGGENDARIA')]).toMatchObject({ playtype: 'SP', scoreData: { score: 1800, percent: 75 } });
  });

  it('a play of a chart the catalog does not have is an orphan, kept for a later retry', async () => {
    const p = await cgPlayer();
    cg.addPlay('sdvx', p.cardID, cgPlays.sdvx({ internalId: 999 }));
    const { document } = await sync(p, 'nag', 'sdvx');
    expect(document.scoreIDs).toHaveLength(0);
    expect(document.errors).toEqual([expect.objectContaining({ type: 'SongOrChartNotFound' })]);
  });
});

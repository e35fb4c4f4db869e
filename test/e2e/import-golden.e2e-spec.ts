import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { SeedLoader } from '../../src/seeds/seed-loader.js';
import { SeedSource } from '../../src/seeds/seed-source.js';
import type { ImportDocument } from '../../src/presenters/import.presenter.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { errorsByIndex, imported, player, T0, type Player } from '../support/imports.js';
import { storedGameStats, storedPb, storedScore, storedSessions } from '../support/stored.js';
import { TACHI_SEEDS } from '../support/tachi-seeds.js';

/**
 * Golden batch-manual files (test/fixtures/golden) against the real Tachi seeds, when this
 * machine has them. Every expected number below is worked out by hand from the game's formula.
 */
const GAMES = ['sdvx', 'chunithm', 'maimaidx'];
const haveSeeds = GAMES.every((g) => fs.existsSync(path.join(TACHI_SEEDS, `charts-${g}.json`)) && fs.existsSync(path.join(TACHI_SEEDS, `songs-${g}.json`)));
const golden = (game: string): unknown => JSON.parse(fs.readFileSync(path.resolve('test/fixtures/golden', `${game}.json`), 'utf8'));
const MINUTE = 60_000;

(haveSeeds ? describe : describe.skip)('golden batch-manual files against the real seeds', () => {
  let t: TestApp;
  let p: Player;

  beforeAll(async () => {
    t = await createTestApp();
    const report = await new SeedLoader(t.database).load(new SeedSource(TACHI_SEEDS), { games: GAMES });
    expect(report.rejected).toEqual([]);
    p = await player(t);
  }, 180_000);
  afterAll(async () => {
    await t.close();
  });

  /** The primary chart of a real song (every golden file is of a Single playtype), by difficulty. */
  async function chartOf(game: string, songID: number, difficulty: string): Promise<string> {
    const res = await t.http().get(`/api/v1/games/${game}/Single/songs/${songID}`);
    const rows = (res.body as { charts: { chartID: string; difficulty: string; isPrimary: boolean }[] }).charts.filter(
      (c) => c.difficulty === difficulty && c.isPrimary,
    );
    expect(rows).toHaveLength(1);
    return rows[0].chartID;
  }

  /** The PB on a chart, checked for the fields every golden row states; returns it for more checks. */
  async function expectPb(
    game: string,
    songID: number,
    difficulty: string,
    expected: { score: number; percent: number; lamp: string; grade: string; ratings: Record<string, number> },
  ) {
    const pb = (await storedPb(t, p.user.id, await chartOf(game, songID, difficulty)))!;
    expect([songID, difficulty, pb.scoreData.score, pb.scoreData.percent, pb.scoreData.lamp, pb.scoreData.grade]).toEqual([
      songID,
      difficulty,
      expected.score,
      expected.percent,
      expected.lamp,
      expected.grade,
    ]);
    for (const [alg, value] of Object.entries(expected.ratings))
      expect([songID, difficulty, alg, pb.calculatedData[alg]]).toEqual([songID, difficulty, alg, value]);
    expect(pb.rankingData).toEqual({ rank: 1, outOf: 1 });
    return pb;
  }

  async function scoreAt(doc: ImportDocument, index: number, errorsBefore: number[]) {
    const id = doc.scoreIDs[index - errorsBefore.filter((e) => e < index).length];
    return (await storedScore(t, id))!;
  }

  it('sdvx: matches by in-game id, ANY_INF, title and song id; VF6 per chart, merged PBs, session ProfileVF6, profile VF6 and vfClass', async () => {
    const doc = await imported(t, p.token, golden('sdvx'));
    const errors = errorsByIndex(doc);
    expect([...errors.entries()].map(([i, e]) => [i, e.type])).toEqual([
      [7, 'SongOrChartNotFound'],
      [8, 'InvalidDatapoint'],
    ]);
    expect(errors.get(8)?.message).toMatch(/Invalid lamp 'HARD CLEAR'/);
    expect(doc.scoreIDs).toHaveLength(11);
    expect(doc.idStrings).toEqual(['sdvx:Single']);
    expect(doc.createdSessions).toEqual([{ sessionID: expect.any(String), type: 'Created' }]);

    // VF6 = floor(level × 2 × score/1e7 × grade coefficient × lamp coefficient / 1000) / 1000.
    // pique MXM 18: 9.65M EXC (AA+ 97, 102) then 9.7M CLEAR (AAA 100, 100); the PB is 9.7M EXC:
    //   36 × 0.97 × 100 × 102 = 356,184 → 0.356 (the plays alone: 343,717.56 → 0.343 and 349,200 → 0.349).
    const pique = await expectPb('sdvx', 1500, 'MXM', { score: 9_700_000, percent: 97, lamp: 'EXCESSIVE CLEAR', grade: 'AAA', ratings: { VF6: 0.356 } });
    const [first, last] = [await scoreAt(doc, 0, [7, 8]), await scoreAt(doc, 6, [7, 8])];
    expect([first.calculatedData.VF6, last.calculatedData.VF6]).toEqual([0.343, 0.349]);
    expect(pique.composedFrom).toEqual([
      { name: 'Best Score', scoreID: last.scoreID },
      { name: 'Best Lamp', scoreID: first.scoreID },
    ]);
    // The best EX score comes from the EXC play (already listed as the best lamp); the gauge stays the best score's.
    expect(pique.scoreData.optional).toEqual({ gauge: 40, exScore: 4800 });
    expect(pique.timeAchieved).toBe(T0 + 12 * MINUTE);
    // pique EXH 16, 9.91M UC (S 105, 105): 32 × 0.991 × 105 × 105 = 349,624.8 → 0.349.
    await expectPb('sdvx', 1500, 'EXH', { score: 9_910_000, percent: 99.1, lamp: 'ULTIMATE CHAIN', grade: 'S', ratings: { VF6: 0.349 } });
    // gigadelic EXH 17, 9.3M CLEAR (AA 94): 34 × 0.93 × 94 × 100 = 297,228 → 0.297.
    await expectPb('sdvx', 500, 'EXH', { score: 9_300_000, percent: 93, lamp: 'CLEAR', grade: 'AA', ratings: { VF6: 0.297 } });
    // Broken 8cmix: ANY_INF is its HVN 18; 8.9M CLEAR (A 88): 36 × 0.89 × 88 × 100 = 281,952 → 0.281.
    await expectPb('sdvx', 2, 'HVN', { score: 8_900_000, percent: 89, lamp: 'CLEAR', grade: 'A', ratings: { VF6: 0.281 } });
    // ALBIDA: ANY_INF is its INF 17; PUC (105, 110): 34 × 105 × 110 = 392,700 → 0.392.
    await expectPb('sdvx', 1, 'INF', { score: 10_000_000, percent: 100, lamp: 'PERFECT ULTIMATE CHAIN', grade: 'PUC', ratings: { VF6: 0.392 } });
    // ぱあ MXM 16, 9.0M FAILED (A+ 91, 50): 32 × 0.9 × 91 × 50 = 131,040 → 0.131.
    await expectPb('sdvx', 1000, 'MXM', { score: 9_000_000, percent: 90, lamp: 'FAILED', grade: 'A+', ratings: { VF6: 0.131 } });
    // ぱあ EXH 13, 9.5M CLEAR (AA+ 97), no time: 26 × 0.95 × 97 × 100 = 239,590 → 0.239.
    const untimed = await expectPb('sdvx', 1000, 'EXH', { score: 9_500_000, percent: 95, lamp: 'CLEAR', grade: 'AA+', ratings: { VF6: 0.239 } });
    expect(untimed.timeAchieved).toBeNull();
    // ぱあ ADV 9, 9.8M (AAA+ 102): 18 × 0.98 × 102 × 100 = 179,928 → 0.179.
    await expectPb('sdvx', 1000, 'ADV', { score: 9_800_000, percent: 98, lamp: 'CLEAR', grade: 'AAA+', ratings: { VF6: 0.179 } });
    // pique ADV 13, 9.6M EXC (AA+ 97, 102): 26 × 0.96 × 97 × 102 = 246,954.24 → 0.246.
    await expectPb('sdvx', 1500, 'ADV', { score: 9_600_000, percent: 96, lamp: 'EXCESSIVE CLEAR', grade: 'AA+', ratings: { VF6: 0.246 } });
    // gigadelic ADV 11, 9.4M (AA 94): 22 × 0.94 × 94 × 100 = 194,392 → 0.194.
    await expectPb('sdvx', 500, 'ADV', { score: 9_400_000, percent: 94, lamp: 'CLEAR', grade: 'AA', ratings: { VF6: 0.194 } });

    // The session holds the ten timed plays: 0.343 + 0.349 + 0.297 + 0.281 + 0.392 + 0.131 + 0.349 + 0.179 + 0.246 + 0.194
    // = 2.761; ProfileVF6 = 2.761 / 10 × 50 = 13.805.
    const [session] = await storedSessions(t, p.user.id);
    expect(session).toMatchObject({ game: 'sdvx', timeStarted: T0, timeEnded: T0 + 18 * MINUTE });
    expect(session.calculatedData.ProfileVF6).toBeCloseTo(13.805, 10);

    // Profile VF6, the sum of the ten PBs: 0.356 + 0.349 + 0.297 + 0.281 + 0.392 + 0.131 + 0.239 + 0.179 + 0.246 + 0.194 = 2.664.
    const stats = await storedGameStats(t, p.user.id, 'sdvx', 'Single');
    expect(stats?.ratings.VF6).toBeCloseTo(2.664, 10);
    // 2.5 ≤ 2.664 < 5: SIENNA_II; the dan is the file's.
    expect(stats?.classes).toEqual({ dan: 'DAN_8', vfClass: 'SIENNA_II' });
    expect(doc.classDeltas).toEqual([
      { game: 'sdvx', playtype: 'Single', set: 'dan', old: null, new: 'DAN_8' },
      { game: 'sdvx', playtype: 'Single', set: 'vfClass', old: null, new: 'SIENNA_II' },
    ]);

    // Re-sending the file changes nothing.
    const again = await imported(t, p.token, golden('sdvx'));
    expect(again).toMatchObject({ scoreIDs: [], classDeltas: [], createdSessions: [] });
    // The orphan is stored already (silent, as a re-sent score); the invalid element is reported again.
    expect(again.errors.map((e) => e.type)).toEqual(['InvalidDatapoint']);
    expect((await storedGameStats(t, p.user.id, 'sdvx', 'Single'))?.ratings.VF6).toBeCloseTo(2.664, 10);
  });

  it('chunithm: rating per chart from the internal level, the best clear lamp, profile naiveRating and colour', async () => {
    const doc = await imported(t, p.token, golden('chunithm'));
    const errors = errorsByIndex(doc);
    expect([...errors.entries()].map(([i, e]) => [i, e.type])).toEqual([[7, 'InvalidDatapoint']]);
    expect(errors.get(7)?.message).toMatch(/Invalid difficulty 'WORLD'S END'/);
    expect(doc.scoreIDs).toHaveLength(7);

    // rating = floor(internal level × 100 + bonus) / 100, the bonus by score band:
    // ≥ 1,009,000: +215 | ≥ 1,007,500: +200 + (s − 1,007,500)/100 | ≥ 1,005,000: +150 + (s − 1,005,000) × 10/500
    // ≥ 1,000,000: +100 + (s − 1,000,000) × 5/500 | ≥ 975,000: (s − 975,000) × 2/500 | ≥ 900,000: −500 + (s − 900,000) × 2/300.
    await expectPb('chunithm', 7, 'MASTER', { score: 1_009_500, percent: 100.95, lamp: 'ALL JUSTICE', grade: 'SSS+', ratings: { rating: 16.65 } }); // 1450 + 215
    await expectPb('chunithm', 33, 'MASTER', { score: 1_007_500, percent: 100.75, lamp: 'FULL COMBO', grade: 'SSS', ratings: { rating: 16.5 } }); // 1450 + 200
    await expectPb('chunithm', 51, 'MASTER', { score: 1_005_000, percent: 100.5, lamp: 'CLEAR', grade: 'SS+', ratings: { rating: 15.5 } }); // 1400 + 150
    // Teriqma 13.5 played twice: 1,000,000 (clear lamp HARD) then 1,002,500 (CLEAR): 1350 + 100 + 25 = 1475.
    const teriqma = await expectPb('chunithm', 53, 'MASTER', { score: 1_002_500, percent: 100.25, lamp: 'CLEAR', grade: 'SS', ratings: { rating: 14.75 } });
    expect(teriqma.scoreData.optional.clearLamp).toBe('HARD');
    // Both plays are CLEAR, so the best-score play is also the lamp PB; the HARD clear lamp comes from the other play.
    expect(teriqma.composedFrom.map((e) => e.name)).toEqual(['Best Score', 'Best Clear Lamp']);
    await expectPb('chunithm', 70, 'MASTER', { score: 990_000, percent: 99, lamp: 'CLEAR', grade: 'S+', ratings: { rating: 14.1 } }); // 1350 + 60
    await expectPb('chunithm', 71, 'MASTER', { score: 950_000, percent: 95, lamp: 'FAILED', grade: 'AAA', ratings: { rating: 11.33 } }); // 1300 − 500 + 333.3

    // naiveRating: the best 50 in hundredths, summed, over 50, floored: (1665 + 1650 + 1550 + 1475 + 1410 + 1133) / 50 = 177.66 → 1.77.
    const stats = await storedGameStats(t, p.user.id, 'chunithm', 'Single');
    expect(stats?.ratings).toEqual({ naiveRating: 1.77 });
    expect(stats?.classes).toEqual({ dan: 'DAN_III', colour: 'BLUE' });
    // Seven plays in one session: fewer than the 10 the session rating needs.
    const session = (await storedSessions(t, p.user.id)).find((s) => s.game === 'chunithm')!;
    expect(session.calculatedData).toEqual({ naiveRating: null });
  });

  it('maimaidx: rate per chart, the standard and DX charts of one song apart, profile naiveRate and colour', async () => {
    const doc = await imported(t, p.token, golden('maimaidx'));
    const errors = errorsByIndex(doc);
    expect([...errors.entries()].map(([i, e]) => [i, e.type])).toEqual([[6, 'InvalidDatapoint']]);
    expect(errors.get(6)?.message).toMatch(/score 101\.5 is out of range/);
    expect(doc.scoreIDs).toHaveLength(6);

    // rate = floor(min(percent, 100.5) × 10,000 × coefficient × internal level × 10 / 1e8).
    // ネコ日和。 DX Master 13.7, 100.6%: 1,005,000 × 224 × 137 / 1e8 = 308.41 → 308.
    await expectPb('maimaidx', 10, 'DX Master', { score: 100.6, percent: 100.6, lamp: 'ALL PERFECT', grade: 'SSS+', ratings: { rate: 308 } });
    // 炭★坑★節 Master 13.3, 99.8%: 998,000 × 211 × 133 / 1e8 = 280.07 → 280.
    await expectPb('maimaidx', 12, 'Master', { score: 99.8, percent: 99.8, lamp: 'FULL COMBO', grade: 'SS+', ratings: { rate: 280 } });
    // Endless World Master 13.0: 97.25% then 98.5%: 985,000 × 203 × 130 / 1e8 = 259.94 → 259.
    await expectPb('maimaidx', 21, 'Master', { score: 98.5, percent: 98.5, lamp: 'CLEAR', grade: 'S+', ratings: { rate: 259 } });
    // ジングルベル Master 14.4, 100%: 1,000,000 × 216 × 144 / 1e8 = 311.04 → 311; its DX Master 14.6, 95%: 950,000 × 168 × 146 / 1e8 = 233.02 → 233.
    await expectPb('maimaidx', 31, 'Master', { score: 100, percent: 100, lamp: 'CLEAR', grade: 'SSS', ratings: { rate: 311 } });
    await expectPb('maimaidx', 31, 'DX Master', { score: 95, percent: 95, lamp: 'CLEAR', grade: 'AAA', ratings: { rate: 233 } });

    // naiveRate: the sum of the best 50: 308 + 280 + 259 + 311 + 233 = 1391: BLUE (1000 to 1999).
    const stats = await storedGameStats(t, p.user.id, 'maimaidx', 'Single');
    expect(stats?.ratings).toEqual({ naiveRate: 1391 });
    expect(stats?.classes).toEqual({ colour: 'BLUE' });
    expect(doc.classDeltas).toEqual([{ game: 'maimaidx', playtype: 'Single', set: 'colour', old: null, new: 'BLUE' }]);
  });
});

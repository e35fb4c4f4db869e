import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { computeFolderID, computeGoalID } from '../../src/common/canonical-json.js';
import { SeedLoader } from '../../src/seeds/seed-loader.js';
import { SeedSource } from '../../src/seeds/seed-source.js';
import type { TestApp } from './app.js';

/**
 * An sdvx catalog with targets, written as Tachi seed files and loaded by the real seed loader.
 * Songs 1..6 "Target Song N", each an MXM 18 chart (in-game id 8000 + N); song 1 also EXH 17.
 * Folder F18: the MXM charts of songs 1..5 (static). Goals:
 *   lamp1    EXCESSIVE CLEAR (lamp 2) on song 1 MXM                single
 *   score2   score 9,500,000 on song 2 MXM                          single
 *   multi    CLEAR (lamp 1) on either song 3 or song 4 MXM          single
 *   folderAbs  AAA (grade 7) on 2 charts of F18                     absolute, countNum 2
 *   folderProp CLEAR on half the charts of F18 (floor(0.5 × 5) = 2) proportion, countNum 0.5
 * Quests: one = [lamp1, multi]; two = [multi, folderAbs]. Questline "target-line" = [one, two].
 */
export const targetChart = (songID: number, difficulty: 'EXH' | 'MXM' = 'MXM') => createHash('sha1').update(`targets-${songID}-${difficulty}`).digest('hex');

const GPT = { game: 'sdvx', playtype: 'Single' };

/** The folder keeps one id while its charts change between loads (the loader only warns that it no longer matches its content). */
export const FOLDER_ID = computeFolderID({ ...GPT, data: ['targets'] });

function folderRecord(songIDs: number[]) {
  return {
    folderID: FOLDER_ID,
    ...GPT,
    title: 'Target Level 18',
    type: 'static',
    data: songIDs.map((id) => targetChart(id)),
    inactive: false,
    searchTerms: [],
  };
}

function goal<C extends object, K extends object>(charts: C, criteria: K, name: string) {
  return { goalID: computeGoalID({ charts, criteria, ...GPT }), ...GPT, name, charts, criteria };
}

export const GOALS = {
  lamp1: goal({ type: 'single', data: targetChart(1) }, { key: 'lamp', value: 2, mode: 'single' }, 'EXCESSIVE CLEAR Target Song 1 (MXM 18)'),
  score2: goal(
    { type: 'single', data: targetChart(2) },
    { key: 'score', value: 9_500_000, mode: 'single' },
    'Get a score of 9,500,000 on Target Song 2 (MXM 18)',
  ),
  multi: goal(
    { type: 'multi', data: [targetChart(3), targetChart(4)] },
    { key: 'lamp', value: 1, mode: 'single' },
    'CLEAR either Target Song 3 (MXM 18) or Target Song 4 (MXM 18)',
  ),
  folderAbs: goal({ type: 'folder', data: FOLDER_ID }, { key: 'grade', value: 7, mode: 'absolute', countNum: 2 }, 'AAA 2 charts in the Target Level 18 folder'),
  folderProp: goal(
    { type: 'folder', data: FOLDER_ID },
    { key: 'lamp', value: 1, mode: 'proportion', countNum: 0.5 },
    'CLEAR 50% of the charts in the Target Level 18 folder',
  ),
};

export const QUEST_ONE = 'a'.repeat(40);
export const QUEST_TWO = 'b'.repeat(40);

export function questRecords(oneGoals: string[] = [GOALS.lamp1.goalID, GOALS.multi.goalID]) {
  return [
    {
      questID: QUEST_ONE,
      ...GPT,
      name: 'Target Quest One',
      desc: 'The first quest.',
      questData: [{ title: 'Clears', desc: '', goals: oneGoals.map((goalID) => ({ goalID, note: 'go' })) }],
    },
    {
      questID: QUEST_TWO,
      ...GPT,
      name: 'Target Quest Two',
      desc: 'The second quest.',
      questData: [{ title: 'Mixed', goals: [{ goalID: GOALS.multi.goalID }, { goalID: GOALS.folderAbs.goalID }] }],
    },
  ];
}

/** Writes the seed files (folder songs and quest one's goals as given) and loads them; returns the load's report. */
export async function loadTargetSeeds(t: TestApp, options: { folderSongs?: number[]; questOneGoals?: string[] } = {}) {
  const dir = path.join(t.dataDir, 'target-seeds');
  fs.mkdirSync(dir, { recursive: true });
  const songs = [1, 2, 3, 4, 5, 6].map((id) => ({
    id,
    title: `Target Song ${id}`,
    artist: 'Fixture Artist',
    searchTerms: [],
    altTitles: [],
    data: { displayVersion: 'exceed' },
  }));
  const charts = songs.flatMap((s) =>
    (s.id === 1 ? (['EXH', 'MXM'] as const) : (['MXM'] as const)).map((difficulty) => ({
      chartID: targetChart(s.id, difficulty),
      songID: s.id,
      playtype: 'Single',
      difficulty,
      level: difficulty === 'EXH' ? '17' : '18',
      levelNum: difficulty === 'EXH' ? 17 : 18,
      isPrimary: true,
      versions: ['exceed', 'konaste'],
      data: { inGameID: 8000 + s.id },
    })),
  );
  const folder = folderRecord(options.folderSongs ?? [1, 2, 3, 4, 5]);
  const write = (file: string, data: unknown) => fs.writeFileSync(path.join(dir, file), JSON.stringify(data));
  write('songs-sdvx.json', songs);
  write('charts-sdvx.json', charts);
  write('folders.json', [folder]);
  write('goals.json', Object.values(GOALS));
  write('quests.json', questRecords(options.questOneGoals));
  write('questlines.json', [{ questlineID: 'target-line', ...GPT, name: 'Target Line', desc: 'Both quests.', quests: [QUEST_ONE, QUEST_TWO] }]);
  const report = await new SeedLoader(t.database).load(new SeedSource(dir), { games: ['sdvx'] });
  if (report.rejected.length) throw new Error(`fixture records rejected: ${JSON.stringify(report.rejected)}`);
  return report;
}

/** A batch-manual score on a fixture chart, matched by in-game id. */
export function targetPlay(songID: number, score: number, lamp: string, timeAchieved: number | null, difficulty: 'EXH' | 'MXM' = 'MXM') {
  return { score, lamp, matchType: 'sdvxInGameID', identifier: String(8000 + songID), difficulty, timeAchieved };
}

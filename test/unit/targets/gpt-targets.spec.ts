import { describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GAMES, allGpts, findGpt } from '../../../src/game-support/registry.js';
import type { GptSupport, ScoreData } from '../../../src/game-support/types.js';
import { gradeDelta } from '../../../src/scoring/targets/criteria.js';
import { checkGoalAgainstGpt } from '../../../src/scoring/targets/goal-definition.js';
import { evaluateMeasure } from '../../../src/scoring/targets/goal-evaluation.js';

const sdvx = findGpt('sdvx', 'Single')!;
const iidx = findGpt('iidx', 'SP')!;

function scoreData(gpt: GptSupport, fields: Partial<ScoreData>): ScoreData {
  return { score: 0, percent: 0, lamp: gpt.lamps[0], lampIndex: 0, grade: gpt.grades[0], gradeIndex: 0, judgements: {}, optional: {}, ...fields };
}

const folderGoal = (gpt: GptSupport, key: string, value: number) =>
  checkGoalAgainstGpt({ charts: { type: 'folder', data: 'F' }, criteria: { key, value, mode: 'absolute', countNum: 2 } }, gpt, {
    charts: [],
    folder: { title: 'X', chartCount: 10 },
  });

describe("goal rules come from each GPT's targets, not from game names", () => {
  it('the EX-score games (IIDX, BMS, PMS) and ITG register theirs; the other GPTs take the generic rules', () => {
    const withRules = allGpts()
      .filter((g) => g.targets)
      .map((g) => `${g.game} ${g.playtype}: ${Object.keys(g.targets!).sort().join(',')}`);
    expect(withRules).toEqual([
      'iidx SP: exScore,lampProgress',
      'iidx DP: exScore,lampProgress',
      'bms 7K: exScore,lampProgress',
      'bms 14K: exScore,lampProgress',
      'pms Controller: exScore,lampProgress',
      'pms Keyboard: exScore,lampProgress',
      'itg Stamina: lampProgress',
    ]);
  });

  it('an EX-score rule is what limits score goals to one chart and counts grade deltas in score, whatever the game', () => {
    expect(folderGoal(iidx, 'score', 100)).toBe('Score goals on iidx are only allowed on a single chart.');
    expect(folderGoal({ ...iidx, targets: undefined }, 'score', 100)).toBeUndefined();
    const exSdvx: GptSupport = { ...sdvx, gradeMetric: 'percent', targets: { exScore: { maxScore: () => 200 } } };
    expect(folderGoal(exSdvx, 'score', 100)).toBe('Score goals on sdvx are only allowed on a single chart.');
    const single = (gpt: GptSupport, value: number) =>
      checkGoalAgainstGpt({ charts: { type: 'single', data: 'c' }, criteria: { key: 'score', value, mode: 'single' } }, gpt, {
        charts: [{ chartID: 'c', songTitle: 'S', playtype: 'Single', difficulty: 'EXH', level: '17', data: {} }],
      });
    expect(single(exSdvx, 201)).toBe("criteria.value 201 is more than the chart's maximum score (200).");
    expect(single(exSdvx, 200)).toBeUndefined();
    // IIDX without its rule counts grade deltas in percent
    const aa = scoreData(iidx, { score: 1600, percent: 80, grade: 'AA', gradeIndex: 6 });
    expect(gradeDelta({ scoreData: aa, chartData: { notecount: 1000 } }, 9, iidx)).toBe('AA+44');
    expect(gradeDelta({ scoreData: aa, chartData: { notecount: 1000 } }, 9, { ...iidx, targets: undefined })).toBe('AA+2.22%');
  });

  it("a lamp goal's progress adds what the GPT's lampProgress gives", () => {
    const lampGoal = { criteria: { key: 'lamp', value: 2, mode: 'single' as const } };
    const measure = (sd: ScoreData) => ({ chartCount: 1, matched: 0, best: { value: sd.lampIndex, scoreData: sd, chartData: {} } });
    const itg = findGpt('itg', 'Stamina')!;
    const failed = scoreData(itg, { lamp: 'FAILED', optional: { diedAt: 42.456 } });
    expect(evaluateMeasure(lampGoal, measure(failed), itg).progressHuman).toBe('FAILED (Died 42.46% in)');
    const withBp = scoreData(sdvx, { lamp: 'CLEAR', lampIndex: 1, optional: { bp: 3 } });
    expect(evaluateMeasure(lampGoal, measure(withBp), sdvx).progressHuman).toBe('CLEAR');
    expect(evaluateMeasure(lampGoal, measure(withBp), { ...sdvx, targets: { lampProgress: (sd) => `${sd.lamp}!` } }).progressHuman).toBe('CLEAR!');
  });

  it('criteriaKeys limits the keys a GPT allows', () => {
    const lampsOnly: GptSupport = { ...sdvx, targets: { criteriaKeys: ['lamp'] } };
    expect(folderGoal(lampsOnly, 'lamp', 1)).toBeUndefined();
    expect(folderGoal(lampsOnly, 'score', 100)).toBe("criteria.key 'score' is not used on sdvx Single: use 'lamp'.");
  });

  it('the generic goal, match and import code names no game', () => {
    const root = fileURLToPath(new URL('../../../src', import.meta.url));
    const files = (dir: string): string[] =>
      (fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []).flatMap((e) => {
        const p = path.join(dir, e.name);
        return e.isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
      });
    const generic = [
      ...['scoring', 'targets', 'repositories', 'presenters', 'ugpt'].flatMap((d) => files(path.join(root, d))),
      // the pipeline and the shared score element; each import type is a format, which may name its game
      ...files(path.join(root, 'imports')).filter((f) => !f.includes(`${path.sep}import-types${path.sep}`)),
    ];
    const gameLiteral = new RegExp(`['"\`](${GAMES.map((g) => g.game).join('|')})['"\`]`);
    const naming = generic.filter((f) => gameLiteral.test(fs.readFileSync(f, 'utf8'))).map((f) => path.relative(root, f));
    expect(naming).toEqual([]);
  });
});

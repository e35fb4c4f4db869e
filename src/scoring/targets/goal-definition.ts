import type { GptSupport } from '../../game-support/types.js';
import { computeGoalID } from '../../common/canonical-json.js';
import { criteriaKind, upTo2dp, type GoalCriteria } from './criteria.js';
import type { GoalCharts, GoalDefinition } from './goal-evaluation.js';

/** A chart as goal names show it. */
export interface NamedChart {
  chartID: string;
  songTitle: string;
  playtype: string;
  difficulty: string;
  level: string;
  data: Readonly<Record<string, unknown>>;
}

/** What the catalog says about a goal's charts: the charts found (single, multi) or the folder. */
export interface GoalChartsContext {
  charts: NamedChart[];
  folder?: { title: string; chartCount: number };
}

/** Why `{charts, criteria}` is not a well-formed goal, before looking anything up; undefined when it is. */
export function checkGoalShape(charts: { type: unknown; data: unknown }, criteria: Record<string, unknown>): string | undefined {
  const { type, data } = charts;
  if (type === 'single' || type === 'folder') {
    if (typeof data !== 'string' || data.length === 0)
      return `charts.data must be a ${type === 'single' ? 'chartID' : 'folderID'} string for charts.type '${type}'.`;
  } else if (type === 'multi') {
    if (!Array.isArray(data) || data.length < 2 || data.length > 10 || !data.every((d) => typeof d === 'string'))
      return "charts.data must be an array of 2 to 10 chartIDs for charts.type 'multi'.";
    if (new Set(data).size !== data.length) return 'charts.data must not name a chart twice.';
  } else return "charts.type must be 'single', 'multi' or 'folder'.";
  if (typeof criteria.key !== 'string' || !criteriaKind(criteria.key)) return "criteria.key must be 'score', 'percent', 'lamp' or 'grade'.";
  if (typeof criteria.value !== 'number' || !Number.isFinite(criteria.value)) return 'criteria.value must be a number.';
  const { mode, countNum } = criteria;
  if (mode !== 'single' && mode !== 'absolute' && mode !== 'proportion') return "criteria.mode must be 'single', 'absolute' or 'proportion'.";
  if (mode === 'single' && countNum !== undefined) return "criteria.countNum must be absent in mode 'single'.";
  if (mode !== 'single' && (typeof countNum !== 'number' || !Number.isFinite(countNum) || countNum < 0))
    return `criteria.countNum must be a number of 0 or more in mode '${mode}'.`;
  if (type === 'single' && mode !== 'single') return "A goal on a single chart must use criteria.mode 'single'.";
  if (type === 'multi' && mode === 'proportion') return "A goal on multiple charts cannot use criteria.mode 'proportion'.";
  return undefined;
}

/**
 * Why a well-formed goal does not fit its GPT and charts (Tachi's goal validation); undefined when
 * it does. `context` holds what the catalog found for the goal's charts. The GPT's own rules come
 * from its `targets` (the criteria keys it allows, EX-score goals).
 */
export function checkGoalAgainstGpt(goal: Pick<GoalDefinition, 'charts' | 'criteria'>, gpt: GptSupport, context: GoalChartsContext): string | undefined {
  const { charts, criteria } = goal;
  let chartCount: number;
  if (charts.type === 'single') {
    if (context.charts.length !== 1) return `The chart ${charts.data} does not exist on ${gpt.game} ${gpt.playtype}.`;
    chartCount = 1;
  } else if (charts.type === 'multi') {
    if (context.charts.length !== charts.data.length) {
      const found = new Set(context.charts.map((c) => c.chartID));
      const missing = charts.data.filter((id) => !found.has(id));
      return `Expected charts.data to match ${charts.data.length} charts on ${gpt.game} ${gpt.playtype}, but ${missing.join(', ')} ${missing.length === 1 ? 'does' : 'do'} not exist there.`;
    }
    chartCount = charts.data.length;
  } else {
    if (!context.folder) return `The folder ${charts.data} does not exist on ${gpt.game} ${gpt.playtype}.`;
    chartCount = context.folder.chartCount;
  }

  const rules = gpt.targets;
  if (rules?.criteriaKeys && !rules.criteriaKeys.includes(criteria.key))
    return `criteria.key '${criteria.key}' is not used on ${gpt.game} ${gpt.playtype}: use ${rules.criteriaKeys.map((k) => `'${k}'`).join(', ')}.`;
  const kind = criteriaKind(criteria.key)!;
  const problem = kind.check(criteria.value, gpt);
  if (problem) return problem;
  if (criteria.key === 'score' && rules?.exScore) {
    if (charts.type !== 'single') return `Score goals on ${gpt.game} are only allowed on a single chart.`;
    const maxScore = rules.exScore.maxScore(context.charts[0].data);
    if (maxScore !== undefined && criteria.value > maxScore) return `criteria.value ${criteria.value} is more than the chart's maximum score (${maxScore}).`;
  }

  const countNum = criteria.countNum ?? 0;
  if (criteria.mode === 'proportion') {
    if (!(countNum > 0 && countNum <= 1)) return `criteria.countNum must be more than 0 and at most 1 in mode 'proportion'; got ${countNum}.`;
    if (Math.floor(chartCount * countNum) === 0)
      return `criteria.countNum ${countNum} of ${chartCount} chart${chartCount === 1 ? '' : 's'} rounds down to 0 charts: the goal would need nothing.`;
  } else if (criteria.mode === 'absolute') {
    if (!Number.isInteger(countNum) || countNum < 2 || countNum > chartCount)
      return `criteria.countNum must be a whole number from 2 to ${chartCount} (the charts in the set) in mode 'absolute'; got ${countNum}.`;
  }
  return undefined;
}

/** A chart as Tachi's FormatChart writes it: "Title (SP ANOTHER 12)", without the playtype on one-playtype games. */
export function formatChart(chart: NamedChart, showPlaytype: boolean): string {
  return `${chart.songTitle} (${showPlaytype ? `${chart.playtype} ` : ''}${chart.difficulty} ${chart.level})`;
}

function joinList(items: readonly string[], conjunction: 'or' | 'and'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items[items.length - 1]}`;
}

/**
 * The goal's name, as Tachi's CreateGoalTitle: the criteria ("HARD CLEAR", "AAA", "Get 98% on",
 * "Get a score of 3,700 on") followed by the charts in the mode's pattern.
 */
export function goalName(goal: Pick<GoalDefinition, 'charts' | 'criteria'>, gpt: GptSupport, context: GoalChartsContext, showPlaytype: boolean): string {
  const { charts, criteria } = goal;
  const prefix = criteriaKind(criteria.key)!.titlePrefix(criteria.value, gpt);
  const byID = new Map(context.charts.map((c) => [c.chartID, formatChart(c, showPlaytype)]));
  const named = (ids: readonly string[]) => ids.map((id) => byID.get(id) ?? id);
  const folder = `the ${context.folder?.title ?? charts.data} folder`;
  const countNum = criteria.countNum ?? 0;
  if (criteria.mode === 'single') {
    if (charts.type === 'single') return `${prefix} ${named([charts.data])[0]}`;
    if (charts.type === 'folder') return `${prefix} any chart in ${folder}`;
    return charts.data.length === 2 ? `${prefix} either ${joinList(named(charts.data), 'or')}` : `${prefix} any one of ${joinList(named(charts.data), 'or')}`;
  }
  if (criteria.mode === 'absolute') {
    if (charts.type === 'folder') return `${prefix} ${countNum} charts in ${folder}`;
    const list = typeof charts.data === 'string' ? [charts.data] : charts.data;
    return countNum === list.length ? `${prefix} ${joinList(named(list), 'and')}` : `${prefix} any ${countNum} of ${joinList(named(list), 'or')}`;
  }
  const percent = upTo2dp(countNum * 100);
  if (charts.type === 'folder') return `${prefix} ${percent}% of the charts in ${folder}`;
  const list = typeof charts.data === 'string' ? [charts.data] : charts.data;
  return `${prefix} ${percent}% of ${joinList(named(list), 'or')}`;
}

/** The goal's canonical form and id: criteria keys in Tachi's order, countNum only outside single mode. */
export function normaliseGoal(game: string, playtype: string, charts: GoalCharts, criteria: GoalCriteria): GoalDefinition {
  const normalised: GoalCriteria =
    criteria.mode === 'single'
      ? { key: criteria.key, value: criteria.value, mode: criteria.mode }
      : { key: criteria.key, value: criteria.value, mode: criteria.mode, countNum: criteria.countNum };
  const chartsCopy = (charts.type === 'multi' ? { type: 'multi', data: [...charts.data] } : { type: charts.type, data: charts.data }) as GoalCharts;
  return { goalID: computeGoalID({ charts: chartsCopy, criteria: normalised, game, playtype }), game, playtype, charts: chartsCopy, criteria: normalised };
}

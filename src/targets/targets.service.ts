import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { findGame } from '../game-support/registry.js';
import type { GptSupport } from '../game-support/types.js';
import type { UserRow } from '../http/auth/auth-context.js';
import { CatalogRepository } from '../repositories/catalog.repository.js';
import { RelatedDocuments } from '../repositories/related-documents.js';
import { TargetsRepository } from '../repositories/targets.repository.js';
import { UsersRepository } from '../repositories/users.repository.js';
import { toUserDocument } from '../presenters/user.presenter.js';
import {
  goalSubResult,
  toGoalDocument,
  toGoalSubDocument,
  toQuestDocument,
  toGoalNameDocument,
  toQuestlineDocument,
  toQuestlineList,
  toQuestSubDocument,
  type EvaluatedGoalResult,
} from '../presenters/targets.presenter.js';
import type { GoalCriteria } from '../scoring/targets/criteria.js';
import { checkGoalAgainstGpt, checkGoalShape, goalName, normaliseGoal, type GoalChartsContext } from '../scoring/targets/goal-definition.js';
import type { GoalCharts, GoalDefinition, GoalEvaluation } from '../scoring/targets/goal-evaluation.js';
import { questGoalIDs } from '../scoring/targets/subscriptions.writer.js';
import { TargetEvaluationService } from '../scoring/targets/target-evaluation.service.js';
import { TargetSubscriptionsService } from '../scoring/targets/target-subscriptions.service.js';
import type { AddGoalDto } from './dto/targets.dto.js';
import type { GoalRow, GoalSubRow, QuestRow, QuestSubRow } from '../database/schema.js';

const definitionOf = (g: GoalRow): GoalDefinition => ({
  goalID: g.goalID,
  game: g.game,
  playtype: g.playtype,
  charts: g.charts as GoalCharts,
  criteria: g.criteria,
});

const resultOf = (goalID: string, e: GoalEvaluation): EvaluatedGoalResult => ({
  goalID,
  achieved: e.achieved,
  progress: e.progress,
  outOf: e.outOf,
  progressHuman: e.progressHuman,
  outOfHuman: e.outOfHuman,
});

/** The targets routes: goals, quests and questlines of a GPT, and a user's subscriptions to them. */
@Injectable()
export class TargetsService {
  constructor(
    private readonly targets: TargetsRepository,
    private readonly catalog: CatalogRepository,
    private readonly related: RelatedDocuments,
    private readonly users: UsersRepository,
    private readonly evaluation: TargetEvaluationService,
    private readonly subscriptions: TargetSubscriptionsService,
  ) {}

  // ---- lookups (404 for unknown ids) ----

  async goalOr404(gpt: GptSupport, goalID: string): Promise<GoalRow> {
    const goal = await this.targets.goal(gpt.game, gpt.playtype, goalID);
    if (!goal) throw new NotFoundException(`The goal ${goalID} does not exist on ${gpt.game} ${gpt.playtype}.`);
    return goal;
  }

  async questOr404(gpt: GptSupport, questID: string): Promise<QuestRow> {
    const quest = await this.targets.quest(gpt.game, gpt.playtype, questID);
    if (!quest) throw new NotFoundException(`The quest ${questID} does not exist on ${gpt.game} ${gpt.playtype}.`);
    return quest;
  }

  private async userOr404(param: string, requester: UserRow | null): Promise<UserRow> {
    let user: UserRow | undefined;
    if (param === 'me') {
      if (!requester) throw new BadRequestException("userID 'me' needs authentication.");
      user = requester;
    } else if (/^[0-9]+$/.test(param)) user = Number(param) <= 2147483647 ? await this.users.findById(Number(param)) : undefined;
    else user = await this.users.findByUsername(param);
    if (!user) throw new NotFoundException(`The user ${param} does not exist.`);
    return user;
  }

  private async subsDocuments(subs: { goalSubs: GoalSubRow[]; questSubs: QuestSubRow[] }) {
    const [goals, quests] = await Promise.all([
      this.targets.goalsByIds(subs.goalSubs.map((s) => s.goalID)),
      this.targets.questsByIds(subs.questSubs.map((s) => s.questID)),
    ]);
    return {
      goals: goals.map(toGoalDocument),
      quests: quests.map(toQuestDocument),
      goalSubs: subs.goalSubs.map(toGoalSubDocument),
      questSubs: subs.questSubs.map(toQuestSubDocument),
    };
  }

  // ---- GPT routes ----

  async recentlyAchieved(gpt: GptSupport) {
    return this.subsDocuments(await this.targets.recentlyAchieved(gpt.game, gpt.playtype));
  }

  async recentlyRaised(gpt: GptSupport) {
    return this.subsDocuments(await this.targets.recentlyRaised(gpt.game, gpt.playtype));
  }

  async popularGoals(gpt: GptSupport) {
    return (await this.targets.popularGoals(gpt.game, gpt.playtype)).map((p) => ({ ...toGoalDocument(p.goal), __subscriptions: p.subscriptions }));
  }

  async goal(gpt: GptSupport, goalID: string) {
    const goal = await this.goalOr404(gpt, goalID);
    const [subs, parents] = await Promise.all([this.targets.subsOfGoal(goalID), this.targets.parentQuests(goalID)]);
    return {
      goal: toGoalDocument(goal),
      goalSubs: subs.map(toGoalSubDocument),
      users: await this.related.users(subs.map((s) => s.userID)),
      parentQuests: parents.map(toQuestDocument),
    };
  }

  async evaluateGoalFor(gpt: GptSupport, goalID: string, userParam: string, requester: UserRow | null) {
    const goal = await this.goalOr404(gpt, goalID);
    const user = await this.userOr404(userParam, requester);
    const evaluation = (await this.evaluation.evaluate(user.id, [definitionOf(goal)])).get(goalID)!;
    const result = {
      achieved: evaluation.achieved,
      progress: evaluation.progress,
      progressHuman: evaluation.progressHuman,
      outOf: evaluation.outOf,
      outOfHuman: evaluation.outOfHuman,
    };
    return { goal: toGoalDocument(goal), user: toUserDocument(user), results: result, result };
  }

  async quests(gpt: GptSupport, search: string | undefined) {
    return (await this.targets.searchQuests(gpt.game, gpt.playtype, search?.trim() || undefined)).map(toQuestDocument);
  }

  async quest(gpt: GptSupport, questID: string) {
    const quest = await this.questOr404(gpt, questID);
    const [subs, goals, questlines] = await Promise.all([
      this.targets.subsOfQuest(questID),
      this.targets.goalsByIds(questGoalIDs(quest.questData)),
      this.targets.parentQuestlines(questID),
    ]);
    return {
      quest: toQuestDocument(quest),
      questSubs: subs.map(toQuestSubDocument),
      users: await this.related.users(subs.map((s) => s.userID)),
      goals: goals.map(toGoalDocument),
      parentQuestlines: questlines.map(toQuestlineDocument),
    };
  }

  /** A quest evaluated live for a user: each goal's result, goals achieved (progress) and goals needed (outOf). */
  async evaluateQuestFor(gpt: GptSupport, questID: string, userParam: string, requester: UserRow | null) {
    const quest = await this.questOr404(gpt, questID);
    const user = await this.userOr404(userParam, requester);
    const goals = await this.targets.goalsByIds(questGoalIDs(quest.questData));
    const evaluations = await this.evaluation.evaluate(user.id, goals.map(definitionOf));
    const goalResults = goals.flatMap((g) => (evaluations.has(g.goalID) ? [resultOf(g.goalID, evaluations.get(g.goalID)!)] : []));
    const outOf = questGoalIDs(quest.questData).length;
    const progress = goalResults.filter((r) => r.achieved).length;
    return { goals: goals.map(toGoalDocument), goalResults, achieved: progress >= outOf, progress, outOf };
  }

  /** The questlines (the spec's list); the tachi profile's answer adds the quests in no questline and their goals. */
  async questlines(gpt: GptSupport, search: string | undefined) {
    const [questlines, standalone] = await Promise.all([
      this.targets.searchQuestlines(gpt.game, gpt.playtype, search?.trim() || undefined),
      this.targets.standaloneQuests(gpt.game, gpt.playtype),
    ]);
    const standaloneGoals = await this.targets.goalsByIds(standalone.flatMap((q) => questGoalIDs(q.questData)));
    return toQuestlineList({ questlines, standalone, standaloneGoals });
  }

  async questline(gpt: GptSupport, questlineID: string) {
    const questline = await this.targets.questline(gpt.game, gpt.playtype, questlineID);
    if (!questline) throw new NotFoundException(`The questline ${questlineID} does not exist on ${gpt.game} ${gpt.playtype}.`);
    const quests = await this.targets.questsByIds(questline.quests);
    return {
      questline: toQuestlineDocument(questline),
      quests: quests.map(toQuestDocument),
      goals: (await this.targets.goalsByIds(quests.flatMap((q) => questGoalIDs(q.questData)))).map(toGoalDocument),
    };
  }

  /** The name a goal {charts, criteria} gets (checked as add-goal checks it: 400 "Invalid goal: …"), without creating it. */
  async formatGoal(gpt: GptSupport, dto: AddGoalDto) {
    return toGoalNameDocument((await this.buildGoal(gpt, dto, 'Invalid goal: ')).name);
  }

  // ---- UGPT reads ----

  async userRecentlyAchieved(user: UserRow, gpt: GptSupport) {
    const docs = await this.subsDocuments(await this.targets.recentlyAchieved(gpt.game, gpt.playtype, user.id));
    return { ...docs, quest: docs.quests, user: toUserDocument(user) };
  }

  async userRecentlyRaised(user: UserRow, gpt: GptSupport) {
    const docs = await this.subsDocuments(await this.targets.recentlyRaised(gpt.game, gpt.playtype, user.id));
    return { ...docs, quest: docs.quests, user: toUserDocument(user) };
  }

  /** {quests, questSubs} and the quests' goals (which Tachi's client reads). */
  async userQuests(user: UserRow, gpt: GptSupport) {
    const subs = await this.targets.userQuestSubs(user.id, gpt.game, gpt.playtype);
    const quests = await this.targets.questsByIds(subs.map((s) => s.questID));
    const goals = await this.targets.goalsByIds(quests.flatMap((q) => questGoalIDs(q.questData)));
    return { quests: quests.map(toQuestDocument), questSubs: subs.map(toQuestSubDocument), goals: goals.map(toGoalDocument) };
  }

  /** Every goal and quest subscription of the user on the GPT, with their goals and quests. */
  async userAllSubs(user: UserRow, gpt: GptSupport) {
    const [goalSubs, questSubs] = await Promise.all([
      this.targets.userGoalSubs(user.id, gpt.game, gpt.playtype),
      this.targets.userQuestSubs(user.id, gpt.game, gpt.playtype),
    ]);
    return this.subsDocuments({ goalSubs, questSubs });
  }

  /** The user's goal subs concerning the chart, and their subscribed quests holding those goals. 404 for a chart not on the GPT. */
  async userTargetsOnChart(user: UserRow, gpt: GptSupport, chartID: string) {
    if (!(await this.catalog.chart(gpt.game, gpt.playtype, chartID)))
      throw new NotFoundException(`The chart ${chartID} does not exist on ${gpt.game} ${gpt.playtype}.`);
    return this.withParentQuests(user, gpt, await this.targets.userGoalsOnChart(user.id, gpt.game, gpt.playtype, chartID));
  }

  /** The user's goal subs concerning the folder (a goal on it or on one of its charts), and their subscribed quests holding them. */
  async userTargetsOnFolder(user: UserRow, gpt: GptSupport, folderID: string) {
    if (!(await this.catalog.folder(gpt.game, gpt.playtype, folderID)))
      throw new NotFoundException(`The folder ${folderID} does not exist on ${gpt.game} ${gpt.playtype}.`);
    return this.withParentQuests(user, gpt, await this.targets.userGoalsOnFolder(user.id, gpt.game, gpt.playtype, folderID));
  }

  /** {goals, goalSubs, quests, questSubs}: the given subs and the user's quest subs on the GPT whose quest holds one of their goals. */
  private async withParentQuests(user: UserRow, gpt: GptSupport, rows: { goalSub: GoalSubRow; goal: GoalRow }[]) {
    const goalIDs = new Set(rows.map((r) => r.goalSub.goalID));
    const allQuestSubs = goalIDs.size ? await this.targets.userQuestSubs(user.id, gpt.game, gpt.playtype) : [];
    const quests = (await this.targets.questsByIds(allQuestSubs.map((s) => s.questID))).filter((q) => questGoalIDs(q.questData).some((id) => goalIDs.has(id)));
    const questIDs = new Set(quests.map((q) => q.questID));
    return {
      goals: rows.map((r) => toGoalDocument(r.goal)),
      goalSubs: rows.map((r) => toGoalSubDocument(r.goalSub)),
      quests: quests.map(toQuestDocument),
      questSubs: allQuestSubs.filter((s) => questIDs.has(s.questID)).map(toQuestSubDocument),
    };
  }

  /** The user's quest: their sub, the quest, its goals and each goal's result from their goal subs. 404 when not subscribed. */
  async userQuest(user: UserRow, gpt: GptSupport, questID: string) {
    const quest = await this.questOr404(gpt, questID);
    const questSub = await this.targets.userQuestSub(user.id, questID);
    if (!questSub) throw new NotFoundException(`${user.username} is not subscribed to the quest ${questID}.`);
    return { questSub: toQuestSubDocument(questSub), quest: toQuestDocument(quest), ...(await this.questGoalResults(user.id, quest)) };
  }

  /** A quest's goals and their results: stored goal subs, or a live evaluation for a goal without one. */
  private async questGoalResults(userID: number, quest: QuestRow) {
    const refs = questGoalIDs(quest.questData);
    const [goals, subs] = await Promise.all([this.targets.goalsByIds(refs), this.targets.userGoalSubsFor(userID, refs)]);
    const subByID = new Map(subs.map((s) => [s.goalID, s]));
    const missing = goals.filter((g) => !subByID.has(g.goalID));
    const live = missing.length ? await this.evaluation.evaluate(userID, missing.map(definitionOf)) : new Map<string, GoalEvaluation>();
    const results = goals.flatMap((g) => {
      const sub = subByID.get(g.goalID);
      if (sub) return [goalSubResult(sub)];
      const e = live.get(g.goalID);
      return e ? [resultOf(g.goalID, e)] : [];
    });
    return { goals: goals.map(toGoalDocument), results };
  }

  async userGoals(user: UserRow, gpt: GptSupport) {
    const [goalSubs, questSubs] = await Promise.all([
      this.targets.userGoalSubs(user.id, gpt.game, gpt.playtype),
      this.targets.userQuestSubs(user.id, gpt.game, gpt.playtype),
    ]);
    return { ...(await this.subsDocuments({ goalSubs, questSubs })), user: toUserDocument(user) };
  }

  /** The user's goal: their sub, the goal, a live evaluation, and the quests holding it. 404 when not subscribed. */
  async userGoal(user: UserRow, gpt: GptSupport, goalID: string) {
    const goal = await this.goalOr404(gpt, goalID);
    const goalSub = await this.targets.userGoalSub(user.id, goalID);
    if (!goalSub) throw new NotFoundException(`${user.username} is not subscribed to the goal ${goalID}.`);
    const [evaluations, quests] = await Promise.all([this.evaluation.evaluate(user.id, [definitionOf(goal)]), this.targets.parentQuests(goalID)]);
    return {
      goalSub: toGoalSubDocument(goalSub),
      goal: toGoalDocument(goal),
      result: resultOf(goalID, evaluations.get(goalID)!),
      quests: quests.map(toQuestDocument),
      user: toUserDocument(user),
    };
  }

  // ---- UGPT writes ----

  async subscribeGoal(user: UserRow, gpt: GptSupport, goalID: string) {
    const goal = await this.goalOr404(gpt, goalID);
    const { goalSub } = await this.subscriptions.addGoal(user.id, definitionOf(goal));
    return { goal: toGoalDocument(goal), goalSub: toGoalSubDocument(goalSub) };
  }

  /** Builds a goal from {charts, criteria}, checks it against the GPT, creates it when new and subscribes the user. */
  async addGoal(user: UserRow, gpt: GptSupport, dto: AddGoalDto) {
    const { definition, name } = await this.buildGoal(gpt, dto);
    const { goalSub } = await this.subscriptions.addGoal(user.id, definition, name);
    const goal = (await this.targets.goal(gpt.game, gpt.playtype, definition.goalID))!;
    return { goal: toGoalDocument(goal), goalSub: toGoalSubDocument(goalSub) };
  }

  /** The goal {charts, criteria} describes on the GPT and its name; 400 (the problem, after `prefix`) when it is not a valid goal there. */
  private async buildGoal(gpt: GptSupport, dto: AddGoalDto, prefix = ''): Promise<{ definition: GoalDefinition; name: string }> {
    const shape = checkGoalShape(dto.charts, { ...dto.criteria });
    if (shape) throw new BadRequestException(`${prefix}${shape}`);
    const criteria: GoalCriteria = { key: dto.criteria.key, value: dto.criteria.value, mode: dto.criteria.mode, countNum: dto.criteria.countNum };
    const definition = normaliseGoal(gpt.game, gpt.playtype, dto.charts as GoalCharts, criteria);
    const context = await this.chartsContext(gpt, definition.charts);
    const problem = checkGoalAgainstGpt(definition, gpt, context);
    if (problem) throw new BadRequestException(`${prefix}${problem}`);
    return { definition, name: goalName(definition, gpt, context, (findGame(gpt.game)?.playtypes.length ?? 1) > 1) };
  }

  private async chartsContext(gpt: GptSupport, charts: GoalCharts): Promise<GoalChartsContext> {
    if (charts.type === 'folder') {
      const folder = await this.catalog.folder(gpt.game, gpt.playtype, charts.data);
      return { charts: [], folder: folder ? { title: folder.title, chartCount: await this.targets.folderChartCount(folder.folderID) } : undefined };
    }
    const ids = charts.type === 'single' ? [charts.data] : charts.data;
    const found = await this.catalog.chartsWithSongs(gpt.game, gpt.playtype, ids);
    return {
      charts: found.map(({ chart, song }) => ({
        chartID: chart.chartID,
        songTitle: song.title,
        playtype: chart.playtype,
        difficulty: chart.difficulty,
        level: chart.level,
        data: chart.data as Record<string, unknown>,
      })),
    };
  }

  async removeGoal(user: UserRow, gpt: GptSupport, goalID: string) {
    const goal = await this.goalOr404(gpt, goalID);
    await this.subscriptions.removeGoal(user.id, gpt.game, gpt.playtype, goalID);
    return { goal: toGoalDocument(goal) };
  }

  async subscribeQuest(user: UserRow, gpt: GptSupport, questID: string) {
    const quest = await this.questOr404(gpt, questID);
    const { questSub } = await this.subscriptions.subscribeQuest(user.id, quest);
    const { goals, results } = await this.questGoalResults(user.id, quest);
    return { goals, quest: toQuestDocument(quest), goalResults: results, questSub: toQuestSubDocument(questSub) };
  }

  async unsubscribeQuest(user: UserRow, gpt: GptSupport, questID: string) {
    const quest = await this.questOr404(gpt, questID);
    await this.subscriptions.unsubscribeQuest(user.id, quest);
    return { quest: toQuestDocument(quest) };
  }
}

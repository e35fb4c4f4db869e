import type { ClassDelta, WebhookPayload } from '../database/schema.js';

/** The events a client's webhookUri receives (Tachi's names and content; spec part 6 leaves them to the reference). */
export const WEBHOOK_EVENT_TYPES = ['class-update/v1', 'goals-achieved/v1', 'quest-achieved/v1'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** One event about one user. `key` is unique per event: the same event enqueued twice is delivered once. */
export interface WebhookEvent {
  key: string;
  payload: WebhookPayload & { type: WebhookEventType };
}

/** A goal's state before or after an import, as the ImportDocument's goalInfo carries it. */
export interface GoalStat {
  progress: number | null;
  progressHuman: string;
  outOf: number;
  outOfHuman: string;
  achieved: boolean;
}

export interface GoalInfoEntry {
  goalID: string;
  old: GoalStat;
  new: GoalStat;
}

/** A quest's state before or after an import, as the ImportDocument's questInfo carries it. */
export interface QuestStat {
  progress: number;
  achieved: boolean;
}

export interface QuestInfoEntry {
  questID: string;
  old: QuestStat;
  new: QuestStat;
}

export interface TargetGpt {
  game: string;
  playtype: string;
}

/** What the events of an import need beyond its document. */
export interface ImportEventLookups {
  /** The ordered class values (lowest first) of a class set, undefined if the set is unknown. */
  classOrder(game: string, playtype: string, set: string): readonly string[] | undefined;
  /** The game and playtype of a goal or a quest (undefined: no longer exists, no event). */
  goalGpt(goalID: string): TargetGpt | undefined;
  questGpt(questID: string): TargetGpt | undefined;
}

/** The parts of an ImportDocument the events come from. */
export interface ImportEventSource {
  importID: string;
  userID: number;
  classDeltas: readonly ClassDelta[];
  goalInfo: readonly unknown[];
  questInfo: readonly unknown[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const achieved = (state: unknown) => isObject(state) && state.achieved === true;

/**
 * The goalInfo entries whose goal became achieved: old state not achieved (or absent), new state
 * achieved. Entries of another shape are ignored.
 */
export function newlyAchievedGoals(goalInfo: readonly unknown[]): GoalInfoEntry[] {
  return goalInfo.filter((e): e is GoalInfoEntry => isObject(e) && typeof e.goalID === 'string' && isObject(e.new) && !achieved(e.old) && achieved(e.new));
}

/** The questInfo entries whose quest became achieved (old not achieved, new achieved). */
export function newlyAchievedQuests(questInfo: readonly unknown[]): QuestInfoEntry[] {
  return questInfo.filter((e): e is QuestInfoEntry => isObject(e) && typeof e.questID === 'string' && isObject(e.new) && !achieved(e.old) && achieved(e.new));
}

/**
 * The class deltas that raised a class: a first value (old null) or a higher one. A lowered
 * downgradable class is a delta too, but no event (as Tachi). A set whose order is unknown counts only first values.
 */
export function raisedClasses(classDeltas: readonly ClassDelta[], classOrder: ImportEventLookups['classOrder']): ClassDelta[] {
  return classDeltas.filter((d) => {
    if (d.old === null) return true;
    const order = classOrder(d.game, d.playtype, d.set);
    if (!order) return false;
    return order.indexOf(d.new) > order.indexOf(d.old);
  });
}

const goalStat = (s: unknown): GoalStat | null => {
  if (!isObject(s)) return null;
  return {
    progress: (s.progress as number | null | undefined) ?? null,
    progressHuman: s.progressHuman as string,
    outOf: s.outOf as number,
    outOfHuman: s.outOfHuman as string,
    achieved: s.achieved === true,
  };
};

const questStat = (s: unknown): QuestStat | null => (isObject(s) ? { progress: s.progress as number, achieved: s.achieved === true } : null);

/**
 * Every webhook event of a committed import, in Tachi's payloads:
 * - `class-update/v1` `{userID, set, old, new, game, playtype}` for each raised class;
 * - `goals-achieved/v1` `{userID, game, goals: [{goalID, old, new, playtype}]}`, one per game,
 *   with the goals that became achieved;
 * - `quest-achieved/v1` `{userID, questID, old, new, game, playtype}` for each quest that became achieved.
 */
export function importEvents(doc: ImportEventSource, lookups: ImportEventLookups): WebhookEvent[] {
  const events: WebhookEvent[] = [];
  for (const d of raisedClasses(doc.classDeltas, lookups.classOrder))
    events.push({
      key: `${doc.importID}:class-update/v1:${d.game}:${d.playtype}:${d.set}`,
      payload: { type: 'class-update/v1', content: { userID: doc.userID, set: d.set, old: d.old, new: d.new, game: d.game, playtype: d.playtype } },
    });

  const goalsByGame = new Map<string, { goalID: string; old: GoalStat | null; new: GoalStat | null; playtype: string }[]>();
  for (const g of newlyAchievedGoals(doc.goalInfo)) {
    const gpt = lookups.goalGpt(g.goalID);
    if (!gpt) continue;
    const list = goalsByGame.get(gpt.game) ?? [];
    list.push({ goalID: g.goalID, old: goalStat(g.old), new: goalStat(g.new), playtype: gpt.playtype });
    goalsByGame.set(gpt.game, list);
  }
  for (const [game, goals] of goalsByGame)
    events.push({ key: `${doc.importID}:goals-achieved/v1:${game}`, payload: { type: 'goals-achieved/v1', content: { userID: doc.userID, game, goals } } });

  for (const q of newlyAchievedQuests(doc.questInfo)) {
    const gpt = lookups.questGpt(q.questID);
    if (!gpt) continue;
    events.push({
      key: `${doc.importID}:quest-achieved/v1:${q.questID}`,
      payload: {
        type: 'quest-achieved/v1',
        content: { userID: doc.userID, questID: q.questID, old: questStat(q.old), new: questStat(q.new), game: gpt.game, playtype: gpt.playtype },
      },
    });
  }
  return events;
}

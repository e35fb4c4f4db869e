import type { Tx } from '../../database/database.js';
import { upsertRows } from '../../database/bulk-write.js';
import { goals, questlines, quests } from '../../database/schema.js';
import { computeGoalID } from '../../common/canonical-json.js';
import { goalRecord, questlineRecord, questRecord, type GoalRecord, type QuestlineRecord, type QuestRecord } from '../seed-records.js';
import type { SeedSource } from '../seed-source.js';
import { diffWithStored, dropDangling, knownIDs, readGptRecords, type Collection, type Diff, type SeedLoad } from './collections.js';

/** Goals, quests and questlines (goals.json, quests.json, questlines.json): quests name goals, questlines name quests. */

function checkGoal(load: SeedLoad, goal: GoalRecord, index: number): string | undefined {
  const expected = computeGoalID(goal);
  if (expected !== goal.goalID) load.warn('goals.json', index, `goalID ${goal.goalID} does not match its content (expected ${expected})`);
  return undefined;
}

function checkQuest(quest: QuestRecord): string | undefined {
  const refs = quest.questData.flatMap((s) => s.goals.map((g) => g.goalID));
  const dup = refs.find((g, i) => refs.indexOf(g) !== i);
  return dup ? `goal ${dup} is referenced twice` : undefined;
}

export function readGoals(load: SeedLoad, source: SeedSource, selected: ReadonlySet<string>): Promise<Collection<GoalRecord>> {
  return readGptRecords(
    load,
    source,
    'goals.json',
    goalRecord,
    (r) => r.goalID,
    selected,
    (r, i) => checkGoal(load, r, i),
  );
}

export function readQuests(load: SeedLoad, source: SeedSource, selected: ReadonlySet<string>): Promise<Collection<QuestRecord>> {
  return readGptRecords(
    load,
    source,
    'quests.json',
    questRecord,
    (r) => r.questID,
    selected,
    (r) => checkQuest(r),
  );
}

export function readQuestlines(load: SeedLoad, source: SeedSource, selected: ReadonlySet<string>): Promise<Collection<QuestlineRecord>> {
  return readGptRecords(load, source, 'questlines.json', questlineRecord, (r) => r.questlineID, selected);
}

/** Rejects the quests naming a goal, and then the questlines naming a quest, that is neither in its file nor in the database. */
export async function dropDanglingTargets(
  load: SeedLoad,
  goalCollection: Collection<GoalRecord>,
  questCollection: Collection<QuestRecord>,
  questlineCollection: Collection<QuestlineRecord>,
) {
  const goalIDs = await knownIDs(
    load,
    goals,
    goals.goalID,
    goalCollection.accepted.map((a) => a.record.goalID),
  );
  dropDangling(load, [questCollection], (q) => {
    const missing = q.questData.flatMap((s) => s.goals.map((g) => g.goalID)).filter((g) => !goalIDs.has(g));
    return missing.length ? `goal${missing.length > 1 ? 's' : ''} ${missing.slice(0, 3).join(', ')} do not exist` : undefined;
  });
  const questIDs = await knownIDs(
    load,
    quests,
    quests.questID,
    questCollection.accepted.map((a) => a.record.questID),
  );
  dropDangling(load, [questlineCollection], (ql) => {
    const missing = ql.quests.filter((q) => !questIDs.has(q));
    return missing.length ? `quest${missing.length > 1 ? 's' : ''} ${missing.slice(0, 3).join(', ')} do not exist` : undefined;
  });
}

export function diffGoals(load: SeedLoad, collection: Collection<GoalRecord>): Promise<Diff<GoalRecord>> {
  return diffWithStored(load, collection, goals, goals.goalID, goals.seedHash, (r) => r.goalID);
}

export function diffQuests(load: SeedLoad, collection: Collection<QuestRecord>): Promise<Diff<QuestRecord>> {
  return diffWithStored(load, collection, quests, quests.questID, quests.seedHash, (r) => r.questID);
}

export function diffQuestlines(load: SeedLoad, collection: Collection<QuestlineRecord>): Promise<Diff<QuestlineRecord>> {
  return diffWithStored(load, collection, questlines, questlines.questlineID, questlines.seedHash, (r) => r.questlineID);
}

export async function writeTargets(
  tx: Tx,
  diffs: { goals: Diff<GoalRecord>; quests: Diff<QuestRecord>; questlines: Diff<QuestlineRecord> },
  tick: (n: number) => void,
) {
  await upsertRows(
    tx,
    goals,
    ['goal_id'],
    diffs.goals.write.map((a) => goalRow(a.record, a.hash)),
    tick,
  );
  await upsertRows(
    tx,
    quests,
    ['quest_id'],
    diffs.quests.write.map((a) => questRow(a.record, a.hash)),
    tick,
  );
  await upsertRows(
    tx,
    questlines,
    ['questline_id'],
    diffs.questlines.write.map((a) => questlineRow(a.record, a.hash)),
    tick,
  );
}

/** The stored quests this load changed (their subscribers follow). */
export function updatedQuestIDs(diff: Diff<QuestRecord>): string[] {
  return diff.write.filter((a) => diff.updates.has(a)).map((a) => a.record.questID);
}

function goalRow(g: GoalRecord, hash: string): typeof goals.$inferInsert {
  return { goalID: g.goalID, game: g.game, playtype: g.playtype, name: g.name, charts: g.charts, criteria: g.criteria, seedHash: hash };
}

function questRow(q: QuestRecord, hash: string): typeof quests.$inferInsert {
  return { questID: q.questID, game: q.game, playtype: q.playtype, name: q.name, desc: q.desc, questData: q.questData, seedHash: hash };
}

function questlineRow(q: QuestlineRecord, hash: string): typeof questlines.$inferInsert {
  return { questlineID: q.questlineID, game: q.game, playtype: q.playtype, name: q.name, desc: q.desc, quests: q.quests, seedHash: hash };
}

import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import { anyOf } from '../../database/bulk-write.js';
import type { MergedPbRow } from '../pbs/personal-bests.writer.js';
import type { Tx } from '../../database/database.js';
import { classAchievements, charts, personalBests, profileRatings, scores, songs, userGameStats, type ClassDelta } from '../../database/schema.js';
import type { GptSupport, RatedScore } from '../../game-support/types.js';
import { toChartInfo, toSongInfo } from '../chart-info.js';

/**
 * The user's PBs on primary charts of the GPT, rated, as the profile algorithms take them. PBs
 * just merged in this transaction are passed in, and only the others are read back.
 */
async function primaryPbs(tx: Tx, userID: number, gpt: GptSupport, touched: readonly MergedPbRow[]): Promise<RatedScore[]> {
  const touchedIDs = touched.map((p) => p.chartID);
  const rows = await tx
    .select({ scoreData: personalBests.scoreData, calculatedData: personalBests.calculatedData, chart: getTableColumns(charts), song: getTableColumns(songs) })
    .from(personalBests)
    .innerJoin(charts, eq(charts.chartID, personalBests.chartID))
    .innerJoin(songs, and(eq(songs.game, charts.game), eq(songs.id, charts.songID)))
    .where(
      and(
        eq(personalBests.userID, userID),
        eq(personalBests.game, gpt.game),
        eq(personalBests.playtype, gpt.playtype),
        eq(personalBests.isPrimary, true),
        touchedIDs.length ? sql`NOT (${anyOf(personalBests.chartID, touchedIDs)})` : undefined,
      ),
    );
  return [
    ...rows.map((r) => ({ scoreData: r.scoreData, calculatedData: r.calculatedData, chart: toChartInfo(r.chart), song: toSongInfo(r.song) })),
    ...touched.filter((p) => p.isPrimary).map((p) => ({ scoreData: p.scoreData, calculatedData: p.calculatedData, chart: p.chart, song: p.song })),
  ];
}

async function hasScores(tx: Tx, userID: number, gpt: GptSupport): Promise<boolean> {
  const [row] = await tx
    .select({ one: sql`1` })
    .from(scores)
    .where(and(eq(scores.userID, userID), eq(scores.game, gpt.game), eq(scores.playtype, gpt.playtype)))
    .limit(1);
  return row !== undefined;
}

/**
 * Recomputes the user's profile ratings and derived classes on a GPT and applies provided
 * classes (from an import). A provided class only goes up unless its set is downgradable; a
 * derived class follows the ratings both ways and is left alone when its rating is null.
 * Every change is a delta; every raise (including a first value) is recorded as an achievement.
 * With keepClasses only the ratings are recomputed. touchedPbs are PBs merged earlier in the same
 * transaction (read from memory rather than back from the database); hasScores, when the caller
 * knows it, saves the query for whether the user has any score on the GPT.
 *
 * A user with no score on the GPT is no player of it: their derived classes go, and the profile
 * (with its profile_ratings) is deleted unless a provided class keeps it. A GPT never played gets
 * no profile from provided classes alone (as Tachi's imports): nothing is stored and no delta
 * reported; with createProfile (a class the game reports directly, such as a cleared dan course,
 * as Tachi's UpdateClassIfGreater) the profile is created with the classes.
 */
export async function recomputeGameStats(
  tx: Tx,
  userID: number,
  gpt: GptSupport,
  provided: Readonly<Record<string, string>> = {},
  options: { keepClasses?: boolean; touchedPbs?: readonly MergedPbRow[]; hasScores?: boolean; createProfile?: boolean } = {},
): Promise<ClassDelta[]> {
  const [current] = await tx
    .select()
    .from(userGameStats)
    .where(and(eq(userGameStats.userID, userID), eq(userGameStats.game, gpt.game), eq(userGameStats.playtype, gpt.playtype)))
    .for('update');
  const played = options.hasScores ?? (await hasScores(tx, userID, gpt));
  if (!played && !current && !(options.createProfile && Object.keys(provided).length > 0)) return [];
  const pbs = played ? await primaryPbs(tx, userID, gpt, options.touchedPbs ?? []) : [];
  const ratings = Object.fromEntries(Object.entries(gpt.profileRatingAlgs).map(([name, alg]) => [name, alg.calculate(pbs)]));
  const classes: Record<string, string> = Object.fromEntries(
    Object.entries(current?.classes ?? {}).filter(([set]) => played || gpt.classes[set]?.type !== 'DERIVED'),
  );
  const deltas: ClassDelta[] = [];
  const now = Date.now();
  const achievements: (typeof classAchievements.$inferInsert)[] = [];

  const apply = (set: string, value: string, mayLower: boolean) => {
    const values = gpt.classes[set].values;
    const old = classes[set] ?? null;
    const oldIndex = old === null ? -1 : values.findIndex((v) => v.id === old);
    const newIndex = values.findIndex((v) => v.id === value);
    if (newIndex === oldIndex || (newIndex < oldIndex && !mayLower)) return;
    classes[set] = value;
    deltas.push({ game: gpt.game, playtype: gpt.playtype, set, old, new: value });
    if (newIndex > oldIndex)
      achievements.push({ userID, game: gpt.game, playtype: gpt.playtype, classSet: set, classOldValue: old, classValue: value, timeAchieved: now });
  };
  for (const [set, value] of Object.entries(provided)) apply(set, value, gpt.classes[set].downgradable);
  for (const [set, def] of Object.entries(gpt.classes)) {
    if (options.keepClasses || def.type !== 'DERIVED' || !def.derive) continue;
    const value = def.derive(ratings);
    if (value !== null) apply(set, value, true);
  }

  // The numeric ratings are kept again below, one row each, for the leaderboards' index.
  await tx.delete(profileRatings).where(and(eq(profileRatings.userID, userID), eq(profileRatings.game, gpt.game), eq(profileRatings.playtype, gpt.playtype)));
  if (!played && Object.keys(classes).length === 0) {
    await tx.delete(userGameStats).where(and(eq(userGameStats.userID, userID), eq(userGameStats.game, gpt.game), eq(userGameStats.playtype, gpt.playtype)));
    return deltas;
  }
  await tx
    .insert(userGameStats)
    .values({ userID, game: gpt.game, playtype: gpt.playtype, ratings, classes, lastUpdated: now })
    .onConflictDoUpdate({ target: [userGameStats.userID, userGameStats.game, userGameStats.playtype], set: { ratings, classes, lastUpdated: now } });
  if (achievements.length) await tx.insert(classAchievements).values(achievements);
  const numeric = Object.entries(ratings).filter((e): e is [string, number] => typeof e[1] === 'number' && Number.isFinite(e[1]));
  if (numeric.length) await tx.insert(profileRatings).values(numeric.map(([alg, value]) => ({ userID, game: gpt.game, playtype: gpt.playtype, alg, value })));
  return deltas;
}

import { and, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import { anyOf } from '../../database/bulk-write.js';
import type { MergedPbRow } from '../pbs/personal-bests.writer.js';
import { queryRows, type Tx } from '../../database/database.js';
import { classAchievements, charts, pbRatings, personalBests, profileRatings, scores, songs, userGameStats, type ClassDelta } from '../../database/schema.js';
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

/** Whether every profile algorithm of the GPT rates the best n values of one score rating (AggregateRatingAlg.best). */
function bestReads(gpt: GptSupport): boolean {
  const algs = Object.values(gpt.profileRatingAlgs);
  return algs.length > 0 && algs.every((alg) => alg.best);
}

/** The statement that reads each algorithm's best n values (bestReads GPTs), as rows (alg, value). */
function bestValuesQuery(userID: number, gpt: GptSupport): SQL {
  const wanted = [...new Map(Object.values(gpt.profileRatingAlgs).map((alg) => [`${alg.best!.alg}`, alg.best!])).values()];
  const reads = wanted.map(
    (b) => sql`(SELECT ${b.alg}::text AS alg, ${pbRatings.value} AS value FROM ${pbRatings}
      WHERE ${pbRatings.userID} = ${userID} AND ${pbRatings.game} = ${gpt.game} AND ${pbRatings.playtype} = ${gpt.playtype} AND ${pbRatings.alg} = ${b.alg} AND ${pbRatings.isPrimary}
      ORDER BY ${pbRatings.value} DESC LIMIT ${b.n})`,
  );
  return sql.join(reads, sql` UNION ALL `);
}

/**
 * The profile ratings from the best values alone, when every algorithm of the GPT rates the best n
 * values of one score rating (AggregateRatingAlg.best): one statement reads each one's best n of
 * the user's primary PBs from pb_ratings' per-user index, which the PB writer keeps in the same
 * transaction. A new PB thus costs n index entries per algorithm, not a read of every PB. Returns
 * undefined for a GPT with another kind of algorithm.
 */
async function ratingsFromBest(tx: Tx, userID: number, gpt: GptSupport): Promise<Record<string, number | null> | undefined> {
  if (!bestReads(gpt)) return undefined;
  return ratingsOfBest(gpt, await queryRows<{ alg: string; value: number }>(tx, bestValuesQuery(userID, gpt)));
}

/** The profile ratings from the best values read (bestValuesQuery's rows). */
function ratingsOfBest(gpt: GptSupport, rows: readonly { alg: string; value: number }[]): Record<string, number | null> {
  const algs = Object.entries(gpt.profileRatingAlgs);
  const byAlg = new Map<string, number[]>();
  for (const r of rows) {
    const list = byAlg.get(r.alg) ?? [];
    list.push(Number(r.value));
    byAlg.set(r.alg, list);
  }
  return Object.fromEntries(
    algs.map(([name, alg]) => {
      const best = alg.best!;
      return [name, best.of((byAlg.get(best.alg) ?? []).sort((a, b) => b - a).slice(0, best.n))];
    }),
  );
}

/** The profile ratings recomputed from every primary PB of the user on the GPT (what ratingsFromBest must equal). */
export async function profileRatingsFromScratch(tx: Tx, userID: number, gpt: GptSupport): Promise<Record<string, number | null>> {
  const pbs = await primaryPbs(tx, userID, gpt, []);
  return Object.fromEntries(Object.entries(gpt.profileRatingAlgs).map(([name, alg]) => [name, alg.calculate(pbs)]));
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
  // After an import's PB writes (touchedPbs, with scores), the ratings come from the best values
  // where the algorithms allow it: read with the profile, in one statement.
  const withBest = options.hasScores === true && options.touchedPbs !== undefined && bestReads(gpt);
  let current: Pick<typeof userGameStats.$inferSelect, 'ratings' | 'classes'> | undefined;
  let fromBest: Record<string, number | null> | undefined;
  if (withBest) {
    const [row] = await queryRows<{
      current: { ratings: Record<string, number | null>; classes: Record<string, string> } | null;
      best: { alg: string; value: number }[] | null;
    }>(
      tx,
      sql`SELECT (SELECT json_build_object('ratings', s.ratings, 'classes', s.classes) FROM ${userGameStats} s
          WHERE s.user_id = ${userID} AND s.game = ${gpt.game} AND s.playtype = ${gpt.playtype} FOR UPDATE) AS current,
        (SELECT json_agg(json_build_object('alg', b.alg, 'value', b.value)) FROM (${bestValuesQuery(userID, gpt)}) b) AS best`,
    );
    current = row.current ?? undefined;
    fromBest = ratingsOfBest(gpt, row.best ?? []);
  } else {
    [current] = await tx
      .select({ ratings: userGameStats.ratings, classes: userGameStats.classes })
      .from(userGameStats)
      .where(and(eq(userGameStats.userID, userID), eq(userGameStats.game, gpt.game), eq(userGameStats.playtype, gpt.playtype)))
      .for('update');
  }
  const played = options.hasScores ?? (await hasScores(tx, userID, gpt));
  if (!played && !current && !(options.createProfile && Object.keys(provided).length > 0)) return [];
  if (!withBest && played && options.touchedPbs) fromBest = await ratingsFromBest(tx, userID, gpt);
  const ratings =
    fromBest ??
    (await (async () => {
      const pbs = played ? await primaryPbs(tx, userID, gpt, options.touchedPbs ?? []) : [];
      return Object.fromEntries(Object.entries(gpt.profileRatingAlgs).map(([name, alg]) => [name, alg.calculate(pbs)]));
    })());
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

  if (!played && Object.keys(classes).length === 0) {
    await tx.delete(profileRatings).where(and(eq(profileRatings.userID, userID), eq(profileRatings.game, gpt.game), eq(profileRatings.playtype, gpt.playtype)));
    await tx.delete(userGameStats).where(and(eq(userGameStats.userID, userID), eq(userGameStats.game, gpt.game), eq(userGameStats.playtype, gpt.playtype)));
    return deltas;
  }
  // The profile, its achievements and its numeric ratings (one profile_ratings row each, for the
  // leaderboards' index: upserted, the others deleted) in one statement; the ratings' rows only when
  // they changed.
  const numeric = Object.entries(ratings).filter((e): e is [string, number] => typeof e[1] === 'number' && Number.isFinite(e[1]));
  const before: Record<string, unknown> = current?.ratings ?? {};
  const ratingsChanged =
    !current ||
    Object.keys(before).length !== Object.keys(ratings).length ||
    Object.entries(ratings).some(([alg, value]) => !(alg in before) || before[alg] !== value);
  const parts: SQL[] = [
    sql`stats AS (INSERT INTO ${userGameStats} (user_id, game, playtype, ratings, classes, last_updated)
      VALUES (${userID}, ${gpt.game}, ${gpt.playtype}, ${JSON.stringify(ratings)}::jsonb, ${JSON.stringify(classes)}::jsonb, ${now})
      ON CONFLICT (user_id, game, playtype) DO UPDATE SET ratings = excluded.ratings, classes = excluded.classes, last_updated = excluded.last_updated)`,
  ];
  if (achievements.length)
    parts.push(sql`achieved AS (INSERT INTO ${classAchievements} (user_id, game, playtype, class_set, class_old_value, class_value, time_achieved)
      SELECT ${userID}, ${gpt.game}, ${gpt.playtype}, a.class_set, a.class_old_value, a.class_value, ${now}
      FROM jsonb_to_recordset(${JSON.stringify(achievements.map((a) => ({ class_set: a.classSet, class_old_value: a.classOldValue, class_value: a.classValue })))}::jsonb)
        AS a(class_set text, class_old_value text, class_value text))`);
  if (ratingsChanged) {
    parts.push(sql`gone AS (DELETE FROM ${profileRatings} WHERE user_id = ${userID} AND game = ${gpt.game} AND playtype = ${gpt.playtype}
      AND NOT (alg = ANY(${sql.param(numeric.map(([alg]) => alg))}::text[])))`);
    if (numeric.length)
      parts.push(sql`kept AS (INSERT INTO ${profileRatings} (user_id, game, playtype, alg, value)
        SELECT ${userID}, ${gpt.game}, ${gpt.playtype}, r.alg, r.value FROM jsonb_to_recordset(${JSON.stringify(numeric.map(([alg, value]) => ({ alg, value })))}::jsonb) AS r(alg text, value float8)
        ON CONFLICT (user_id, game, playtype, alg) DO UPDATE SET value = excluded.value)`);
  }
  await tx.execute(sql`WITH ${sql.join(parts, sql`, `)} SELECT 1`);
  return deltas;
}

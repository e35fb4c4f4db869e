import type { z } from 'zod';
import type { MatchType } from './match-types.js';

/** A registered batch-manual match type's name (the registry is match-types.ts). */
export type { MatchType };

export interface SongInfo {
  id: number;
  title: string;
  artist: string;
  altTitles: readonly string[];
  searchTerms: readonly string[];
  data: Readonly<Record<string, unknown>>;
}

export interface ChartInfo {
  chartID: string;
  songID: number;
  playtype: string;
  difficulty: string;
  level: string;
  levelNum: number;
  isPrimary: boolean;
  versions: readonly string[];
  data: Readonly<Record<string, unknown>>;
}

/** What an import supplies for one score, after the generic batch-manual checks. */
export interface ScoreInput {
  score: number;
  lamp: string;
  /** Only for GPTs whose percent is an input (jubeat's music rate). */
  percent?: number;
  judgements: Readonly<Record<string, number | null>>;
  /** Game-specific optional metrics, already validated against GptSupport.optionalMetrics. */
  optional: Readonly<Record<string, unknown>>;
}

/** A stored score's scoreData. Enum indexes make lamp and grade comparable and sortable. */
export interface ScoreData {
  score: number;
  percent: number;
  lamp: string;
  lampIndex: number;
  grade: string;
  gradeIndex: number;
  judgements: Readonly<Record<string, number | null>>;
  optional: Readonly<Record<string, unknown>>;
}

export type Derivation = { ok: true; scoreData: ScoreData } | { ok: false; error: string };

/** A score (or PB) with what the rating algorithms may need. */
export interface RatedScore {
  scoreData: ScoreData;
  calculatedData: Readonly<Record<string, number | null>>;
  chart: ChartInfo;
  song: SongInfo;
}

export interface ScoreRatingAlg {
  description: string;
  /** The rating of one score, or null when the chart lacks what the formula needs. Never throws. */
  calculate(scoreData: ScoreData, chart: ChartInfo, song: SongInfo): number | null;
}

export interface AggregateRatingAlg {
  description: string;
  /** Session algorithms get every score of the session; profile algorithms get the user's PBs on primary charts. */
  calculate(scores: readonly RatedScore[]): number | null;
  /**
   * Set when the rating depends on nothing but the best `n` values of one score rating `alg`:
   * `of(values)`, given them largest first (fewer when fewer scores have one), equals `calculate`
   * over all the scores. Writers then read those n values from an index instead of every score.
   */
  best?: { alg: string; n: number; of(values: readonly number[]): number | null };
}

export interface ClassValue {
  id: string;
  display: string;
  hoverText?: string;
}

export interface ClassSet {
  /** PROVIDED: set by imports (e.g. a dan). DERIVED: recomputed from the profile ratings after each import. */
  type: 'PROVIDED' | 'DERIVED';
  /** Ascending: a later value is a higher class. */
  values: readonly ClassValue[];
  /** Whether an import may lower the value. Provided classes never go down unless this is true. */
  downgradable: boolean;
  /** DERIVED only: the class for these profile ratings, or null when the input rating is null. */
  derive?: (ratings: Readonly<Record<string, number | null>>) => string | null;
}

/** How a PB takes game-specific metrics beyond best score + best lamp. M: the GPT's optional metric names. */
export type PbMergeRule<M extends string = string> =
  /** Copy these optional metrics from the best-lamp score (e.g. gauge, which belongs with the lamp). */
  | { kind: 'fromLampPB'; optional: readonly M[] }
  /**
   * Take the best value of an optional metric across all the user's scores on the chart (e.g. lowest BP).
   * amongBestLamp: only from plays with the PB's lamp, for a metric that must agree with the lamp (pop'n clearMedal).
   */
  | { kind: 'best'; optional: M; direction: 'min' | 'max'; name: string; order?: readonly string[]; amongBestLamp?: boolean }
  /** Take `score` from the highest-score play, where the PB's main order is not the score (jubeat: music rate). */
  | { kind: 'bestScore'; name: string };

/** What a GPT's PBs are ordered by when it is not percent (HEAD's defaultMetric): higher is better. */
export interface PbOrder {
  /** composedFrom name of the play that holds it (e.g. 'Best Result'). */
  name: string;
  value(scoreData: ScoreData): number;
}

/** The kind of one of Tachi's (HEAD) metrics, as its GamePTConfig names it. */
export type HeadMetricType = 'INTEGER' | 'DECIMAL' | 'ENUM' | 'GRAPH' | 'NULLABLE_GRAPH';

/** One metric of Tachi's (HEAD) GamePTConfig: its kind, what it is, and an enum's values (ascending). */
export interface HeadMetric {
  type: HeadMetricType;
  description: string;
  values?: readonly string[];
  /** An enum's lowest value worth showing (HEAD's minimumRelevantValue). */
  minimumRelevantValue?: string;
}

/** A batch-manual score element as sent (its fields before validation). */
export type RawScoreElement = Readonly<Record<string, unknown>>;

/**
 * How today's Tachi (HEAD) names a GPT's score where it differs from this service's single score/lamp/percent model
 * (CHUNITHM's noteLamp + clearLamp, pop'n's clearMedal, ...). Absent on a GPT: HEAD's names are this service's
 * (provided score and lamp, derived percent and grade), see common/head-names.ts.
 */
export interface HeadNames {
  providedMetrics: Readonly<Record<string, HeadMetric>>;
  derivedMetrics: Readonly<Record<string, HeadMetric>>;
  /** The metric leaderboards go by. */
  defaultMetric: string;
  /** The enum metric the UI groups scores by. */
  preferredDefaultEnum: string;
  /**
   * A batch-manual element written with HEAD's names, in this service's names (lamp, percent, optional); an element
   * in the older form comes back as it was. A string: why the element cannot be read.
   */
  fromHead(element: RawScoreElement): RawScoreElement | string;
  /** HEAD's metrics of a scoreData (added to Tachi's scoreData beside the older fields), with their enum indexes. */
  toHead(scoreData: ScoreData): { metrics: Record<string, unknown>; enumIndexes: Record<string, number> };
}

/** A chart `data` field whose values (a string, or a list of them) no two charts of the game may share. */
export interface UniqueChartKey {
  field: string;
  /** Unique within a playtype only (e.g. USC hashes). */
  perPlaytype: boolean;
}

export type Difficulties = { type: 'FIXED'; order: readonly string[]; shorthand: Readonly<Record<string, string>>; default: string } | { type: 'DYNAMIC' };

/**
 * Everything the service knows about one game + playtype. M: its optional metric names; the registry and every
 * consumer see the erased GptSupport (M = string), game folders build theirs with defineGpt (see GptDefinition).
 */
export interface GptSupport<M extends string = string> {
  game: string;
  playtype: string;
  /** Upper bound of scoreData.percent. */
  percentMax: number;
  difficulties: Difficulties;
  /** Ascending. */
  lamps: readonly string[];
  clearLamp: string;
  /** Ascending, with each grade's inclusive lower bound in gradeBoundaries, in the unit of gradeMetric. */
  grades: readonly string[];
  gradeBoundaries: readonly number[];
  gradeMetric: 'score' | 'percent';
  clearGrade: string;
  judgements: readonly string[];
  /** Version id to display name. */
  versions: Readonly<Record<string, string>>;
  scoreRatingAlgs: Readonly<Record<string, ScoreRatingAlg>>;
  defaultScoreRatingAlg: string;
  sessionRatingAlgs: Readonly<Record<string, AggregateRatingAlg>>;
  defaultSessionRatingAlg: string;
  profileRatingAlgs: Readonly<Record<string, AggregateRatingAlg>>;
  defaultProfileRatingAlg: string;
  classes: Readonly<Record<string, ClassSet>>;
  /** batch-manual `optional`: a strict object schema, every key optional and nullable. */
  optionalMetrics: z.ZodType<Record<string, unknown>>;
  /** batch-manual `scoreMeta`: a strict object schema, every key optional. */
  scoreMeta: z.ZodType<Record<string, unknown>>;
  /** Chart `data` of this GPT's seeds. Unknown extra keys are allowed. */
  chartData: z.ZodType<Record<string, unknown>>;
  /** The batch-manual match types this GPT accepts, each registered in match-types.ts for its game. */
  supportedMatchTypes: readonly MatchType[];
  /** 'required' when batch-manual `percent` carries the music rate (jubeat); otherwise it must be absent. */
  percentInput: 'required' | 'forbidden';
  /** Validates the score against the chart (range, lamp consistency) and derives percent, grade and indexes. */
  deriveScore(input: ScoreInput, chart: ChartInfo): Derivation;
  /**
   * The grade deriveScore gives a score, percent and lamp on this chart. PBs re-derive it, because a merged PB
   * can take its lamp from another play and some grades depend on the lamp (a pop'n fail is capped at A).
   */
  gradeOf(play: Pick<ScoreData, 'score' | 'percent' | 'lamp'>, chart: ChartInfo): string;
  /** How plays are ordered for the PB's score, and PBs for chart ranks; absent: percent, then score. */
  pbOrder?: PbOrder;
  pbMerge: readonly PbMergeRule<M>[];
  /** Optional metrics that tell two otherwise equal plays apart, so they are part of the scoreID (e.g. SDVX exScore). */
  identityMetrics: readonly M[];
  /**
   * Metrics derived from the optional ones and the chart, kept in `optional` (ONGEKI's platinumStars, from
   * platinumScore and the chart's maxPlatScore): what deriveScore adds to each play and the PB merge re-derives from
   * the PB's own optional metrics. A key whose value is undefined is removed. Absent: the GPT derives none.
   */
  derivedOptional?: (optional: Readonly<Record<string, unknown>>, chart: ChartInfo) => Readonly<Record<string, unknown>>;
  /** How goals treat this GPT where it differs from the generic rules; absent: the generic rules everywhere. */
  targets?: GptTargets;
  /** Today's Tachi (HEAD) names of the score where they differ from this service's; absent: they are the same. */
  head?: HeadNames;
  /** HEAD's preferredDefaultEnum where the GPT has no `head`: the enum the UI groups scores by; absent: grade. */
  preferredDefaultEnum?: 'lamp' | 'grade';
  /** The GPT's own user preferences (Tachi's UGPTSettings `gameSpecific`); absent: it has none. */
  preferences?: GptPreferences;
}

/**
 * A GPT's own user preferences (Tachi's per-GPT `Preferences`): what a user may set, one key at a
 * time, and what a profile has before they set any.
 */
export interface GptPreferences {
  /** A strict object schema whose keys are all optional: a PATCH may send any of them. */
  schema: z.ZodType<Record<string, unknown>>;
  /** Every key a new profile has (a key Tachi leaves optional, such as a target, may be absent). */
  defaults: Readonly<Record<string, unknown>>;
}

/**
 * A GPT's goal rules (Tachi's per-game cases of goal validation, naming and progress). The goal code
 * (src/scoring/targets/) reads these and never a game's name; each absent field is the generic rule.
 */
export interface GptTargets {
  /** The criteria keys goals may use on this GPT; absent: every key of the criteria registry. */
  criteriaKeys?: readonly string[];
  /**
   * Goals count this GPT's score as an EX score whose maximum on a chart is maxScore(chart data), undefined when the
   * chart does not say: a score goal may name a single chart only, and no more than its maximum, and a grade goal's
   * progress ("AA+40") counts the distance in score through the maximum rather than in percent.
   */
  exScore?: { maxScore(chartData: Readonly<Record<string, unknown>>): number | undefined };
  /** A lamp goal's progress: the PB's lamp with what the game adds to it ("HARD CLEAR (BP: 12)"); undefined: the lamp alone. */
  lampProgress?(scoreData: ScoreData): string | undefined;
}

/** The GptSupport fields GptDefinition types more narrowly. */
type NarrowedByDefinition =
  | 'optionalMetrics'
  | 'lamps'
  | 'clearLamp'
  | 'grades'
  | 'clearGrade'
  | 'scoreRatingAlgs'
  | 'defaultScoreRatingAlg'
  | 'sessionRatingAlgs'
  | 'defaultSessionRatingAlg'
  | 'profileRatingAlgs'
  | 'defaultProfileRatingAlg';

/**
 * A GptSupport as a game folder writes it, typed over its own names, all inferred by defineGpt: S is the shape of
 * its optionalMetrics, so pbMerge and identityMetrics can name only its metrics; clearLamp and clearGrade
 * must be one of its lamps and grades, each default rating algorithm a key of its record.
 */
export interface GptDefinition<
  S extends z.core.$ZodShape,
  Lamp extends string,
  Grade extends string,
  ScoreAlg extends string,
  SessionAlg extends string,
  ProfileAlg extends string,
> extends Omit<GptSupport<NoInfer<keyof S & string>>, NarrowedByDefinition> {
  /** z.strictObject: zod's types cannot tell it from z.object, so test/unit/games/gpt-typing.spec.ts checks it. */
  optionalMetrics: z.ZodObject<S, z.core.$strict>;
  lamps: readonly Lamp[];
  clearLamp: NoInfer<Lamp>;
  grades: readonly Grade[];
  clearGrade: NoInfer<Grade>;
  scoreRatingAlgs: Readonly<Record<ScoreAlg, ScoreRatingAlg>>;
  defaultScoreRatingAlg: NoInfer<ScoreAlg>;
  sessionRatingAlgs: Readonly<Record<SessionAlg, AggregateRatingAlg>>;
  defaultSessionRatingAlg: NoInfer<SessionAlg>;
  profileRatingAlgs: Readonly<Record<ProfileAlg, AggregateRatingAlg>>;
  defaultProfileRatingAlg: NoInfer<ProfileAlg>;
}

export interface GameSupport {
  game: string;
  name: string;
  playtypes: readonly string[];
  defaultPlaytype: string;
  /** Song `data` of this game's seeds. Unknown extra keys are allowed. */
  songData: z.ZodType<Record<string, unknown>>;
  /** Chart data fields the seed loader keeps unique across the game's charts (hashes that identify one chart). */
  uniqueChartKeys?: readonly UniqueChartKey[];
  gpts: Readonly<Record<string, GptSupport>>;
}

import type { GameSupport, GptSupport } from '../game-support/types.js';

/** Spec GameConfig. */
export function toGameConfig(game: GameSupport) {
  return { name: game.name, validPlaytypes: game.playtypes, defaultPlaytype: game.defaultPlaytype };
}

const describeAlgs = (algs: Readonly<Record<string, { description: string }>>) => Object.fromEntries(Object.entries(algs).map(([name, alg]) => [name, { description: alg.description }]));

/** A non-finite boundary (a grade only a fail can get) has no JSON number; it is shown as null. */
const jsonNumber = (n: number) => (Number.isFinite(n) ? n : null);

/**
 * Spec GamePTConfig (idString, percentMax, default rating algorithms, classes with their
 * humanised values) plus the rest of what clients need to render and submit scores.
 */
export function toGptConfig(gpt: GptSupport) {
  return {
    idString: `${gpt.game}:${gpt.playtype}`,
    percentMax: gpt.percentMax,
    defaultScoreRatingAlg: gpt.defaultScoreRatingAlg,
    defaultSessionRatingAlg: gpt.defaultSessionRatingAlg,
    defaultProfileRatingAlg: gpt.defaultProfileRatingAlg,
    scoreRatingAlgs: describeAlgs(gpt.scoreRatingAlgs),
    sessionRatingAlgs: describeAlgs(gpt.sessionRatingAlgs),
    profileRatingAlgs: describeAlgs(gpt.profileRatingAlgs),
    classes: Object.fromEntries(
      Object.entries(gpt.classes).map(([name, set]) => [name, { type: set.type, downgradable: set.downgradable, values: set.values.map((v, index) => ({ index, ...v })) }]),
    ),
    difficulties: gpt.difficulties,
    lamps: gpt.lamps,
    clearLamp: gpt.clearLamp,
    grades: gpt.grades,
    gradeBoundaries: gpt.gradeBoundaries.map(jsonNumber),
    gradeMetric: gpt.gradeMetric,
    clearGrade: gpt.clearGrade,
    judgements: gpt.judgements,
    versions: gpt.versions,
    supportedMatchTypes: gpt.supportedMatchTypes,
    percentInput: gpt.percentInput,
  };
}

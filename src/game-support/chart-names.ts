import { difficultyAliases, identifierProblem, needsDifficulty } from './common/match-type.js';
import { findMatchType } from './match-types.js';
import type { GptSupport } from './types.js';

/**
 * Why a score cannot name its chart this way on the GPT (a match type it does not accept, an identifier of the
 * wrong shape, a missing or unknown difficulty); undefined when it can. What batch-manual checks of every score
 * element before chart matching, and what charts/resolve checks of its query.
 */
export function chartNameProblem(gpt: GptSupport, matchTypeName: string, identifier: string, difficulty: string | null): string | undefined {
  const gptName = `${gpt.game} ${gpt.playtype}`;
  const matchType = findMatchType(matchTypeName);
  if (!matchType || !gpt.supportedMatchTypes.includes(matchType.name)) {
    return `matchType '${matchTypeName.slice(0, 100)}' is not supported for ${gptName}.${gpt.supportedMatchTypes.length ? ` Use one of: ${gpt.supportedMatchTypes.join(', ')}.` : ''}`;
  }
  const badIdentifier = identifierProblem(matchType, identifier);
  if (badIdentifier) return badIdentifier;
  if (needsDifficulty(matchType.lookup)) {
    if (difficulty === null) return `difficulty is required for matchType ${matchType.name}.`;
    const aliases = difficultyAliases(matchType.lookup);
    const valid = gpt.difficulties.type === 'DYNAMIC' || gpt.difficulties.order.includes(difficulty) || aliases.includes(difficulty);
    if (!valid && gpt.difficulties.type === 'FIXED') {
      return `Invalid difficulty '${difficulty}' for ${gptName}: expected one of ${[...gpt.difficulties.order, ...aliases].join(', ')}.`;
    }
  }
  return undefined;
}

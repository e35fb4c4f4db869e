import { BadRequestException } from '@nestjs/common';
import type { GptSupport } from '../game-support/types.js';

export type AlgKind = 'score' | 'session' | 'profile';

const ALGS: Record<AlgKind, (gpt: GptSupport) => { algs: Readonly<Record<string, unknown>>; fallback: string }> = {
  score: (gpt) => ({ algs: gpt.scoreRatingAlgs, fallback: gpt.defaultScoreRatingAlg }),
  session: (gpt) => ({ algs: gpt.sessionRatingAlgs, fallback: gpt.defaultSessionRatingAlg }),
  profile: (gpt) => ({ algs: gpt.profileRatingAlgs, fallback: gpt.defaultProfileRatingAlg }),
};

/**
 * The GPT's rating algorithm of this kind that was asked for, or its default; otherwise 400:
 * "Invalid <subject> '<name>'. Expected one of: <names>[ or null] (<Kind> rating algorithms of
 * <game> <playtype>: <names>)." The subject defaults to "<kind> rating algorithm"; a body field
 * names itself (e.g. preferredScoreAlg), and `orNull` says null is accepted too.
 */
export function pickAlg(gpt: GptSupport, kind: AlgKind, requested: string | undefined, options: { subject?: string; orNull?: boolean } = {}): string {
  const { algs, fallback } = ALGS[kind](gpt);
  const alg = requested ?? fallback;
  if (!Object.hasOwn(algs, alg)) {
    const names = Object.keys(algs).join(', ');
    const subject = options.subject ?? `${kind} rating algorithm`;
    const Kind = `${kind[0].toUpperCase()}${kind.slice(1)}`;
    throw new BadRequestException(
      `Invalid ${subject} '${alg}'. Expected one of: ${names}${options.orNull ? ' or null' : ''} (${Kind} rating algorithms of ${gpt.game} ${gpt.playtype}: ${names}).`,
    );
  }
  return alg;
}

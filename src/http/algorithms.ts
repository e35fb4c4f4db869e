import { BadRequestException } from '@nestjs/common';

/** The algorithm asked for, or the default; 400 naming the valid ones when it is not one of them. */
export function pickAlg(algs: Readonly<Record<string, unknown>>, requested: string | undefined, fallback: string, kind: string): string {
  const alg = requested ?? fallback;
  if (!Object.hasOwn(algs, alg)) throw new BadRequestException(`Invalid ${kind} rating algorithm '${alg}'. Expected one of: ${Object.keys(algs).join(', ')}.`);
  return alg;
}

import type { z } from 'zod';
import type { GptDefinition, GptSupport } from '../types.js';

/** Checks a GPT's names against each other at compile time (see GptDefinition) and returns it unchanged, type-erased. */
export function defineGpt<
  S extends z.core.$ZodShape,
  Lamp extends string,
  Grade extends string,
  ScoreAlg extends string,
  SessionAlg extends string,
  ProfileAlg extends string,
>(gpt: GptDefinition<S, Lamp, Grade, ScoreAlg, SessionAlg, ProfileAlg>): GptSupport {
  return gpt;
}

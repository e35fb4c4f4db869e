import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { defineGpt } from '../../../src/game-support/common/define-gpt.js';
import { nonNegInt } from '../../../src/game-support/common/metrics.js';
import { allGpts } from '../../../src/game-support/registry.js';
import { SDVX } from '../../../src/game-support/sdvx/index.js';
import type { GptDefinition, GptSupport } from '../../../src/game-support/types.js';

const { pbMerge: _p, identityMetrics: _i, optionalMetrics: _o, ...rest } = SDVX.gpts.Single;
const { VF6 } = SDVX.gpts.Single.scoreRatingAlgs;
const base = { ...rest, lamps: ['FAILED', 'CLEAR'], clearLamp: 'CLEAR', scoreRatingAlgs: { VF6 }, defaultScoreRatingAlg: 'VF6' } as const;
const optionalMetrics = z.strictObject({ bp: nonNegInt(), gauge: nonNegInt() });

describe('defineGpt', () => {
  // `npm run typecheck` fails if one of the marked lines stops being an error.
  it('refuses, at compile time, names the GPT does not define', () => {
    const refused = [
      defineGpt({
        ...base,
        optionalMetrics,
        // @ts-expect-error -- a pbMerge rule must name one of the GPT's optional metrics
        pbMerge: [{ kind: 'best', optional: 'bpp', direction: 'min', name: 'Best BP' }],
        identityMetrics: [],
      }),
      defineGpt({
        ...base,
        optionalMetrics,
        // @ts-expect-error -- so must every metric a fromLampPB rule copies
        pbMerge: [{ kind: 'fromLampPB', optional: ['gauge', 'gaugeHistory'] }],
        identityMetrics: [],
      }),
      defineGpt({
        ...base,
        optionalMetrics,
        pbMerge: [],
        // @ts-expect-error -- identity metrics are optional metrics of the GPT
        identityMetrics: ['nope'],
      }),
      defineGpt({
        ...base,
        optionalMetrics,
        pbMerge: [],
        identityMetrics: [],
        // @ts-expect-error -- the clear lamp is one of the GPT's lamps
        clearLamp: 'EXCESSIVE CLEAR',
      }),
      defineGpt({
        ...base,
        optionalMetrics,
        pbMerge: [],
        identityMetrics: [],
        // @ts-expect-error -- the default score rating algorithm is one of its score rating algorithms
        defaultScoreRatingAlg: 'VF5',
      }),
    ];
    expect(refused).toHaveLength(5);
  });

  it('returns the definition itself: typing changes no value', () => {
    const definition: GptDefinition<typeof optionalMetrics.shape, 'FAILED' | 'CLEAR', string, 'VF6', string, string> = {
      ...base,
      optionalMetrics,
      pbMerge: [{ kind: 'best', optional: 'bp', direction: 'min', name: 'Best BP' }],
      identityMetrics: ['gauge'],
    };
    expect(defineGpt(definition)).toBe(definition);
  });

  it('every registered GPT has strict optional metrics, and names only those in pbMerge and identityMetrics', () => {
    // zod's types cannot tell a strict object from a stripping one, so strictness is checked here.
    const accepts = (gpt: GptSupport, metric: string) => ({
      gpt: `${gpt.game} ${gpt.playtype}`,
      metric,
      ok: gpt.optionalMetrics.safeParse({ [metric]: null }).success,
    });
    for (const gpt of allGpts()) {
      expect(accepts(gpt, 'notAMetric').ok).toBe(false);
      // Every optional metric is nullable: a known name accepts null.
      const named = [...gpt.identityMetrics, ...gpt.pbMerge.flatMap((rule) => (rule.kind === 'bestScore' ? [] : rule.optional))];
      for (const metric of named) expect(accepts(gpt, metric)).toEqual({ gpt: `${gpt.game} ${gpt.playtype}`, metric, ok: true });
    }
  });
});

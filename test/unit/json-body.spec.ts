import { describe, expect, it } from '@jest/globals';
import { jsonProblem, MAX_JSON_DEPTH } from '../../src/http/json-body.js';

const nested = (levels: number) => JSON.parse(`${'['.repeat(levels)}${']'.repeat(levels)}`) as unknown;

describe('jsonProblem', () => {
  it(`accepts ${MAX_JSON_DEPTH} levels of nesting and refuses ${MAX_JSON_DEPTH + 1}`, () => {
    expect(jsonProblem(nested(MAX_JSON_DEPTH))).toBeUndefined();
    expect(jsonProblem(nested(MAX_JSON_DEPTH + 1))).toMatch(/nested more than 64 levels deep/);
    expect(jsonProblem({ a: { b: nested(MAX_JSON_DEPTH) } })).toMatch(/at a\.b(\[0\])+\)/);
  });

  it('walks a million levels without overflowing the stack', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 1_000_000; i++) deep = [deep];
    expect(jsonProblem(deep)).toMatch(/nested more than/);
  });

  it('refuses lone surrogates in strings and keys, naming the path, and accepts whole pairs', () => {
    expect(jsonProblem({ scores: [{}, { identifier: 'a\ud800' }] })).toBe(
      'scores[1].identifier: contains a lone surrogate (an unpaired \\uD800-\\uDFFF escape), which is not valid Unicode text.',
    );
    expect(jsonProblem({ meta: { ['\udc00']: 1 } })).toMatch(/^meta: a key contains a lone surrogate/);
    expect(jsonProblem('\ud800')).toMatch(/^the top level: contains a lone surrogate/);
    expect(jsonProblem({ ok: '😀 \u00e9', list: ['x', 1, null, true] })).toBeUndefined();
  });
});

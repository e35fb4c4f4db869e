import { describe, expect, it } from '@jest/globals';
import { stringifyJson, withJsonText } from '../../../src/common/json-text.js';

describe('stringifyJson', () => {
  it('writes exactly what JSON.stringify writes', () => {
    class Point {
      constructor(
        readonly x: number,
        readonly y: number,
      ) {}
    }
    const nullProto = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1 });
    const values: unknown[] = [
      null,
      0,
      -0,
      1e21,
      1e-7,
      NaN,
      'a "quoted" \u2028 line',
      true,
      [],
      {},
      [undefined, () => 1, Symbol('s'), null],
      { skipped: undefined, fn: () => 1, kept: null, 2: 'two', 1: 'one', nested: { deeper: { deepest: [1, { x: undefined }] } } },
      { when: new Date(Date.UTC(2026, 10, 24)), custom: { toJSON: () => 'custom' }, point: new Point(1, 2) },
      { songs: [{ id: 1, data: { a: [1, 2] } }], charts: [], pbs: [{ scoreData: { score: 9_710_813, percent: 97.10813 } }] },
      nullProto,
      Object.assign([1, 2], { extra: 'ignored' }),
    ];
    for (const value of values) expect(stringifyJson(value)).toBe(JSON.stringify(value));
    expect(stringifyJson(undefined)).toBeUndefined();
    expect(stringifyJson(() => 1)).toBeUndefined();
  });

  it('uses a registered document’s text wherever the answer names it, at any depth', () => {
    const song = withJsonText({ id: 1, title: 'Reverenced Flower', data: { displayVersion: 'exceed' } });
    const answer = { songs: [song], nested: { list: [[song]] }, again: song };
    expect(stringifyJson(answer)).toBe(JSON.stringify(answer));
    // The kept text is what is written: a registered document is not read again (which is why it must not change).
    (song as { title: string }).title = 'changed';
    expect(stringifyJson({ songs: [song] })).toBe('{"songs":[{"id":1,"title":"Reverenced Flower","data":{"displayVersion":"exceed"}}]}');
  });
});

import { picker, seededRandom, shuffled, uniformPicker, zipfPicker } from '../../../bench/request-mix.js';

/** A "random" source that returns the given values in turn. */
const sequence = (...values: number[]) => {
  let i = 0;
  return () => values[i++ % values.length];
};

describe('reads bench request mixes', () => {
  it('zipfPicker (s = 1) draws the k-th item with weight 1/k: cumulative 1, 1.5, 1.8333 for three items', () => {
    // total 1 + 1/2 + 1/3 = 1.8333; x = random × total
    const draws = [0, 0.5, 0.6, 0.8, 0.9]; // x = 0, 0.9167, 1.1, 1.4667, 1.65
    const pick = zipfPicker(['a', 'b', 'c'], sequence(...draws));
    expect(draws.map(() => pick())).toEqual(['a', 'a', 'b', 'b', 'c']);
  });

  it('zipfPicker with s = 2 uses weights 1/k²: cumulative 1, 1.25, 1.3611', () => {
    // x = 0.75 × 1.3611 = 1.0208 (second); x = 0.92 × 1.3611 = 1.2522 (third, just past 1.25)
    const pick = zipfPicker(['a', 'b', 'c'], sequence(0.75, 0.92), 2);
    expect([pick(), pick()]).toEqual(['b', 'c']);
  });

  it('zipfPicker gives the first of ten items a share of 1/H10 = 1/2.928968 = 0.3414', () => {
    const pick = zipfPicker([...'abcdefghij'], seededRandom(7));
    let first = 0;
    for (let i = 0; i < 100_000; i++) if (pick() === 'a') first++;
    expect(first / 100_000).toBeGreaterThan(0.3314);
    expect(first / 100_000).toBeLessThan(0.3514);
  });

  it('uniformPicker maps [0, 1) onto the items evenly', () => {
    const pick = uniformPicker(['a', 'b', 'c', 'd'], sequence(0, 0.49, 0.5, 0.99));
    expect([pick(), pick(), pick(), pick()]).toEqual(['a', 'b', 'c', 'd']);
  });

  it('refuses an empty population', () => {
    expect(() => zipfPicker([], Math.random)).toThrow(/at least one item/);
    expect(() => uniformPicker([], Math.random)).toThrow(/at least one item/);
  });

  it('shuffled keeps every item once, in an order fixed by the seed', () => {
    const items = Array.from({ length: 50 }, (_, i) => i);
    const once = shuffled(items, seededRandom(3));
    expect([...once].sort((a, b) => a - b)).toEqual(items);
    expect(shuffled(items, seededRandom(3))).toEqual(once);
    expect(once).not.toEqual(items);
  });

  it('picker: fixed always gives the sample; cold and zipf draw from the items, the same sequence for the same seed', () => {
    const items = Array.from({ length: 100 }, (_, i) => i);
    const fixed = picker('fixed', items, 42, 1);
    expect([fixed(), fixed(), fixed()]).toEqual([42, 42, 42]);
    for (const mix of ['cold', 'zipf'] as const) {
      const a = picker(mix, items, 42, 9);
      const b = picker(mix, items, 42, 9);
      const drawn = Array.from({ length: 20 }, () => a());
      expect(Array.from({ length: 20 }, () => b())).toEqual(drawn);
      expect(new Set(drawn).size).toBeGreaterThan(1);
    }
  });
});

/**
 * How the reads bench spreads its requests: one fixed request (everything hot), uniformly over
 * players and charts (cold: nothing repeats often enough to stay in a cache), or by a Zipf law of
 * exponent s = 1 over a shuffled order (a few players and charts take most requests, as on a real
 * service). Every run draws the same sequence: the generator is seeded.
 */
export type MixName = 'fixed' | 'cold' | 'zipf';
export const MIXES: readonly MixName[] = ['fixed', 'cold', 'zipf'];

/** A deterministic pseudo-random generator (mulberry32). */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The items in an order fixed by the seed (Fisher–Yates), so popularity does not follow ids. */
export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * Draws items with P(k-th) proportional to 1 / k^s (k = 1..n, in the given order): a binary search
 * over the cumulative weights.
 */
export function zipfPicker<T>(items: readonly T[], random: () => number, s = 1): () => T {
  if (items.length === 0) throw new Error('zipfPicker needs at least one item');
  const cumulative = new Float64Array(items.length);
  let total = 0;
  for (let k = 0; k < items.length; k++) cumulative[k] = total += 1 / Math.pow(k + 1, s);
  return () => {
    const x = random() * total;
    let lo = 0;
    let hi = items.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return items[lo];
  };
}

export function uniformPicker<T>(items: readonly T[], random: () => number): () => T {
  if (items.length === 0) throw new Error('uniformPicker needs at least one item');
  return () => items[Math.floor(random() * items.length)];
}

/** A picker of one kind of item under a mix: `fixed` always gives `sample`. */
export function picker<T>(mix: MixName, items: readonly T[], sample: T, seed: number): () => T {
  const random = seededRandom(seed);
  if (mix === 'fixed') return () => sample;
  if (mix === 'cold') return uniformPicker(items, random);
  return zipfPicker(shuffled(items, seededRandom(seed ^ 0x5bd1e995)), random);
}

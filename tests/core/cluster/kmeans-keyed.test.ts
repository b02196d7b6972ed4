/**
 * k-means++ seeding keyed by ids (`KMeansOptions.ids`, issue #44): a local clustering's set of points gains or
 * loses a member when a node crosses the global step's membership threshold, and a seeding that draws by
 * position then picks other centres for every later draw. Keyed by ids, removing a point that was not drawn
 * leaves the centres as they were, and each centre is still drawn with probability ∝ D².
 */
import { describe, expect, it } from 'vitest';
import { kmeansPlusPlus } from '../../../src/core/cluster/kmeans';
import { seededRandom } from '../../../src/core/random';

const N = 80;
const DIM = 3;
const K = 6;

function points(seed: number): Float64Array {
  const r = seededRandom(seed);
  return Float64Array.from({ length: N * DIM }, () => r() * 10);
}

/** The data without row `drop`, and the ids of the rows kept. */
function without(data: Float64Array, drop: number): { data: Float64Array; ids: number[] } {
  const keep = Array.from({ length: N }, (_, i) => i).filter((i) => i !== drop);
  const out = new Float64Array(keep.length * DIM);
  keep.forEach((i, r) => out.set(data.subarray(i * DIM, (i + 1) * DIM), r * DIM));
  return { data: out, ids: keep };
}

/** How many single-point removals leave the seeding's centres exactly as they were. */
function unmoved(data: Float64Array, keyed: boolean): number {
  const ids = Array.from({ length: N }, (_, i) => i);
  const full = kmeansPlusPlus(data, N, DIM, K, seededRandom(7), keyed ? ids : undefined);
  let same = 0;
  for (let drop = 0; drop < N; drop++) {
    const rest = without(data, drop);
    const centres = kmeansPlusPlus(rest.data, N - 1, DIM, K, seededRandom(7), keyed ? rest.ids : undefined);
    if (centres.every((v, i) => v === full[i])) same++;
  }
  return same;
}

describe('k-means++ seeding keyed by ids', () => {
  it('keeps its centres when a point it did not draw leaves the set (by position it does not)', () => {
    const data = points(3);
    // Keyed: only removing one of the trials' candidates (≤ 1 + (K − 1) · 3 of them) can move a centre.
    expect(unmoved(data, true)).toBeGreaterThanOrEqual(N - (1 + (K - 1) * 3));
    // By position, a removal shifts the draws of every later index: most removals move some centre.
    expect(unmoved(data, false)).toBeLessThan(N / 2);
  });

  it('draws the first centre uniformly and later ones in proportion to D² (a far point wins almost always)', () => {
    // 40 points at the origin and one far away: the second centre is the far point unless the first one was.
    const data = new Float64Array(41 * DIM);
    data.set([1000, 1000, 1000], 40 * DIM);
    const ids = Array.from({ length: 41 }, (_, i) => 100 + i);
    let farFirst = 0;
    for (let s = 0; s < 200; s++) {
      const c = kmeansPlusPlus(data, 41, DIM, 2, seededRandom(s), ids);
      const first = c[0] === 1000;
      if (first) farFirst++;
      // Whichever was drawn first, the two centres are the two distinct places.
      expect(c[0] + c[3]).toBe(1000);
    }
    // Uniform first draw: the far point (1 of 41) comes first about 200 / 41 ≈ 5 times.
    expect(farFirst).toBeLessThan(20);
  });
});

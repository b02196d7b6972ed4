/**
 * The fuzzy set's two fast paths (issue #44, the KJV's layer 1: 2.2 million edges) give what the slow ones gave,
 * bit for bit: the entries' order from one typed-array sort of packed doubles is the comparator sort's, and the
 * bandwidth bisection stopped at its fixed point gives the sigma of all 64 steps. umap-layout.test.ts pins the
 * whole graph against umap-js itself (umap-learn's rules); these pin the continuous rules of the stable layout.
 */
import { describe, expect, it } from 'vitest';
import { exactCosineKnn, type KnnGraph } from '../../../src/core/cluster/knn';
import { seededRandom } from '../../../src/core/random';
import { SAME_POINT_DISTANCE, smoothKnnDistances, stableOrder } from '../../../src/core/cluster/umap-layout';

/** The comparator sort of positions the packed sort replaced (Array.prototype.sort is stable). */
function comparatorOrder(keys: Float64Array): number[] {
  return Array.from({ length: keys.length }, (_, i) => i).sort((a, b) => keys[a] - keys[b]);
}

/** umap-learn's bisection with the continuous rules, every one of its 64 steps run (what the code did before). */
function fullBisection(row: number[], rho: number, k: number): number {
  const target = Math.log(k) / Math.log(2);
  let lo = 0;
  let hi = Infinity;
  let mid = 1;
  for (let it = 0; it < 64; it++) {
    let psum = 0;
    for (let j = 1; j < row.length; j++) {
      const d = row[j] - rho;
      psum += d > 0 ? Math.exp(-(d / mid)) : 1;
    }
    if (psum > target) {
      hi = mid;
      mid = (lo + hi) / 2;
    } else {
      lo = mid;
      mid = hi === Infinity ? mid * 2 : (lo + hi) / 2;
    }
  }
  return mid;
}

function knnOf(n: number, dim: number, k: number, seed: number, duplicates: number): KnnGraph {
  const r = seededRandom(seed);
  const unit = new Float32Array(n * dim);
  for (let i = 0; i < n; i++) {
    // The first `duplicates` points repeat point 0 (distance 0 or a hair: rho's continuous rule).
    const source = i < duplicates ? 0 : i;
    let s = 0;
    for (let t = 0; t < dim; t++) {
      const v = source === i ? r() - 0.5 : unit[t];
      unit[i * dim + t] = v;
      s += v * v;
    }
    if (source === i) for (let t = 0; t < dim; t++) unit[i * dim + t] /= Math.sqrt(s);
  }
  const g = exactCosineKnn(unit, n, dim, k);
  let step = g.next();
  while (!step.done) step = g.next();
  return step.value;
}

describe('stableOrder', () => {
  it('orders keys as the comparator sort did, equal keys in the order given (many ties)', () => {
    const r = seededRandom(5);
    const keys = Float64Array.from(
      { length: 5_000 },
      () => Math.floor(r() * 300) * 1_000 + Math.floor(r() * 3),
    );
    expect(Array.from(stableOrder(keys))).toEqual(comparatorOrder(keys));
  });

  it('takes the comparator’s way where key · m + position would not be exact, with the same order', () => {
    const big = Number.MAX_SAFE_INTEGER / 2;
    const keys = Float64Array.from([big, 3, big - 1, 3, 0]);
    expect(Array.from(stableOrder(keys))).toEqual([4, 1, 3, 2, 0]);
    expect(Array.from(stableOrder(new Float64Array(0)))).toEqual([]);
  });
});

describe('smoothKnnDistances (continuous rules) stopped at the bisection’s fixed point', () => {
  it('gives every sigma of all 64 steps bit for bit, duplicates among the points', () => {
    const k = 15;
    const graph = knnOf(400, 24, k, 11, 6);
    const { sigmas, rhos } = smoothKnnDistances(graph.distances, k, true);
    const meanOf = (row: number[]) => row.reduce((a, b) => a + b, 0) / row.length;
    graph.distances.forEach((row, i) => {
      expect(rhos[i]).toBe(row.find((d) => d > SAME_POINT_DISTANCE));
      // umap-learn's floor of 1e-3 × the row's mean distance, as smoothKnnDistances applies it.
      expect(sigmas[i]).toBe(Math.max(fullBisection(row, rhos[i], k), 1e-3 * meanOf(row)));
    });
  });
});

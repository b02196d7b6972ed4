/**
 * The k-NN graph UMAP starts from, against a brute-force reference computed here (every pair, sorted by
 * distance then index): exactly equal up to EXACT_KNN_MAX_WORK (n² · dim), and a recall bound above it, where
 * NN-descent takes over.
 */
import { describe, expect, it } from 'vitest';
import {
  approximateCosineKnn,
  cosineKnn,
  EXACT_KNN_MAX_WORK,
  exactCosineKnn,
  nnDescentSchedule,
  usesExactKnn,
  type KnnGraph,
} from '../../../src/core/cluster/knn';
import { seededRandom, type RandomFn } from '../../../src/core/random';
import { runSync } from '../../../src/core/yield';
import { gaussian } from '../../support/gaussian-blobs';

/** n seeded unit vectors of dimension dim, as one row-major Float32Array. */
function unitRows(n: number, dim: number, seed: number): Float32Array {
  const random = seededRandom(seed);
  const out = new Float32Array(n * dim);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let t = 0; t < dim; t++) {
      const x = gaussian(random);
      out[i * dim + t] = x;
      s += x * x;
    }
    for (let t = 0; t < dim; t++) out[i * dim + t] /= Math.sqrt(s);
  }
  return out;
}

/** Brute force: each row's k nearest rows by 1 − u·v (self first, then ascending distance, ties by index). */
function bruteForce(unit: Float32Array, n: number, dim: number, k: number): KnnGraph {
  const indices: number[][] = [];
  const distances: number[][] = [];
  for (let i = 0; i < n; i++) {
    const all: [number, number][] = [];
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let t = 0; t < dim; t++) s += unit[i * dim + t] * unit[j * dim + t];
      all.push([j === i ? -Infinity : Math.max(0, 1 - s), j]);
    }
    all.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    indices.push(all.slice(0, k).map((e) => e[1]));
    distances.push(all.slice(0, k).map((e) => Math.max(0, e[0])));
  }
  return { indices, distances };
}

/**
 * Share of the true neighbours (self excluded) of rows `queries` that the graph lists: the true neighbours of
 * row i are every j ≠ i at most as far as the (k − 1)-th smallest distance from i.
 */
function recall(graph: KnnGraph, unit: Float32Array, n: number, dim: number, queries: number[]): number {
  const k = graph.indices[0].length;
  let found = 0;
  let total = 0;
  const row = new Float64Array(n - 1);
  for (const i of queries) {
    const others: number[] = [];
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      let s = 0;
      for (let t = 0; t < dim; t++) s += unit[i * dim + t] * unit[j * dim + t];
      row[others.length] = 1 - s;
      others.push(j);
    }
    const kth = Float64Array.from(row).sort()[k - 2];
    const listed = new Set(graph.indices[i]);
    others.forEach((j, c) => {
      if (row[c] > kth) return;
      total++;
      if (listed.has(j)) found++;
    });
  }
  return found / total;
}

const noRandom: RandomFn = () => {
  throw new Error('the exact path must not draw random numbers');
};

describe('exactCosineKnn', () => {
  it('equals brute force (dimension not a multiple of 4)', () => {
    const [n, dim, k] = [150, 7, 9];
    const unit = unitRows(n, dim, 1);
    const graph = runSync(exactCosineKnn(unit, n, dim, k));
    const truth = bruteForce(unit, n, dim, k);
    expect(graph.indices).toEqual(truth.indices);
    graph.distances.forEach((row, i) =>
      row.forEach((d, j) => expect(d).toBeCloseTo(truth.distances[i][j], 12)),
    );
  });

  it('equals brute force with the four-wide loop and a remainder (dimension 10)', () => {
    const [n, dim, k] = [90, 10, 12];
    const unit = unitRows(n, dim, 2);
    const graph = runSync(exactCosineKnn(unit, n, dim, k));
    expect(graph.indices).toEqual(bruteForce(unit, n, dim, k).indices);
  });

  it('breaks ties by the lower index and puts each point first, even beside its duplicates', () => {
    // Directions of a 3-d lattice: many exact ties, and every direction twice.
    const dirs: number[][] = [];
    for (const x of [-1, 0, 1])
      for (const y of [-1, 0, 1]) for (const z of [-1, 0, 1]) if (x || y || z) dirs.push([x, y, z]);
    const vectors = [...dirs, ...dirs].map((v) => v.map((x) => x / Math.hypot(...v)));
    const n = vectors.length;
    const unit = Float32Array.from(vectors.flat());
    for (const k of [1, 2, 7, n]) {
      const graph = runSync(exactCosineKnn(unit, n, 3, k));
      expect(graph.indices).toEqual(bruteForce(unit, n, 3, k).indices);
      graph.indices.forEach((row, i) => {
        expect(row[0]).toBe(i);
        expect(graph.distances[i][0]).toBe(0);
        if (k >= 2) expect(row[1]).toBe((i + n / 2) % n); // the duplicate, at distance 0
      });
    }
  });

  it('returns k neighbours per row with distances ascending and never negative', () => {
    const [n, dim, k] = [60, 5, 8];
    const unit = unitRows(n, dim, 3);
    // Two identical rows: 1 − u·u can round below zero.
    unit.copyWithin(dim, 0, dim);
    const graph = runSync(exactCosineKnn(unit, n, dim, k));
    for (let i = 0; i < n; i++) {
      expect(graph.indices[i]).toHaveLength(k);
      expect(new Set(graph.indices[i]).size).toBe(k);
      const d = graph.distances[i];
      for (let j = 0; j < k; j++) {
        expect(d[j]).toBeGreaterThanOrEqual(0);
        if (j > 0) expect(d[j]).toBeGreaterThanOrEqual(d[j - 1]);
      }
    }
  });

  it('yields after each row, in order', () => {
    const unit = unitRows(12, 4, 4);
    const steps = exactCosineKnn(unit, 12, 4, 3);
    const seen: number[] = [];
    for (let s = steps.next(); !s.done; s = steps.next()) seen.push(s.value);
    expect(seen).toEqual(Array.from({ length: 12 }, (_, i) => i));
  });
});

describe('cosineKnn', () => {
  it('is the exact graph up to EXACT_KNN_MAX_WORK and draws no random numbers there', () => {
    const [n, dim, k] = [200, 6, 10];
    const unit = unitRows(n, dim, 5);
    expect(runSync(cosineKnn(unit, n, dim, k, noRandom))).toEqual(runSync(exactCosineKnn(unit, n, dim, k)));
  });

  it('NN-descent (what cosineKnn runs above EXACT_KNN_MAX_WORK) finds ≥ 90% of the true neighbours of 6,300 points', () => {
    const [n, dim, k] = [6300, 8, 10];
    const unit = unitRows(n, dim, 6);
    const graph = approximateCosineKnn(unit, n, dim, k, seededRandom(7));
    expect(graph.indices).toHaveLength(n);
    // Every 10th row against brute force: a recall estimate over 630 rows.
    const queries = Array.from({ length: Math.floor(n / 10) }, (_, q) => q * 10 + 3);
    expect(recall(graph, unit, n, dim, queries)).toBeGreaterThanOrEqual(0.9);
    graph.indices.forEach((row, i) => {
      expect(row).toHaveLength(k);
      expect(new Set(row).size).toBe(k);
      const d = graph.distances[i];
      for (let j = 1; j < k; j++) expect(d[j]).toBeGreaterThanOrEqual(d[j - 1]);
    });
    // Reported distances are the cosine distances of the pairs listed.
    for (const i of queries) {
      graph.indices[i].forEach((j, c) => {
        let s = 0;
        for (let t = 0; t < dim; t++) s += unit[i * dim + t] * unit[j * dim + t];
        expect(graph.distances[i][c]).toBeCloseTo(1 - s, 5);
      });
    }
  });

  it('NN-descent is deterministic for a seed and close to exact on a small set', () => {
    const [n, dim, k] = [400, 6, 8];
    const unit = unitRows(n, dim, 8);
    const a = approximateCosineKnn(unit, n, dim, k, seededRandom(9));
    expect(approximateCosineKnn(unit, n, dim, k, seededRandom(9))).toEqual(a);
    const all = Array.from({ length: n }, (_, i) => i);
    expect(recall(a, unit, n, dim, all)).toBeGreaterThanOrEqual(0.9);
  });
});

describe('which graph, and how NN-descent is run', () => {
  it('is exact up to n² · dim = 6·10¹⁰ (the documented limit), NN-descent above', () => {
    expect(EXACT_KNN_MAX_WORK).toBe(6e10);
    expect(usesExactKnn(2, 384)).toBe(true);
    // The King James Bible's 12,462 leaves: exact with the offline model's 100 dimensions (6,000 points was the
    // limit before, whatever the dimension) and with 384; NN-descent only well beyond.
    expect(usesExactKnn(12462, 100)).toBe(true);
    expect(usesExactKnn(12500, 384)).toBe(true);
    expect(usesExactKnn(12501, 384)).toBe(false);
    expect(usesExactKnn(24494, 100)).toBe(true);
    expect(usesExactKnn(24495, 100)).toBe(false);
  });

  it("uses umap-js's forest size and iterations (hand-worked from its UMAP.fit formula)", () => {
    // umap-js: nTrees = 5 + floor(round(√n / 20)), nIters = max(5, floor(round(log2 n))).
    // √6001 / 20 = 3.87 → 9 trees; log2 6001 = 12.55 → 13. √10000 / 20 = 5 → 10; log2 = 13.29 → 13.
    // √40000 / 20 = 10 → 15; log2 = 15.29 → 15. √90000 / 20 = 15 → 20; log2 = 16.46 → 16. Small n: 5 iterations.
    expect(nnDescentSchedule(6001)).toEqual({ trees: 9, iterations: 13 });
    expect(nnDescentSchedule(10_000)).toEqual({ trees: 10, iterations: 13 });
    expect(nnDescentSchedule(40_000)).toEqual({ trees: 15, iterations: 15 });
    expect(nnDescentSchedule(90_000)).toEqual({ trees: 20, iterations: 16 });
    expect(nnDescentSchedule(16)).toEqual({ trees: 5, iterations: 5 });
  });
});

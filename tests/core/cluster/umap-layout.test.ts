import { UMAP } from 'umap-js';
import { cosine } from 'umap-js/dist/umap';
import { describe, expect, it } from 'vitest';
import { approximateCosineKnn, exactCosineKnn, type KnnGraph } from '../../../src/core/cluster/knn';
import { seededRandom } from '../../../src/core/random';
import {
  curveParameters,
  fuzzySimplicialSet,
  layoutEpochs,
  optimizeLayout,
  smoothKnnDistances,
} from '../../../src/core/cluster/umap-layout';

/** n unit vectors in `groups` loose groups. */
function unitVectors(n: number, dim: number, groups: number, seed: number): Float32Array {
  const r = seededRandom(seed);
  const centres = Array.from({ length: groups }, () => Array.from({ length: dim }, () => r() - 0.5));
  const out = new Float32Array(n * dim);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let t = 0; t < dim; t++) {
      const v = centres[i % groups][t] + 0.5 * (r() - 0.5);
      out[i * dim + t] = v;
      s += v * v;
    }
    for (let t = 0; t < dim; t++) out[i * dim + t] /= Math.sqrt(s);
  }
  return out;
}

function exactGraph(unit: Float32Array, n: number, dim: number, k: number): KnnGraph {
  const g = exactCosineKnn(unit, n, dim, k);
  let s = g.next();
  while (!s.done) s = g.next();
  return s.value;
}

/** umap-js's own fit from the same graph and generator: the reference the flat layout must equal. */
function umapJs(graph: KnnGraph, nNeighbors: number, nComponents: number, seed: number) {
  const random = seededRandom(seed);
  const umap = new UMAP({ nComponents, nNeighbors, minDist: 0.1, distanceFn: cosine, random });
  umap.setPrecomputedKNN(graph.indices, graph.distances);
  const rows = graph.indices.map(() => [0]);
  const epochs = umap.initializeFit(rows);
  for (let e = 0; e < epochs; e++) umap.step();
  return { embedding: umap.getEmbedding(), nextDraw: random(), epochs };
}

function flat(graph: KnnGraph, nNeighbors: number, nComponents: number, seed: number) {
  const random = seededRandom(seed);
  const layoutGraph = fuzzySimplicialSet(graph, nNeighbors);
  // JavaScript's epochs in umap-js's schedule are umap-js's own arithmetic; the WebAssembly kernel's are held
  // to them in umap-kernel.test.ts.
  const run = optimizeLayout(layoutGraph, nComponents, random, { engine: 'js', schedule: 'umap-js' });
  let epochsSeen = 0;
  let step = run.next();
  while (!step.done) {
    epochsSeen = step.value;
    step = run.next();
  }
  return { y: step.value, nextDraw: random(), epochsSeen };
}

function expectSameAsUmapJs(graph: KnnGraph, nNeighbors: number, nComponents: number, seed: number) {
  const ref = umapJs(graph, nNeighbors, nComponents, seed);
  const ours = flat(graph, nNeighbors, nComponents, seed);
  const n = graph.indices.length;
  expect(ours.y.length).toBe(n * nComponents);
  const mismatches: string[] = [];
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < nComponents; c++) {
      if (!Object.is(ours.y[i * nComponents + c], ref.embedding[i][c])) mismatches.push(`${i},${c}`);
    }
  }
  expect(mismatches).toEqual([]);
  // The same number of draws from the generator: the next one is the same.
  expect(ours.nextDraw).toBe(ref.nextDraw);
  expect(ours.epochsSeen).toBe(ref.epochs);
}

describe('the flat UMAP layout (JavaScript epochs, umap-js schedule) against umap-js', () => {
  it('equals umap-js number for number on an exact k-NN graph (10 dimensions)', () => {
    const n = 90;
    const unit = unitVectors(n, 24, 4, 11);
    expectSameAsUmapJs(exactGraph(unit, n, 24, 9), 9, 10, 5);
  });

  it('equals umap-js on an approximate (NN-descent) graph, 2 dimensions', () => {
    const n = 150;
    const unit = unitVectors(n, 16, 5, 12);
    const graph = approximateCosineKnn(unit, n, 16, 12, seededRandom(3));
    expectSameAsUmapJs(graph, 12, 2, 8);
  });

  it('equals umap-js when a row repeats a neighbour, misses one (−1), or has duplicate points', () => {
    const n = 40;
    const unit = unitVectors(n, 8, 3, 13);
    // Points 0 and 1 identical: distance 0 between distinct points (the repulsion's "no gradient" branch).
    unit.copyWithin(8, 0, 8);
    const graph = exactGraph(unit, n, 8, 6);
    graph.indices[5][3] = graph.indices[5][2];
    graph.distances[5][3] = graph.distances[5][2] + 0.01;
    graph.indices[7][5] = -1;
    expectSameAsUmapJs(graph, 6, 3, 21);
  });
});

describe('fuzzySimplicialSet', () => {
  it('fits each bandwidth so the memberships of a row sum to log2(k)', () => {
    const n = 50;
    const k = 8;
    const graph = exactGraph(unitVectors(n, 12, 3, 14), n, 12, k);
    const { sigmas, rhos } = smoothKnnDistances(graph.distances, k);
    for (let i = 0; i < n; i++) {
      const row = graph.distances[i];
      expect(rhos[i]).toBe(row[1]); // nearest other point (rows are sorted, self first)
      let sum = 0;
      for (let j = 1; j < k; j++) sum += Math.exp(-Math.max(0, row[j] - rhos[i]) / sigmas[i]);
      expect(sum).toBeCloseTo(Math.log2(k), 4);
    }
  });

  it('keeps a floor of 1e-3 × the mean distance when the search would go lower', () => {
    // All neighbours at the same distance: the sum is k − 1 ≥ log2 k for any bandwidth, so bisection drives
    // sigma towards 0 and the floor applies (row mean = (0 + 3·0.4)/4 = 0.3).
    const distances = [
      [0, 0.4, 0.4, 0.4],
      [0, 0.4, 0.4, 0.4],
    ];
    const { sigmas, rhos } = smoothKnnDistances(distances, 4);
    expect(Array.from(rhos)).toEqual([0.4, 0.4]);
    expect(sigmas[0]).toBeCloseTo(0.3e-3, 12);
  });

  it('makes the graph symmetric with the fuzzy union w + wᵀ − w·wᵀ (hand-worked, 3 points)', () => {
    // Each point's only other neighbour, at its nearest distance: membership 1 each way → union 1 + 1 − 1 = 1;
    // 0→1 and 1→0 both exist, 2→1 exists but 1→2 not: union 1 + 0 − 0 = 1 both ways.
    const graph: KnnGraph = {
      indices: [
        [0, 1],
        [1, 0],
        [2, 1],
      ],
      distances: [
        [0, 0.2],
        [0, 0.2],
        [0, 0.5],
      ],
    };
    const g = fuzzySimplicialSet(graph, 2);
    const edges = Array.from(g.tail, (t, e) => [t, g.head[e], g.weight[e]]);
    expect(edges).toEqual([
      [0, 1, 1],
      [1, 0, 1],
      [1, 2, 1],
      [2, 1, 1],
    ]);
    expect(g.epochs).toBe(500);
  });

  it('lists edges ordered by (tail, head), each with its mirror of equal weight, none below max/epochs', () => {
    const n = 60;
    const graph = exactGraph(unitVectors(n, 10, 4, 15), n, 10, 7);
    const g = fuzzySimplicialSet(graph, 7);
    const weightOf = new Map<string, number>();
    let max = 0;
    for (let e = 0; e < g.weight.length; e++) {
      if (e > 0) expect(g.tail[e - 1] * n + g.head[e - 1]).toBeLessThan(g.tail[e] * n + g.head[e]);
      expect(g.tail[e]).not.toBe(g.head[e]);
      weightOf.set(`${g.tail[e]},${g.head[e]}`, g.weight[e]);
      max = Math.max(max, g.weight[e]);
    }
    for (let e = 0; e < g.weight.length; e++) {
      expect(weightOf.get(`${g.head[e]},${g.tail[e]}`)).toBe(g.weight[e]);
      expect(g.weight[e]).toBeGreaterThanOrEqual(max / g.epochs);
      expect(g.weight[e]).toBeLessThanOrEqual(1);
    }
  });

  it('drops exactly the union edges weaker than max/epochs (against a plain Map-based union)', () => {
    const n = 80;
    const k = 25;
    const graph = exactGraph(unitVectors(n, 6, 8, 17), n, 6, k);
    const { sigmas, rhos } = smoothKnnDistances(graph.distances, k);
    const directed = new Map<string, number>();
    graph.indices.forEach((row, i) =>
      row.forEach((j, p) => {
        if (j === i) return;
        const d = graph.distances[i][p] - rhos[i];
        directed.set(`${i},${j}`, d <= 0 ? 1 : Math.exp(-d / sigmas[i]));
      }),
    );
    const union = new Map<string, number>();
    for (const key of directed.keys()) {
      const [i, j] = key.split(',');
      const x = directed.get(key) ?? 0;
      const y = directed.get(`${j},${i}`) ?? 0;
      union.set(key, x + y - x * y);
      union.set(`${j},${i}`, x + y - x * y);
    }
    const max = Math.max(...union.values());
    const kept = [...union].filter(([, w]) => w >= max / 500);
    // The case is exercised: some edges of the union are weaker than the cut.
    expect(kept.length).toBeLessThan(union.size);
    const g = fuzzySimplicialSet(graph, k);
    const ours = new Map(Array.from(g.tail, (t, e) => [`${t},${g.head[e]}`, g.weight[e]]));
    expect(ours.size).toBe(kept.length);
    for (const [key, w] of kept) expect(ours.get(key)).toBeCloseTo(w, 12);
  });
});

describe('layout constants', () => {
  it("uses umap-js's epoch schedule", () => {
    expect([3, 2500, 2501, 5000, 5001, 7500, 7501, 50_000].map(layoutEpochs)).toEqual([
      500, 500, 400, 400, 300, 300, 200, 200,
    ]);
  });

  it("fits the curve close to umap-learn's a, b for min_dist 0.1 (1.577, 0.895)", () => {
    const { a, b } = curveParameters();
    expect(a).toBeCloseTo(1.577, 1);
    expect(b).toBeCloseTo(0.895, 2);
  });

  it('umap-js schedule: starts from a uniform draw in [−10, 10) and moves every point', () => {
    const n = 30;
    const graph = exactGraph(unitVectors(n, 8, 3, 16), n, 8, 5);
    const start = seededRandom(4);
    const expectedStart = Array.from({ length: n * 2 }, () => start() * 20 - 10);
    const run = optimizeLayout(fuzzySimplicialSet(graph, 5), 2, seededRandom(4), { schedule: 'umap-js' });
    let step = run.next();
    while (!step.done) step = run.next();
    let moved = 0;
    for (let i = 0; i < n * 2; i++) if (step.value[i] !== expectedStart[i]) moved++;
    expect(moved).toBe(n * 2);
  });
});

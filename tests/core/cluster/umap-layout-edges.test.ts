/**
 * UMAP's layout at its edges: the inputs that real k-NN graphs of distinct texts rarely produce but the code has
 * branches for — neighbours at distance 0 (duplicate texts), rows that do not list their own point, distances far
 * above 1, a row whose every neighbour is a duplicate, coincident points in the layout. Each case is checked
 * against umap-js itself where umap-js can take it, or against values worked out here from the definitions.
 * (These are the holes the mutation run over umap-layout.ts found; docs/testing.md › umap-layout.ts.)
 */
import { UMAP } from 'umap-js';
import { cosine } from 'umap-js/dist/umap';
import { describe, expect, it } from 'vitest';
import { exactCosineKnn, type KnnGraph } from '../../../src/core/cluster/knn';
import { seededRandom, type RandomFn } from '../../../src/core/random';
import {
  fuzzySimplicialSet,
  optimizeLayout,
  smoothKnnDistances,
  type LayoutGraph,
  type LayoutOptions,
} from '../../../src/core/cluster/umap-layout';

/**
 * The fuzzy union worked out with Maps: membership 1 at or below rho, exp(−(d − rho)/sigma) above; edges weaker
 * than max/500 dropped (500 epochs below 2,500 points).
 */
function mapUnion(graph: KnnGraph, k: number): Map<string, number> {
  const { sigmas, rhos } = smoothKnnDistances(graph.distances, k);
  const directed = new Map<string, number>();
  graph.indices.forEach((row, i) =>
    row.forEach((j, p) => {
      if (j === i || j === -1) return;
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
  return new Map([...union].filter(([, w]) => w >= max / 500));
}

function edgesOf(g: LayoutGraph): Map<string, number> {
  return new Map(Array.from(g.tail, (t, e) => [`${t},${g.head[e]}`, g.weight[e]]));
}

function runLayout(
  graph: LayoutGraph,
  nComponents: number,
  random: RandomFn,
  options: LayoutOptions = {},
): Float64Array {
  const run = optimizeLayout(graph, nComponents, random, options);
  let step = run.next();
  while (!step.done) step = run.next();
  return step.value;
}

describe('the bandwidth search (smoothKnnDistances)', () => {
  it('counts a neighbour closer than rho (a duplicate at distance 0) as membership 1, not more', () => {
    // Point 0's second entry is a duplicate of it (distance 0); rho is the first distance above 0, 0.3.
    const row = [0, 0, 0.3, 0.5, 0.6, 0.7, 0.9, 1.0];
    const k = row.length;
    const { sigmas, rhos } = smoothKnnDistances([row], k);
    expect(rhos[0]).toBe(0.3);
    let sum = 0;
    for (let j = 1; j < k; j++) sum += Math.exp(-Math.max(0, row[j] - rhos[0]) / sigmas[0]);
    expect(sum).toBeCloseTo(Math.log2(k), 4);
  });

  it('doubles the bandwidth while the memberships fall short of log2(k) (distances far above 1)', () => {
    // At sigma = 1 the sum is ≈ 1 + e^-10 + … < log2(5): the search must widen before it bisects.
    const row = [0, 10, 20, 30, 40];
    const { sigmas, rhos } = smoothKnnDistances([row], 5);
    expect(sigmas[0]).toBeGreaterThan(1);
    let sum = 0;
    for (let j = 1; j < row.length; j++) sum += Math.exp(-Math.max(0, row[j] - rhos[0]) / sigmas[0]);
    expect(sum).toBeCloseTo(Math.log2(5), 4);
  });

  it("floors each bandwidth at 1e-3 × its row's mean, or the mean of all rows' means when its neighbours are all at 0", () => {
    // Neighbours at one distance: the sum is k − 1 > log2 k for any bandwidth, so the search goes to 0 and the
    // floor applies. Row means 0.3 and 0.6; the third row has only duplicates (rho 0): it takes 1e-3 × the mean
    // of the three rows' means, (0.3 + 0.6 + 0) / 3.
    const { sigmas, rhos } = smoothKnnDistances(
      [
        [0, 0.4, 0.4, 0.4],
        [0, 0.8, 0.8, 0.8],
        [0, 0, 0, 0],
      ],
      4,
    );
    expect(Array.from(rhos)).toEqual([0.4, 0.8, 0]);
    expect(sigmas[0]).toBeCloseTo(0.3e-3, 12);
    expect(sigmas[1]).toBeCloseTo(0.6e-3, 12);
    expect(sigmas[2]).toBeCloseTo(0.3e-3, 12);
  });

  it('stops after 64 bisection steps, as umap-learn does (the floor below the 64th halving)', () => {
    // Tiny equal distances: the search halves the bandwidth from 1 on every step, and the floor (1e-3 × 7.5e-21)
    // is below 2^-64, so the bandwidth is exactly 2^-64.
    const { sigmas } = smoothKnnDistances([[0, 1e-20, 1e-20, 1e-20]], 4);
    expect(sigmas[0]).toBe(2 ** -64);
  });
});

describe('the fuzzy union (fuzzySimplicialSet)', () => {
  it('gives a one-way duplicate (distance 0, below rho) membership 1, never above', () => {
    // 0 lists 1 at distance 0 but 1 does not list 0: the union is 0's own membership, 1.
    const graph: KnnGraph = {
      indices: [
        [0, 1, 2, 3],
        [1, 2, 3, 4],
        [2, 3, 4, 1],
        [3, 2, 4, 1],
        [4, 3, 2, 1],
      ],
      distances: [
        [0, 0, 0.3, 0.5],
        [0, 0.2, 0.4, 0.6],
        [0, 0.1, 0.3, 0.4],
        [0, 0.1, 0.2, 0.5],
        [0, 0.2, 0.3, 0.6],
      ],
    };
    const ours = edgesOf(fuzzySimplicialSet(graph, 4));
    expect(ours.get('0,1')).toBe(1);
    expect(ours.get('1,0')).toBe(1);
    const expected = mapUnion(graph, 4);
    expect(ours.size).toBe(expected.size);
    for (const [key, w] of expected) expect(ours.get(key)).toBeCloseTo(w, 12);
  });

  it('merges both lists to their ends when the last point does not list itself (either list may end first)', () => {
    // (a) the last row's last edge 2→1 has no mirror in 1's row: it ends the direct list, after the transpose's.
    // (b) 0 and 1 list the last point, which lists only 0: the transpose's 2→1 ends the merge alone.
    const endsDirect: KnnGraph = {
      indices: [
        [0, 1],
        [1, 0],
        [-1, 1],
      ],
      distances: [
        [0, 0.2],
        [0, 0.2],
        [0, 0.5],
      ],
    };
    const endsTransposed: KnnGraph = {
      indices: [
        [0, 2],
        [1, 2],
        [-1, 0],
      ],
      distances: [
        [0, 0.2],
        [0, 0.3],
        [0, 0.2],
      ],
    };
    for (const graph of [endsDirect, endsTransposed]) {
      const expected = mapUnion(graph, 2);
      const ours = edgesOf(fuzzySimplicialSet(graph, 2));
      expect([...ours.keys()].sort()).toEqual([...expected.keys()].sort());
      for (const [key, w] of expected) expect(ours.get(key)).toBeCloseTo(w, 12);
    }
  });
});

describe('the layout (optimizeLayout)', () => {
  it('depends on the weights relative to the strongest only: halving every weight changes nothing', () => {
    const graph: LayoutGraph = {
      n: 4,
      tail: Int32Array.from([0, 1, 1, 2, 2, 3]),
      head: Int32Array.from([1, 0, 2, 1, 3, 2]),
      weight: Float64Array.from([1, 1, 0.5, 0.5, 0.25, 0.25]),
      epochs: 40,
    };
    const halved = { ...graph, weight: graph.weight.map((w) => w / 2) };
    const a = runLayout(graph, 2, seededRandom(9));
    const b = runLayout(halved, 2, seededRandom(9));
    expect(Array.from(b)).toEqual(Array.from(a));
    // And the weights do matter: an edge sampled at another rate moves the points elsewhere.
    const reweighted = { ...graph, weight: Float64Array.from([1, 1, 0.5, 0.5, 0.5, 0.5]) };
    expect(Array.from(runLayout(reweighted, 2, seededRandom(9)))).not.toEqual(Array.from(a));
  });

  it('umap-js schedule: moves coincident points as umap-js does: no pull between them, a fixed push of 4 apart', () => {
    // A generator whose first n·dim draws repeat one point's dim draws puts every point in one place; the rest
    // of the run draws from a seeded stream. umap-js's own fit with the same generator is the reference.
    const n = 12;
    const dimIn = 6;
    const nComponents = 3;
    const unit = new Float32Array(n * dimIn);
    const r = seededRandom(31);
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let t = 0; t < dimIn; t++) s += (unit[i * dimIn + t] = r() - 0.5) ** 2;
      for (let t = 0; t < dimIn; t++) unit[i * dimIn + t] /= Math.sqrt(s);
    }
    const knn = exactCosineKnn(unit, n, dimIn, 4);
    let step = knn.next();
    while (!step.done) step = knn.next();
    const graph = step.value;

    const together = (seed: number): RandomFn => {
      const stream = seededRandom(seed);
      const first: number[] = [];
      let draws = 0;
      return () => {
        draws++;
        if (draws <= nComponents) {
          first.push(stream());
          return first[draws - 1];
        }
        if (draws <= n * nComponents) return first[(draws - 1) % nComponents];
        return stream();
      };
    };

    const umap = new UMAP({
      nComponents,
      nNeighbors: 4,
      minDist: 0.1,
      distanceFn: cosine,
      random: together(3),
    });
    umap.setPrecomputedKNN(graph.indices, graph.distances);
    const epochs = umap.initializeFit(graph.indices.map(() => [0]));
    for (let e = 0; e < epochs; e++) umap.step();
    const reference = umap.getEmbedding();

    const ours = runLayout(fuzzySimplicialSet(graph, 4), nComponents, together(3), { schedule: 'umap-js' });
    const mismatches: string[] = [];
    for (let i = 0; i < n; i++) {
      for (let c = 0; c < nComponents; c++) {
        expect(Number.isFinite(ours[i * nComponents + c])).toBe(true);
        if (!Object.is(ours[i * nComponents + c], reference[i][c])) mismatches.push(`${i},${c}`);
      }
    }
    expect(mismatches).toEqual([]);
    // The points did come apart.
    const distinct = new Set(Array.from({ length: n }, (_, i) => ours.slice(i * 3, i * 3 + 3).join(',')));
    expect(distinct.size).toBe(n);
  });
});

/**
 * k-means on inputs of a handful of points, against hand-worked results and against a plain transcription of
 * scikit-learn's Lloyd loop (`_kmeans_single_lloyd` with `_relocate_empty_clusters`) written here without any of
 * kmeans.ts's unrolling. Small enough to stay in the mutation run.
 */
import { describe, expect, it } from 'vitest';
import { kmeans, kmeansPlusPlus } from '../../../src/core/cluster/kmeans';
import { seededRandom } from '../../../src/core/random';

/** A FAKE random source that replays the given numbers. */
function scripted(values: number[]) {
  let i = 0;
  return () => {
    if (i >= values.length) throw new Error('the script ran out');
    return values[i++];
  };
}

interface Reference {
  centers: number[][];
  labels: number[];
  iterations: number;
}

function sq(a: number[], b: number[]): number {
  return a.reduce((s, v, c) => s + (v - b[c]) ** 2, 0);
}

/**
 * scikit-learn's Lloyd loop, plainly: assign (ties to the lower index), recompute the means, give each empty
 * cluster (in index order) the next point farthest from its centre (ties to the lower index), stop when the labels
 * repeat (strict convergence) or the summed squared shift is at most tol × mean per-dimension variance; after a
 * tolerance stop, assign once more.
 */
function referenceLloyd(
  points: number[][],
  init: number[][],
  relTol: number,
  maxIter = 300,
  refreshAlways = true,
): Reference {
  const n = points.length;
  const dim = points[0].length;
  const k = init.length;
  let variance = 0;
  for (let c = 0; c < dim; c++) {
    const mean = points.reduce((s, p) => s + p[c], 0) / n;
    variance += points.reduce((s, p) => s + (p[c] - mean) ** 2, 0) / n;
  }
  const tol = relTol * (variance / dim);
  const nearest = (centers: number[][]) =>
    points.map((p) => {
      let best = 0;
      for (let j = 1; j < k; j++) if (sq(p, centers[j]) < sq(p, centers[best])) best = j;
      return best;
    });
  let centers = init.map((c) => [...c]);
  let labels: number[] = new Array<number>(n).fill(-1);
  let iterations = 0;
  let strict = false;
  while (iterations < maxIter) {
    iterations++;
    const now = nearest(centers);
    const dist = points.map((p, i) => sq(p, centers[now[i]]));
    const sums = Array.from({ length: k }, () => new Array<number>(dim).fill(0));
    const counts = new Array<number>(k).fill(0);
    points.forEach((p, i) => {
      counts[now[i]]++;
      p.forEach((v, c) => (sums[now[i]][c] += v));
    });
    const far = points.map((_, i) => i).sort((a, b) => dist[b] - dist[a] || a - b);
    let next = 0;
    for (let j = 0; j < k; j++) {
      if (counts[j] > 0 || next >= n) continue;
      const f = far[next++];
      points[f].forEach((v, c) => {
        sums[now[f]][c] -= v;
        sums[j][c] = v;
      });
      counts[now[f]]--;
      counts[j] = 1;
    }
    // A cluster emptied by relocation keeps its (zero) sum, as scikit-learn's `_average_centers` does.
    const updated = sums.map((s, j) => s.map((v) => (counts[j] > 0 ? v / counts[j] : 0)));
    const shift = updated.reduce((s, c, j) => s + sq(c, centers[j]), 0);
    centers = updated;
    const same = now.every((l, i) => l === labels[i]);
    labels = now;
    if (same) {
      strict = true;
      break;
    }
    if (shift <= tol) break;
  }
  // scikit-learn refreshes only when !strict (refreshAlways false); Aerie always does (kmeans.ts), which
  // differs only after an empty-cluster relocation in the last iteration (tested below).
  if (!strict || refreshAlways) labels = nearest(centers);
  return { centers, labels, iterations };
}

function rows(flat: ArrayLike<number>, dim: number): number[][] {
  return Array.from({ length: flat.length / dim }, (_, i) => Array.from(flat).slice(i * dim, i * dim + dim));
}

/** Draws that make k-means++ seed point `first`, then (both trials) the point at index `second`. */
function seedDraws(values: number[], first: number, second: number): number[] {
  const n = values.length;
  const weights = values.map((v) => (v - values[first]) ** 2);
  const before = weights.slice(0, second).reduce((s, w) => s + w, 0);
  const total = weights.reduce((s, w) => s + w, 0);
  const draw = (before + weights[second] / 2) / total;
  return [(first + 0.5) / n, draw, draw];
}

describe('k-means++ seeding draws (hand-worked)', () => {
  it('a draw landing exactly on a cumulative weight picks that point (numpy searchsorted, side left)', () => {
    // Points 0, 1, 3; first centre point 0 (draw 0). Weights 0, 1, 9; cumulative 0, 1, 10. The draws 0.1 × 10 = 1
    // equal the cumulative weight of point 1 exactly: the first index whose cumulative sum reaches 1 is point 1.
    expect(0.1 * 10).toBe(1);
    const centers = kmeansPlusPlus(Float64Array.of(0, 1, 3), 3, 1, 2, scripted([0, 0.1, 0.1]));
    expect(Array.from(centers)).toEqual([0, 1]);
  });

  it('of two candidates that lower the potential equally, keeps the first drawn (numpy argmin)', () => {
    // Points −1, 0, 1; first centre point 1 (draw 0.5 → ⌊1.5⌋). Weights 1, 0, 1, cumulative 1, 1, 2: draw 0.25
    // (value 0.5) picks point 0, draw 0.75 (value 1.5) point 2. Either leaves a potential of 1.
    expect(
      Array.from(kmeansPlusPlus(Float64Array.of(-1, 0, 1), 3, 1, 2, scripted([0.5, 0.25, 0.75]))),
    ).toEqual([0, -1]);
    expect(
      Array.from(kmeansPlusPlus(Float64Array.of(-1, 0, 1), 3, 1, 2, scripted([0.5, 0.75, 0.25]))),
    ).toEqual([0, 1]);
  });
});

describe('Lloyd iterations on 0, 2, 3, 10 from centres 0 and 2 (hand-worked)', () => {
  // Iteration 1: labels 0 1 1 1, centres 0, 5 (shift 9). Iteration 2: the point 2 moves, labels 0 0 1 1, centres
  // 1, 6.5 (shift 1 + 2.25 = 3.25). Iteration 3: the point 3 moves, labels 0 0 0 1, centres 5/3, 10. Iteration 4:
  // no label changes, strict convergence. Mean per-dimension variance: 14.1875.
  const values = [0, 2, 3, 10];
  const expected = [0, 0, 0, 1];

  it('every order of the points: four iterations, one point moving at a time, whichever slot it sits in', () => {
    // The 24 orders put the point that moves in iterations 2 and 3 in each of the four slots of a pass.
    const perms: number[][] = [];
    const permute = (rest: number[], acc: number[]) => {
      if (rest.length === 0) perms.push(acc);
      rest.forEach((v, i) => permute([...rest.slice(0, i), ...rest.slice(i + 1)], [...acc, v]));
    };
    permute(values, []);
    expect(perms).toHaveLength(24);
    for (const order of perms) {
      // tol = −1: the shift test never passes, so only labels that repeat can stop the loop.
      for (const tol of [0, -1]) {
        const draws = seedDraws(order, order.indexOf(0), order.indexOf(2));
        const result = kmeans(Float64Array.from(order), 4, 1, 2, scripted(draws), { tol });
        expect(result.iterations).toBe(4);
        expect(Array.from(result.labels)).toEqual(order.map((v) => expected[values.indexOf(v)]));
        expect(result.centers[0]).toBeCloseTo(5 / 3, 14);
        expect(result.centers[1]).toBe(10);
      }
    }
  });

  it('the tolerance is relative to the data’s variance: 0.23 × 14.1875 ≥ 3.25 stops after iteration 2', () => {
    for (const scale of [1, 1000]) {
      const data = Float64Array.from(values, (v) => v * scale);
      const result = kmeans(data, 4, 1, 2, scripted(seedDraws(values, 0, 1)), { tol: 0.23 });
      expect(result.iterations).toBe(2);
      // The centres of iteration 2, and labels assigned afresh from them (the point 3 is nearer 1 than 6.5).
      expect(Array.from(result.centers)).toEqual([1 * scale, 6.5 * scale]);
      expect(Array.from(result.labels)).toEqual([0, 0, 0, 1]);
      // Just below the threshold the loop goes on to strict convergence.
      const longer = kmeans(data, 4, 1, 2, scripted(seedDraws(values, 0, 1)), { tol: 0.22 });
      expect(longer.iterations).toBe(4);
    }
  });
});

describe('stopping on the shift', () => {
  it('a shift equal to the tolerance stops: k = N distinct points with tol 0 stops after one iteration', () => {
    // Every point is its own centre, so the first update moves nothing: shift 0 ≤ tol 0. scikit-learn's n_iter_
    // is 1 here too (labels start at −1, so the strict test fails, and the shift test passes).
    const data = Float64Array.of(0, 0, 1, 0, 0, 1, 5, 5);
    const result = kmeans(data, 4, 2, 4, seededRandom(1), { tol: 0 });
    expect(result.iterations).toBe(1);
    expect(new Set(result.labels).size).toBe(4);
  });

  it('identical points (variance 0, so tolerance 0) also stop after one iteration', () => {
    const result = kmeans(Float64Array.of(2, 2, 2, 2, 2, 2), 6, 1, 3, seededRandom(4));
    expect(result.iterations).toBe(1);
    expect(Array.from(result.centers)).toEqual([2, 2, 2]);
  });
});

describe('ties in the assignment go to the lower index, in every slot of a pass', () => {
  it('four points at 0 between centres −1 and 1, then the two centres’ own points', () => {
    // Draws: point 4 (value −1) first, then point 5 (value 1) for both trials. The four zeros fill the first pass
    // of four and are equally near both centres: all go to centre 0, which becomes (0·4 − 1) / 5 = −0.2. A tie sent
    // to centre 1 would change both centres.
    const values = [0, 0, 0, 0, -1, 1];
    const draws = seedDraws(values, 4, 5);
    expect(Array.from(kmeansPlusPlus(Float64Array.from(values), 6, 1, 2, scripted(draws)))).toEqual([-1, 1]);
    const result = kmeans(Float64Array.from(values), 6, 1, 2, scripted(draws), { maxIter: 1 });
    expect(result.centers[0]).toBeCloseTo(-0.2, 15);
    expect(result.centers[1]).toBe(1);
    expect(Array.from(result.labels)).toEqual([0, 0, 0, 0, 0, 1]);
  });
});

describe('empty clusters take the points farthest from their centres (scikit-learn’s relocation)', () => {
  // Draws of exactly 0 pick point 0 again (its cumulative weight 0 reaches 0), so both centres start at point 0
  // and centre 1 gets no points in the first assignment.
  it('the farthest point moves to the empty cluster, leaving the mean of the rest', () => {
    // Points (0,0), (1,0), (0,2), (3,4): squared distances to centre (0,0) are 0, 1, 4, 25.
    const data = Float64Array.of(0, 0, 1, 0, 0, 2, 3, 4);
    const result = kmeans(data, 4, 2, 2, scripted([0, 0, 0]), { maxIter: 1 });
    expect(result.iterations).toBe(1);
    expect(result.centers[0]).toBeCloseTo(1 / 3, 15);
    expect(result.centers[1]).toBeCloseTo(2 / 3, 15);
    expect(Array.from(result.centers.subarray(2))).toEqual([3, 4]);
    expect(Array.from(result.labels)).toEqual([0, 0, 0, 1]);
  });

  it('of two equally far points, the lower index moves', () => {
    // (4,3) and (3,4) are both at squared distance 25 from (0,0): point 2 moves, centre 0 is the mean of the rest.
    const data = Float64Array.of(0, 0, 1, 0, 4, 3, 3, 4);
    const result = kmeans(data, 4, 2, 2, scripted([0, 0, 0]), { maxIter: 1 });
    expect(Array.from(result.centers.subarray(2))).toEqual([4, 3]);
    expect(result.centers[0]).toBeCloseTo(4 / 3, 15);
    expect(result.centers[1]).toBeCloseTo(4 / 3, 15);
  });

  it('two empty clusters take the two farthest points, in cluster order', () => {
    // Three centres at point 0 = (0,0) (3 trials per centre for k = 3: seven draws). Distances 0, 1, 4, 25: cluster 1 takes point 3, cluster 2 point 2.
    const data = Float64Array.of(0, 0, 1, 0, 0, 2, 3, 4);
    const result = kmeans(data, 4, 2, 3, scripted([0, 0, 0, 0, 0, 0, 0]), { maxIter: 1 });
    expect(Array.from(result.centers)).toEqual([0.5, 0, 3, 4, 0, 2]);
    expect(Array.from(result.labels)).toEqual([0, 0, 2, 1]);
  });

  it('a point leaving cluster 1 for an empty cluster 2 is taken out of cluster 1’s sum', () => {
    // Points (0,0), (10,10), (1,0), (0,3). Draw 0.3 seeds point 1; draws of 0 then pick point 0 twice, so the
    // centres start at (10,10), (0,0), (0,0) and cluster 2 is empty. Squared distances to the own centre: 0, 0, 1,
    // 9: point 3 leaves cluster 1, whose centre becomes the mean of (0,0) and (1,0).
    const data = Float64Array.of(0, 0, 10, 10, 1, 0, 0, 3);
    const result = kmeans(data, 4, 2, 3, scripted([0.3, 0, 0, 0, 0, 0, 0]), { maxIter: 1 });
    expect(Array.from(result.centers)).toEqual([10, 10, 0.5, 0, 0, 3]);
    expect(Array.from(result.labels)).toEqual([1, 0, 1, 2]);
  });

  it('more empty clusters than points: each point moves once, and nothing becomes NaN', () => {
    // Two identical points, four centres on them: all points go to cluster 0, clusters 1 and 2 take one point
    // each (emptying cluster 0), cluster 3 finds no point left.
    const data = Float64Array.of(1, 1, 1, 1);
    const result = kmeans(data, 2, 2, 4, seededRandom(7), { maxIter: 1 });
    expect(Array.from(result.centers).every(Number.isFinite)).toBe(true);
    expect(Array.from(result.centers.subarray(2, 6))).toEqual([1, 1, 1, 1]);
    const longer = kmeans(data, 2, 2, 4, seededRandom(7));
    expect(Array.from(longer.centers).every(Number.isFinite)).toBe(true);
    expect(Array.from(longer.labels).every((l) => l >= 0 && l < 4)).toBe(true);
  });
});

describe('kmeans equals the plain Lloyd loop on small random sets', () => {
  it('same iterations, labels and centres for n = 3 … 10, k = 2, 3, dim 1, 2, several tolerances', () => {
    let cases = 0;
    for (let seed = 1; seed <= 48; seed++) {
      const gen = seededRandom(1000 + seed);
      const n = 3 + (seed % 8);
      const dim = 1 + (seed % 2);
      const k = 2 + (seed % 3 === 0 ? 1 : 0);
      const data = Float64Array.from({ length: n * dim }, () => Math.floor(gen() * 1e6) / 1e4);
      const points = rows(data, dim);
      const init = rows(kmeansPlusPlus(data, n, dim, k, seededRandom(seed)), dim);
      for (const tol of [undefined, 0, -1, 0.01, 0.1]) {
        const ref = referenceLloyd(points, init, tol ?? 1e-4);
        const result = kmeans(data, n, dim, k, seededRandom(seed), tol === undefined ? {} : { tol });
        expect(result.iterations).toBe(ref.iterations);
        expect(Array.from(result.labels)).toEqual(ref.labels);
        ref.centers.flat().forEach((v, t) => expect(result.centers[t]).toBeCloseTo(v, 9));
        cases++;
      }
    }
    expect(cases).toBe(240);
  });
});

describe('labels are the nearest centres when k-means stops (FAKE scripted draws)', () => {
  it('also after a stop on unchanged labels whose update moved a point into an empty cluster', () => {
    // Duplicate points and more centres than distinct points: with these draws k-means++ picks the point 0
    // twice, a cluster stays empty, and the last update moves the farthest point (4.5) into it while the
    // labels repeat. scikit-learn's loop stops there with 4.5 still labelled with the centre 0.
    const data = Float64Array.from([4.5, 1, 3, 1, 0, 0, 1, 3, 3]);
    const draws = [0, 0, 0, 0, 0, 2 / 3, 1 / 3, 0, 0, 0, 0, 1 / 3, 0, 1 / 3, 0, 2 / 3, 0, 0, 0, 0];
    const init = rows(kmeansPlusPlus(data, 9, 1, 5, scripted(draws)), 1);
    const sklearn = referenceLloyd(rows(data, 1), init, 1e-4, 300, false);
    const stale = sklearn.labels.findIndex(
      (l, i) =>
        Math.abs(data[i] - sklearn.centers[l][0]) >
        Math.min(...sklearn.centers.map((c) => Math.abs(data[i] - c[0]))),
    );
    expect(stale).toBe(0);

    const { centers, labels } = kmeans(data, 9, 1, 5, scripted(draws));
    expect(Array.from(centers)).toEqual(sklearn.centers.flat());
    for (let i = 0; i < 9; i++) {
      const own = Math.abs(data[i] - centers[labels[i]]);
      expect(own, `point ${i}`).toBe(Math.min(...Array.from(centers, (c) => Math.abs(data[i] - c))));
    }
    expect(data[0] - centers[labels[0]]).toBe(0);
  });
});

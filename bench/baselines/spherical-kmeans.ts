/**
 * Spherical k-means (Dhillon & Modha 2001), the baseline of the tree-shape benchmark and tests: clusters of unit
 * vectors around unit-length concept vectors, maximising the summed cosine similarity. Each run starts from
 * greedy k-means++ seeds under cosine distance (scikit-learn's 2 + ⌊ln k⌋ candidates per centre); Lloyd steps
 * until no label changes; an emptied cluster takes the point least similar to its centre. The best of `restarts`
 * runs (by the objective) is returned. Not part of the app: it is the yardstick for clusters of related text.
 */
import { seededRandom, type RandomFn } from '../../src/core/random';

/** Options of {@link sphericalKMeans}. */
export interface SphericalKMeansOptions {
  /** Independent seeded starts; the best objective wins. Default 10. */
  restarts?: number;
  /** Lloyd iterations per start at most. Default 100. */
  maxIter?: number;
  /** Seed of the first start; start r uses seed + r. Default 1. */
  seed?: number;
}

/** A spherical k-means partition. */
export interface SphericalKMeansResult {
  /** Cluster of each point, 0 … k − 1. */
  labels: Int32Array;
  /** Σ cos(point, its concept vector). */
  objective: number;
}

const DEFAULT_RESTARTS = 10;
const DEFAULT_MAX_ITER = 100;

/** Copies vectors into one row-major buffer of unit rows. */
function unitRows(vectors: readonly ArrayLike<number>[]): { data: Float64Array; dim: number } {
  const dim = vectors[0]?.length ?? 0;
  const data = new Float64Array(vectors.length * dim);
  vectors.forEach((v, i) => {
    let s = 0;
    for (let t = 0; t < dim; t++) s += v[t] * v[t];
    const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
    for (let t = 0; t < dim; t++) data[i * dim + t] = v[t] * inv;
  });
  return { data, dim };
}

function dotRow(a: Float64Array, ao: number, b: Float64Array, bo: number, dim: number): number {
  let s = 0;
  for (let t = 0; t < dim; t++) s += a[ao + t] * b[bo + t];
  return s;
}

/** Greedy k-means++ under cosine distance 1 − cos: k seed rows, as concept vectors. */
function seeds(data: Float64Array, n: number, dim: number, k: number, random: RandomFn): Float64Array {
  const centers = new Float64Array(k * dim);
  const closest = new Float64Array(n).fill(Infinity);
  const trials = 2 + Math.floor(Math.log(k));
  const pick = (c: number, row: number) => {
    centers.set(data.subarray(row * dim, (row + 1) * dim), c * dim);
    for (let i = 0; i < n; i++) {
      closest[i] = Math.min(closest[i], Math.max(0, 1 - dotRow(data, i * dim, centers, c * dim, dim)));
    }
  };
  pick(0, Math.floor(random() * n));
  for (let c = 1; c < k; c++) {
    let total = 0;
    for (let i = 0; i < n; i++) total += closest[i];
    let bestRow = 0;
    let bestPotential = Infinity;
    for (let t = 0; t < trials; t++) {
      let target = random() * total;
      let row = 0;
      while (row < n - 1 && (target -= closest[row]) > 0) row++;
      let potential = 0;
      for (let i = 0; i < n; i++) {
        potential += Math.min(closest[i], Math.max(0, 1 - dotRow(data, i * dim, data, row * dim, dim)));
      }
      if (potential < bestPotential) {
        bestPotential = potential;
        bestRow = row;
      }
    }
    pick(c, bestRow);
  }
  return centers;
}

function run(data: Float64Array, n: number, dim: number, k: number, random: RandomFn, maxIter: number) {
  const centers = seeds(data, n, dim, k, random);
  const labels = new Int32Array(n).fill(-1);
  const similarity = new Float64Array(n);
  for (let iter = 0; iter < maxIter; iter++) {
    let changed = 0;
    for (let i = 0; i < n; i++) {
      let best = 0;
      let bestSim = -Infinity;
      for (let c = 0; c < k; c++) {
        const s = dotRow(data, i * dim, centers, c * dim, dim);
        if (s > bestSim) {
          bestSim = s;
          best = c;
        }
      }
      similarity[i] = bestSim;
      if (labels[i] !== best) {
        labels[i] = best;
        changed++;
      }
    }
    if (changed === 0) break;
    centers.fill(0);
    const counts = new Int32Array(k);
    for (let i = 0; i < n; i++) {
      counts[labels[i]]++;
      for (let t = 0; t < dim; t++) centers[labels[i] * dim + t] += data[i * dim + t];
    }
    for (let c = 0; c < k; c++) {
      if (counts[c] === 0) {
        // An empty cluster restarts at the point its own centre explains worst.
        let worst = 0;
        for (let i = 1; i < n; i++) if (similarity[i] < similarity[worst]) worst = i;
        similarity[worst] = Infinity;
        centers.set(data.subarray(worst * dim, (worst + 1) * dim), c * dim);
        continue;
      }
      let s = 0;
      for (let t = 0; t < dim; t++) s += centers[c * dim + t] ** 2;
      const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
      for (let t = 0; t < dim; t++) centers[c * dim + t] *= inv;
    }
  }
  let objective = 0;
  for (let i = 0; i < n; i++) objective += dotRow(data, i * dim, centers, labels[i] * dim, dim);
  return { labels, objective };
}

/**
 * Partitions `vectors` (any lengths; normalised here) into k clusters by spherical k-means.
 * @param k clusters, 1 ≤ k ≤ number of vectors.
 */
export function sphericalKMeans(
  vectors: readonly ArrayLike<number>[],
  k: number,
  options: SphericalKMeansOptions = {},
): SphericalKMeansResult {
  const n = vectors.length;
  if (!(Number.isInteger(k) && k >= 1 && k <= n)) {
    throw new RangeError(`Spherical k-means needs an integer 1 ≤ k ≤ ${n} (got ${k}).`);
  }
  const { data, dim } = unitRows(vectors);
  const restarts = options.restarts ?? DEFAULT_RESTARTS;
  const seed = options.seed ?? 1;
  let best: SphericalKMeansResult | undefined;
  for (let r = 0; r < restarts; r++) {
    const result = run(data, n, dim, k, seededRandom(seed + r), options.maxIter ?? DEFAULT_MAX_ITER);
    if (!best || result.objective > best.objective) best = result;
  }
  return best!;
}

/** The clusters of a labelling, as lists of point indices (empty clusters left out). */
export function clustersOf(labels: ArrayLike<number>): number[][] {
  const groups = new Map<number, number[]>();
  for (let i = 0; i < labels.length; i++) {
    const g = groups.get(labels[i]);
    if (g) g.push(i);
    else groups.set(labels[i], [i]);
  }
  return [...groups.values()];
}

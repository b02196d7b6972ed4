/**
 * UMAP dimension reduction (umap-js), seeded, from a cosine k-NN graph computed in knn.ts (exact up to
 * `EXACT_KNN_MAX_POINTS` points).
 */
import { UMAP } from 'umap-js';
// `cosine` is not exported from umap-js's package entry; import it from the module that defines it and
// check it, because an `undefined` distance silently means euclidean (see ../shared/ENVIRONMENT.md).
import { cosine } from 'umap-js/dist/umap';
import { cosineKnn, EXACT_KNN_MAX_POINTS } from './knn';
import { seededRandom } from './random';

if (typeof cosine !== 'function') throw new Error('umap-js cosine distance could not be imported.');

/** umap-learn's default minimum distance between embedded points (the official code keeps it). */
export const UMAP_MIN_DIST = 0.1;

export { EXACT_KNN_MAX_POINTS };

/** Options of `reduceDimensions`. */
export interface ReduceOptions {
  /** Target dimension (≥ 1, < n). */
  nComponents: number;
  /** Neighbours per point, itself included as umap-learn counts them (≥ 2, < n… clamped). */
  nNeighbors: number;
  /** Seed of the layout's random initialisation and negative sampling. */
  seed: number;
}

/** Progress of a reduction: k-NN rows done, then optimisation epochs done. */
export interface ReduceProgress {
  phase: 'knn' | 'layout';
  done: number;
  total: number;
}

/**
 * Reduces unit vectors to `nComponents` dimensions with UMAP under cosine distance. Written as a generator
 * that yields progress at safe points (run it with `runSync` or `runAsync` from ./yield).
 * @param unit row-major unit-length vectors, `n × dim`.
 * @returns row-major `n × nComponents` coordinates.
 */
export function* reduceDimensions(
  unit: Float32Array,
  n: number,
  dim: number,
  options: ReduceOptions,
): Generator<ReduceProgress, Float64Array> {
  const nNeighbors = Math.max(2, Math.min(options.nNeighbors, n - 1));
  const random = seededRandom(options.seed);
  const umap = new UMAP({
    nComponents: options.nComponents,
    nNeighbors,
    minDist: UMAP_MIN_DIST,
    distanceFn: cosine,
    random,
  });
  const rows: number[][] = new Array(n);
  for (let i = 0; i < n; i++) rows[i] = Array.from(unit.subarray(i * dim, (i + 1) * dim));
  // The approximate graph draws from `random` before the layout does, exactly as umap-js's own fit would.
  const knn = cosineKnn(unit, n, dim, nNeighbors, random);
  let step = knn.next();
  while (!step.done) {
    yield { phase: 'knn', done: step.value + 1, total: n };
    step = knn.next();
  }
  umap.setPrecomputedKNN(step.value.indices, step.value.distances);
  const epochs = umap.initializeFit(rows);
  for (let e = 0; e < epochs; e++) {
    umap.step();
    yield { phase: 'layout', done: e + 1, total: epochs };
  }
  const embedding = umap.getEmbedding();
  const out = new Float64Array(n * options.nComponents);
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < options.nComponents; c++) out[i * options.nComponents + c] = embedding[i][c];
  }
  return out;
}

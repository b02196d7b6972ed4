/**
 * UMAP dimension reduction, seeded, from a cosine k-NN graph computed in knn.ts (exact up to
 * `EXACT_KNN_MAX_WORK`, n² · dim), laid out by umap-layout.ts: the same numbers as umap-js's `UMAP` with that
 * graph, on flat typed arrays.
 */
import { cosineKnn, EXACT_KNN_MAX_WORK, usesExactKnn, type KnnGraph } from './knn';
import { seededRandom } from '../random';
import { fuzzySimplicialSet, optimizeLayout, type LayoutOptions } from './umap-layout';

/** umap-learn's default minimum distance between embedded points (the official code keeps it). */
export const UMAP_MIN_DIST = 0.1;

export { EXACT_KNN_MAX_WORK };

/** Options of `reduceDimensions`. */
export interface ReduceOptions {
  /** Target dimension (≥ 1, < n). */
  nComponents: number;
  /** Neighbours per point, itself included as umap-learn counts them (≥ 2, < n… clamped). */
  nNeighbors: number;
  /** Seed of the layout's random initialisation and negative sampling. */
  seed: number;
  /**
   * The exact k-NN graph of these vectors with `nNeighbors` clamped as here (`effectiveNeighbors`), already
   * computed (e.g. on a pool of workers: `exactCosineKnnSplit`). Only for an exact graph: an approximate one
   * draws from the seeded generator before the layout does, so it must be made here.
   */
  graph?: KnnGraph;
  /**
   * Where the k-NN scan and the layout run: 'auto' (default), WebAssembly kernels where this runtime has them;
   * 'js', JavaScript, whose layout is umap-js's number for number with schedule 'umap-js' (see
   * `LayoutOptions.engine`).
   */
  engine?: LayoutOptions['engine'];
  /** The layout's schedule: 'stable' (default, umap-stable.ts) or 'umap-js' (see `LayoutOptions.schedule`). */
  schedule?: LayoutOptions['schedule'];
  /** A distinct id per point for the stable schedule's draws (see `LayoutOptions.ids`). Default: positions. */
  ids?: LayoutOptions['ids'];
  /** Where the stable layout's negative samples land (see `LayoutOptions.negatives`). Default 'position'. */
  negatives?: LayoutOptions['negatives'];
}

/** The neighbour count `reduceDimensions` uses for `n` points: `nNeighbors` within [2, n − 1]. */
export function effectiveNeighbors(nNeighbors: number, n: number): number {
  return Math.max(2, Math.min(nNeighbors, n - 1));
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
  const nNeighbors = effectiveNeighbors(options.nNeighbors, n);
  const random = seededRandom(options.seed);
  let knnGraph = options.graph;
  if (
    knnGraph &&
    (!usesExactKnn(n, dim) || knnGraph.indices.length !== n || knnGraph.indices[0]?.length !== nNeighbors)
  ) {
    throw new RangeError(
      `A given k-NN graph must be the exact graph of the ${n} points with ${nNeighbors} neighbours.`,
    );
  }
  if (!knnGraph) {
    // The approximate graph draws from `random` before the layout does, exactly as umap-js's own fit would.
    const knn = cosineKnn(unit, n, dim, nNeighbors, random, options.engine);
    let step = knn.next();
    while (!step.done) {
      yield { phase: 'knn', done: step.value + 1, total: n };
      step = knn.next();
    }
    knnGraph = step.value;
  }
  // The stable layout needs a graph that moves by a hair with the distances (continuous rho and sigma).
  const graph = fuzzySimplicialSet(knnGraph, nNeighbors, options.schedule !== 'umap-js');
  const layout = optimizeLayout(graph, options.nComponents, random, {
    engine: options.engine,
    schedule: options.schedule,
    ids: options.ids,
    negatives: options.negatives,
  });
  let epoch = layout.next();
  while (!epoch.done) {
    yield { phase: 'layout', done: epoch.value, total: graph.epochs };
    epoch = layout.next();
  }
  return epoch.value;
}

/**
 * k-nearest neighbours under cosine distance, on a flat matrix of unit vectors: the graph UMAP starts from.
 * For the node counts of a RAPTOR layer (hundreds to a few thousand) a brute-force scan over contiguous
 * Float32Array rows is both exact and faster than umap-js's NN-descent on `number[][]`; above
 * `EXACT_KNN_MAX_POINTS` the quadratic scan gives way to NN-descent (approximate).
 */
// Not exported from umap-js's package entry: imported from the modules that define them (see umap.ts).
import { makeNNDescent } from 'umap-js/dist/nn_descent';
import { makeForest, makeLeafArray } from 'umap-js/dist/tree';
import { cosine } from 'umap-js/dist/umap';
import type { RandomFn } from './random';

if (typeof cosine !== 'function') throw new Error('umap-js cosine distance could not be imported.');

/** Above this many points the exact k-NN scan (O(n²·dim)) gives way to umap-js's NN-descent. */
export const EXACT_KNN_MAX_POINTS = 6000;

/** Neighbour lists in umap-js's precomputed format: row i starts with i itself at distance 0. */
export interface KnnGraph {
  indices: number[][];
  distances: number[][];
}

/** Reusable buffers of one scan: a row of distances and the k best kept so far. */
interface ScanBuffers {
  idx: Int32Array;
  dst: Float64Array;
  row: Float64Array;
}

const scanBuffers = (n: number, k: number): ScanBuffers => ({
  idx: new Int32Array(k),
  dst: new Float64Array(k),
  row: new Float64Array(n),
});

/** Row i's `k` nearest rows into `b.idx`/`b.dst` (itself first at distance 0, then nearest first). */
function nearestOf(unit: Float32Array, n: number, dim: number, k: number, i: number, b: ScanBuffers): void {
  const { idx, dst, row } = b;
  const oi = i * dim;
  for (let j = 0; j < n; j++) {
    const oj = j * dim;
    // Four accumulators: shorter dependency chains, measurably faster in V8.
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let t = 0;
    for (; t + 3 < dim; t += 4) {
      s0 += unit[oi + t] * unit[oj + t];
      s1 += unit[oi + t + 1] * unit[oj + t + 1];
      s2 += unit[oi + t + 2] * unit[oj + t + 2];
      s3 += unit[oi + t + 3] * unit[oj + t + 3];
    }
    for (; t < dim; t++) s0 += unit[oi + t] * unit[oj + t];
    row[j] = Math.max(0, 1 - (s0 + s1 + s2 + s3));
  }
  // Keep the k smallest by insertion into a sorted buffer; self goes first at distance 0.
  idx[0] = i;
  dst[0] = 0;
  let filled = 1;
  for (let j = 0; j < n && k > 1; j++) {
    if (j === i) continue;
    const d = row[j];
    if (filled === k && d >= dst[k - 1]) continue;
    let p = filled === k ? k - 1 : filled++;
    while (p > 1 && dst[p - 1] > d) {
      dst[p] = dst[p - 1];
      idx[p] = idx[p - 1];
      p--;
    }
    dst[p] = d;
    idx[p] = j;
  }
}

/**
 * Returns each row's `k` nearest rows (itself included, first) by cosine distance 1 − u·v.
 * @param unit row-major unit vectors, `n × dim`.
 * @param k neighbours per row including itself, 1 ≤ k ≤ n.
 * Yields the row index after each row, so callers can report progress and yield to the event loop.
 */
export function* exactCosineKnn(
  unit: Float32Array,
  n: number,
  dim: number,
  k: number,
): Generator<number, KnnGraph> {
  const indices: number[][] = new Array(n);
  const distances: number[][] = new Array(n);
  const buffers = scanBuffers(n, k);
  for (let i = 0; i < n; i++) {
    nearestOf(unit, n, dim, k, i, buffers);
    indices[i] = Array.from(buffers.idx.subarray(0, k));
    distances[i] = Array.from(buffers.dst.subarray(0, k));
    yield i;
  }
  return { indices, distances };
}

/** Rows `start` … `end − 1` of an exact k-NN graph, as plain data a worker can compute (`runKnnRowsTask`). */
export interface KnnRowsTask {
  /** All `n` unit vectors, row-major. */
  unit: Float32Array;
  n: number;
  dim: number;
  k: number;
  start: number;
  end: number;
}

/** Those rows' neighbours and distances, `k` per row, row-major (transferable). */
export interface KnnRowsResult {
  indices: Int32Array;
  distances: Float64Array;
}

/** Computes a part of `exactCosineKnn`'s graph: the same numbers for those rows. */
export function runKnnRowsTask(task: KnnRowsTask): KnnRowsResult {
  const { unit, n, dim, k, start, end } = task;
  const rows = Math.max(0, end - start);
  const indices = new Int32Array(rows * k);
  const distances = new Float64Array(rows * k);
  const buffers = scanBuffers(n, k);
  for (let i = start; i < end; i++) {
    nearestOf(unit, n, dim, k, i, buffers);
    indices.set(buffers.idx, (i - start) * k);
    distances.set(buffers.dst, (i - start) * k);
  }
  return { indices, distances };
}

/**
 * `exactCosineKnn`'s graph computed in `parts` contiguous blocks of rows by `run` (e.g. on a pool of workers,
 * which run `runKnnRowsTask`): each row's neighbours depend only on the vectors, so the graph is the same for
 * any number of parts.
 * @param onPart called with the rows done so far after each part.
 */
export async function exactCosineKnnSplit(
  unit: Float32Array,
  n: number,
  dim: number,
  k: number,
  parts: number,
  run: (task: KnnRowsTask) => Promise<KnnRowsResult>,
  onPart?: (rowsDone: number) => void,
): Promise<KnnGraph> {
  const count = Math.max(1, Math.min(n, Math.floor(parts) || 1));
  const indices: number[][] = new Array(n);
  const distances: number[][] = new Array(n);
  let rowsDone = 0;
  await Promise.all(
    Array.from({ length: count }, async (_, p) => {
      const start = Math.floor((p * n) / count);
      const end = Math.floor(((p + 1) * n) / count);
      const result = await run({ unit, n, dim, k, start, end });
      for (let i = start; i < end; i++) {
        const at = (i - start) * k;
        indices[i] = Array.from(result.indices.subarray(at, at + k));
        distances[i] = Array.from(result.distances.subarray(at, at + k));
      }
      rowsDone += end - start;
      onPart?.(rowsDone);
    }),
  );
  return { indices, distances };
}

/**
 * Approximate k-nearest neighbours by NN-descent seeded from random-projection trees (umap-js, with the
 * forest size and iteration count umap-js's own `UMAP.fit` uses), under cosine distance. Each row lists
 * neighbours nearest first; a row usually, but not always, starts with the point itself.
 * @param unit row-major unit vectors, `n × dim`.
 * @param k neighbours per row including itself, 1 ≤ k ≤ n.
 * @param random the seeded generator (random.ts); the same generator state gives the same graph.
 */
export function approximateCosineKnn(
  unit: Float32Array,
  n: number,
  dim: number,
  k: number,
  random: RandomFn,
): KnnGraph {
  const rows: number[][] = new Array(n);
  for (let i = 0; i < n; i++) rows[i] = Array.from(unit.subarray(i * dim, (i + 1) * dim));
  const { trees, iterations } = nnDescentSchedule(n);
  const forest = makeForest(rows, k, trees, random);
  const { indices, weights } = makeNNDescent(cosine, random)(rows, makeLeafArray(forest), k, iterations);
  return { indices, distances: weights };
}

/**
 * NN-descent's forest size and iteration count for `n` points: umap-js's own choice in `UMAP.fit`
 * (5 + round(√n / 20) random-projection trees, max(5, round(log2 n)) iterations; umap-js rounds √n / 20 the
 * same way except at n = 100).
 */
export function nnDescentSchedule(n: number): { trees: number; iterations: number } {
  return { trees: 5 + Math.round(Math.sqrt(n) / 20), iterations: Math.max(5, Math.round(Math.log2(n))) };
}

/** Whether `cosineKnn` computes the exact graph of `n` points (up to and including EXACT_KNN_MAX_POINTS). */
export function usesExactKnn(n: number): boolean {
  return n <= EXACT_KNN_MAX_POINTS;
}

/**
 * The k-NN graph of `n` unit vectors: exact (`exactCosineKnn`) up to `EXACT_KNN_MAX_POINTS` points, NN-descent
 * (`approximateCosineKnn`, which draws from `random`) above. Yields the row index after each exact row.
 */
export function* cosineKnn(
  unit: Float32Array,
  n: number,
  dim: number,
  k: number,
  random: RandomFn,
): Generator<number, KnnGraph> {
  if (usesExactKnn(n)) return yield* exactCosineKnn(unit, n, dim, k);
  return approximateCosineKnn(unit, n, dim, k, random);
}

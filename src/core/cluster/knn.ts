/**
 * k-nearest neighbours under cosine distance, on a flat matrix of unit vectors: the graph UMAP starts from.
 * For the node counts of a RAPTOR layer (hundreds to a few thousand) a brute-force scan over contiguous
 * Float32Array rows is both exact and faster than umap-js's NN-descent on `number[][]`; above
 * `EXACT_KNN_MAX_WORK` the quadratic scan gives way to NN-descent (approximate).
 */
// Not exported from umap-js's package entry: imported from the modules that define them (see umap.ts).
import { makeNNDescent } from 'umap-js/dist/nn_descent';
import { makeForest, makeLeafArray } from 'umap-js/dist/tree';
import { cosine } from 'umap-js/dist/umap';
import { KNN_WASM } from './generated/knn-wasm';
import type { RandomFn } from '../random';
import { acquireKernel, KernelArrays } from './wasm';

if (typeof cosine !== 'function') throw new Error('umap-js cosine distance could not be imported.');

/**
 * Above this much work, n² · dim multiply-adds, the exact k-NN scan gives way to umap-js's NN-descent: about
 * 12,500 points of 384 dimensions or 24,000 of the offline model's 100 (~12 s on one core here, half that on a
 * pool of two). The limit was 6,000 points whatever the dimension; at the King James Bible's 12,462 leaves
 * (offline model) NN-descent took longer than the whole exact scan, which the kernel does at ~5·10⁹
 * multiply-adds a second (docs/clustering.md, "Speed").
 */
export const EXACT_KNN_MAX_WORK = 6e10;

/** Neighbour lists in umap-js's precomputed format: row i starts with i itself at distance 0. */
export interface KnnGraph {
  indices: number[][];
  distances: number[][];
}

/** Rows scored together by the kernel: each load of a row serves this many query rows. */
const KERNEL_QUERIES = 4;

/**
 * Dot products of query rows with every row, `count × n` into `out` (row q of the block first): in
 * WebAssembly SIMD (kernels/knn.ts) where it can run, else in JavaScript, with the same arithmetic and so the
 * same numbers: each product in float64, four running sums over every fourth coordinate, the leftover
 * coordinates added to the first, then (s0 + s1) + (s2 + s3).
 */
interface RowScorer {
  /** Rows `first` … `first + count − 1` (count ≤ KERNEL_QUERIES) against every row. */
  score(first: number, count: number): Float64Array;
  /** Gives the kernel back (the scorer is not used again). */
  release(): void;
}

interface KnnExports {
  dots(matrix: number, n: number, dim: number, first: number, count: number, out: number): void;
}

function kernelScorer(unit: Float32Array, n: number, dim: number): RowScorer | undefined {
  const bytes = KernelArrays.bytes([n * dim * 4, KERNEL_QUERIES * n * 8]);
  const kernel = acquireKernel<KnnExports>(KNN_WASM, bytes);
  if (!kernel) return undefined;
  const arrays = new KernelArrays(kernel.memory, kernel.base);
  const [matrix, matrixAt] = arrays.float32(n * dim);
  const [out, outAt] = arrays.float64(KERNEL_QUERIES * n);
  matrix.set(unit.subarray(0, n * dim));
  return {
    score(first, count) {
      kernel.exports.dots(matrixAt, n, dim, first, count, outAt);
      return out;
    },
    release: () => kernel.release(),
  };
}

function javascriptScorer(unit: Float32Array, n: number, dim: number): RowScorer {
  const out = new Float64Array(KERNEL_QUERIES * n);
  return {
    score(first, count) {
      for (let q = 0; q < count; q++) {
        const oi = (first + q) * dim;
        for (let j = 0; j < n; j++) {
          const oj = j * dim;
          // Four accumulators: shorter dependency chains (and the kernel's two float64 pairs).
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
          out[q * n + j] = s0 + s1 + (s2 + s3);
        }
      }
      return out;
    },
    release() {},
  };
}

/**
 * The scorer of an exact scan: the kernel unless `engine` is 'js' or it cannot run here. Exported for the
 * tests that hold the two to the same numbers.
 */
export function rowScorer(unit: Float32Array, n: number, dim: number, engine: KnnEngine = 'auto'): RowScorer {
  return (engine === 'auto' && kernelScorer(unit, n, dim)) || javascriptScorer(unit, n, dim);
}

/** Where an exact scan's dot products run: 'auto' (WebAssembly where it can) or 'js'. */
export type KnnEngine = 'auto' | 'js';

/** Reusable buffers of one scan: the k best kept so far. */
interface ScanBuffers {
  idx: Int32Array;
  dst: Float64Array;
}

const scanBuffers = (k: number): ScanBuffers => ({ idx: new Int32Array(k), dst: new Float64Array(k) });

/**
 * Row i's `k` nearest rows into `b.idx`/`b.dst` (itself first at distance 0, then nearest first), from its
 * dot products with every row (`dots[at + j]`).
 */
function nearestOf(dots: Float64Array, at: number, n: number, k: number, i: number, b: ScanBuffers): void {
  const { idx, dst } = b;
  // Keep the k smallest by insertion into a sorted buffer; self goes first at distance 0.
  idx[0] = i;
  dst[0] = 0;
  let filled = 1;
  for (let j = 0; j < n && k > 1; j++) {
    if (j === i) continue;
    const d = Math.max(0, 1 - dots[at + j]);
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
 * Rows `start` … `end − 1`'s neighbours, KERNEL_QUERIES rows scored at a time; `onRow` receives each row's
 * buffers. Yields the row index after each row.
 */
function* scanRows(
  unit: Float32Array,
  n: number,
  dim: number,
  k: number,
  start: number,
  end: number,
  onRow: (i: number, b: ScanBuffers) => void,
  engine: KnnEngine,
): Generator<number, void> {
  const scorer = rowScorer(unit, n, dim, engine);
  const buffers = scanBuffers(k);
  try {
    for (let first = start; first < end; first += KERNEL_QUERIES) {
      const count = Math.min(KERNEL_QUERIES, end - first);
      const dots = scorer.score(first, count);
      for (let q = 0; q < count; q++) {
        nearestOf(dots, q * n, n, k, first + q, buffers);
        onRow(first + q, buffers);
        yield first + q;
      }
    }
  } finally {
    scorer.release();
  }
}

/**
 * Returns each row's `k` nearest rows (itself included, first) by cosine distance 1 − u·v.
 * @param unit row-major unit vectors, `n × dim`.
 * @param k neighbours per row including itself, 1 ≤ k ≤ n.
 * @param engine where the dot products run (the same numbers either way; see `rowScorer`).
 * Yields the row index after each row, so callers can report progress and yield to the event loop.
 */
export function* exactCosineKnn(
  unit: Float32Array,
  n: number,
  dim: number,
  k: number,
  engine: KnnEngine = 'auto',
): Generator<number, KnnGraph> {
  const indices: number[][] = new Array(n);
  const distances: number[][] = new Array(n);
  yield* scanRows(
    unit,
    n,
    dim,
    k,
    0,
    n,
    (i, b) => {
      indices[i] = Array.from(b.idx.subarray(0, k));
      distances[i] = Array.from(b.dst.subarray(0, k));
    },
    engine,
  );
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
  const scan = scanRows(
    unit,
    n,
    dim,
    k,
    start,
    end,
    (i, b) => {
      indices.set(b.idx, (i - start) * k);
      distances.set(b.dst, (i - start) * k);
    },
    'auto',
  );
  while (!scan.next().done);
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

/** Whether `cosineKnn` computes the exact graph of `n` points of `dim` dimensions (n² · dim ≤ EXACT_KNN_MAX_WORK). */
export function usesExactKnn(n: number, dim: number): boolean {
  return n * n * dim <= EXACT_KNN_MAX_WORK;
}

/**
 * The k-NN graph of `n` unit vectors: exact (`exactCosineKnn`) up to `EXACT_KNN_MAX_WORK`, NN-descent
 * (`approximateCosineKnn`, which draws from `random`) above. Yields the row index after each exact row.
 */
export function* cosineKnn(
  unit: Float32Array,
  n: number,
  dim: number,
  k: number,
  random: RandomFn,
  engine: KnnEngine = 'auto',
): Generator<number, KnnGraph> {
  if (usesExactKnn(n, dim)) return yield* exactCosineKnn(unit, n, dim, k, engine);
  return approximateCosineKnn(unit, n, dim, k, random);
}

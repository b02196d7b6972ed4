/**
 * The per-tree index of retrieval by meaning and its ranking machinery: every node's embedding packed in one
 * buffer (read in place when a loader already laid them out so), their norms, the ids of each layer, token
 * counts remembered once counted, the WebAssembly kernel that scores all nodes at once, and the partial
 * selection that ranks only the best few. `retrieve.ts` builds its modes on these.
 */
import { createDotKernel, inKernelMemory, KERNEL_MEMORY_MIN_VALUES, type DotKernel } from '../dot-kernel';
import { DimensionError } from '../errors';
import { countTokens } from '../text';
import type { TreeNode } from '../types';
import { norm } from '../vector';

/** What retrieval needs per tree beyond the nodes themselves, computed once. */
export interface TreeIndex {
  /** Length every node embedding was checked to have. */
  dim: number;
  /** Every node's embedding, row `id` at `id * dim` (one buffer: the scoring loop streams through it). */
  packed: Float32Array;
  /** Euclidean norm of each node's embedding. */
  norms: Float64Array;
  /** Node ids of each layer, ascending. */
  layers: number[][];
  /** cl100k count of each node's text once a query has counted it, −1 before. */
  tokens: Int32Array;
  /**
   * The WebAssembly kernel that scores every node at once (dot-kernel.ts; same numbers as `queryDot`), made at
   * the first query that scores them all; null for a small tree or where WebAssembly SIMD is unavailable.
   */
  kernel?: DotKernel | null;
}

/** Keyed by the nodes array, which trees are not expected to mutate; a copy of a tree with the same nodes shares it. */
const indexCache = new WeakMap<readonly TreeNode[], TreeIndex>();

/**
 * The nodes' embeddings as one array without copying when they already are consecutive rows of one buffer (as
 * `parseTree` and storage's `loadTree` lay them out), copied into a new one otherwise, with the ids of each
 * layer; one pass over the nodes. Copying 10,000 × 384 floats into fresh memory costs more than a query (the
 * pages are new to the process), so a loaded tree is not copied.
 * @throws DimensionError when a node's embedding is not `dim` long.
 */
function packRows(
  nodes: readonly TreeNode[],
  dim: number,
): { packed: Float32Array; shared: boolean; layers: number[][] } {
  const first = nodes[0].embedding;
  const bytes = dim * Float32Array.BYTES_PER_ELEMENT;
  let shared = first instanceof Float32Array;
  const layers: number[][] = [];
  for (let i = 0; i < nodes.length; i++) {
    const { embedding, layer } = nodes[i];
    if (embedding.length !== dim) {
      throw new DimensionError(
        'DIMENSION_MISMATCH',
        `Node ${i} has an embedding of ${embedding.length} dimensions but the tree's embeddings have ${dim}.`,
        { node: i, length: embedding.length, dim },
      );
    }
    if (
      shared &&
      (embedding.buffer !== first.buffer || embedding.byteOffset !== first.byteOffset + i * bytes)
    )
      shared = false;
    while (layers.length <= layer) layers.push([]);
    layers[layer].push(i);
  }
  if (shared)
    return { packed: new Float32Array(first.buffer, first.byteOffset, nodes.length * dim), shared, layers };
  const packed = new Float32Array(nodes.length * dim);
  for (let i = 0; i < nodes.length; i++) packed.set(nodes[i].embedding, i * dim);
  return { packed, shared, layers };
}

/**
 * The index of `nodes` for embeddings of length `dim`, built on first use and cached on the nodes array (rebuilt
 * when a node was appended or `dim` changed).
 * @throws DimensionError when a node's embedding is not `dim` long.
 */
export function treeIndex(nodes: readonly TreeNode[], dim: number): TreeIndex {
  const cached = indexCache.get(nodes);
  if (cached && cached.norms.length === nodes.length && cached.dim === dim) return cached;
  const { packed, shared, layers } = packRows(nodes, dim);
  const norms = new Float64Array(nodes.length);
  // Rows a loader placed in the kernel's memory get their kernel now (no copy), which also sums the norms.
  const kernel = shared ? kernelFor(packed, nodes.length, dim, true) : null;
  if (kernel) kernel.norms(norms);
  else for (let i = 0; i < nodes.length; i++) norms[i] = norm(nodes[i].embedding);
  const index: TreeIndex = { dim, packed, norms, layers, tokens: new Int32Array(nodes.length).fill(-1) };
  if (kernel) index.kernel = kernel;
  indexCache.set(nodes, index);
  return index;
}

/** The cl100k count of node `id`'s text, counted once per tree. */
export function tokensOf(nodes: readonly TreeNode[], index: TreeIndex, id: number): number {
  let count = index.tokens[id];
  if (count < 0) index.tokens[id] = count = countTokens(nodes[id].text);
  return count;
}

/**
 * Dot product of the float64 query and the packed float32 row starting at `offset`. Four accumulators let the
 * CPU overlap the additions (about 1.5× faster than one running sum here); the rounding differs from a single
 * sum only around 1e-16, far below any gap that decides a ranking. The order of operations is fixed: scores
 * are bit-for-bit those of every earlier version, so rankings (and their ties) never move.
 */
function queryDot(query: Float64Array, packed: Float32Array, offset: number): number {
  const length = query.length;
  const whole = length - (length % 4);
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let k = 0;
  for (let j = offset; k < whole; k += 4, j += 4) {
    s0 += query[k] * packed[j];
    s1 += query[k + 1] * packed[j + 1];
    s2 += query[k + 2] * packed[j + 2];
    s3 += query[k + 3] * packed[j + 3];
  }
  for (; k < length; k++) s0 += query[k] * packed[offset + k];
  return s0 + s1 + (s2 + s3);
}

/**
 * The WebAssembly kernel for a tree's rows, or null: for small trees (below KERNEL_MEMORY_MIN_VALUES values)
 * the JavaScript loop is quick enough and reads the rows in place. With `inPlaceOnly`, null unless the rows
 * already are in kernel memory (a kernel that would copy them is left for the first query that scores all).
 */
export function kernelFor(
  packed: Float32Array,
  count: number,
  dim: number,
  inPlaceOnly = false,
): DotKernel | null {
  if (count * dim < KERNEL_MEMORY_MIN_VALUES || (inPlaceOnly && !inKernelMemory(packed, count, dim)))
    return null;
  return createDotKernel(packed, count, dim) ?? null;
}

/** Fills `scores[id]` with the cosine similarity of each candidate to the query (all nodes when undefined). */
export function scoreCandidates(
  index: TreeIndex,
  candidates: ArrayLike<number> | undefined,
  query: Float64Array,
  queryNorm: number,
  scores: Float64Array,
): void {
  const { packed, norms, dim } = index;
  const count = candidates ? candidates.length : norms.length;
  if (!candidates) {
    if (index.kernel === undefined) index.kernel = kernelFor(packed, count, dim);
    if (index.kernel) {
      index.kernel.dots(query, scores);
      for (let id = 0; id < count; id++) {
        const denominator = queryNorm * norms[id];
        scores[id] = denominator === 0 ? 0 : scores[id] / denominator;
      }
      return;
    }
  }
  for (let c = 0; c < count; c++) {
    const id = candidates ? candidates[c] : c;
    const denominator = queryNorm * norms[id];
    scores[id] = denominator === 0 ? 0 : queryDot(query, packed, id * dim) / denominator;
  }
}

/** Ranking order: higher score first, then lower id (total and stable; np.argsort orders ties arbitrarily). */
export function better(scores: Float64Array, a: number, b: number): boolean {
  return scores[a] > scores[b] || (scores[a] === scores[b] && a < b);
}

/**
 * The best `m` candidates (all nodes when `candidates` is undefined) in ranking order: one pass that keeps the
 * best m seen in a heap whose root is the worst of them, so a node that cannot enter costs one comparison,
 * then a sort of those m. O(n + m log m log n) instead of ranking all n.
 */
export function bestOf(
  candidates: ArrayLike<number> | undefined,
  count: number,
  scores: Float64Array,
  m: number,
): Int32Array {
  const size = Math.min(m, count);
  const heap = new Int32Array(size);
  const idAt = (c: number) => (candidates ? candidates[c] : c);
  // Root = the worst kept; a child is never worse than its parent.
  const siftDown = (start: number) => {
    let i = start;
    const item = heap[i];
    for (;;) {
      let child = 2 * i + 1;
      if (child >= size) break;
      if (child + 1 < size && better(scores, heap[child], heap[child + 1])) child++;
      if (!better(scores, item, heap[child])) break;
      heap[i] = heap[child];
      i = child;
    }
    heap[i] = item;
  };
  for (let c = 0; c < size; c++) heap[c] = idAt(c);
  for (let i = (size >> 1) - 1; i >= 0; i--) siftDown(i);
  for (let c = size; c < count; c++) {
    const id = idAt(c);
    if (better(scores, id, heap[0])) {
      heap[0] = id;
      siftDown(0);
    }
  }
  return heap.sort((a, b) => (better(scores, a, b) ? -1 : better(scores, b, a) ? 1 : 0));
}

/** Candidates ranked first when a budget is to be filled; four times more whenever they run out first. */
const FIRST_PICKS = 64;
const PICKS_GROWTH = 4;

/**
 * Calls `take(id)` on the candidates best first until it returns false or `limit` were taken. Only the best
 * few are ranked (`bestOf`); when the budget outlasts them, the next, longer ranking starts where they ended.
 */
export function walkRanked(
  candidates: ArrayLike<number> | undefined,
  count: number,
  scores: Float64Array,
  limit: number,
  take: (id: number) => boolean,
): void {
  let rank = 0;
  for (let m = FIRST_PICKS; ; m *= PICKS_GROWTH) {
    const ranked = bestOf(candidates, count, scores, Math.min(m, limit));
    for (; rank < ranked.length; rank++) if (!take(ranked[rank])) return;
    if (ranked.length >= Math.min(count, limit)) return;
  }
}

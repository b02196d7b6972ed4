/**
 * Retrieval from a RAPTOR tree by cosine similarity to a query embedding: the collapsed tree (every node
 * ranked together, filled up to a token budget), tree traversal (top-k per layer, descending through the
 * children of what was chosen), and flat leaf search (the paper's baseline). The selection rules are the
 * official implementation's (raptor/tree_retriever.py), checked against it on its own Cinderella tree by
 * tests/core/retrieve.test.ts.
 *
 * Token budgets count each candidate's text with cl100k_base at retrieval time, as the official code does
 * (`len(tokenizer.encode(node.text))`), and never read `TreeNode.tokens`: a stored count can come from another
 * tokenizer (the official Cinderella tree's file carries o200k_base counts) or from a hand-edited file.
 */
import { createDotKernel, inKernelMemory, KERNEL_MEMORY_MIN_VALUES, type DotKernel } from './dot-kernel';
import { AerieError, DimensionError } from './errors';
import { countTokens } from './tokens';
import type { RaptorTree, TreeNode } from './types';
import { norm } from './vector';

/** Token budget of collapsed and leaf retrieval when none is given: the paper's 2,000 (its best on QASPER). */
export const DEFAULT_MAX_TOKENS = 2000;
/** Nodes kept per layer in tree traversal when none is given: the official TreeRetrieverConfig's top_k of 5. */
export const DEFAULT_TRAVERSAL_TOP_K = 5;

/**
 * What ranks the candidates: `meaning` (cosine similarity of embeddings: the paper's and the official code's
 * ranking), `keywords` (BM25 over the nodes' texts) or `both` (the two rankings fused). Keywords need the
 * question's `text`.
 */
export type SearchMode = 'meaning' | 'keywords' | 'both';

/** Every search setting, in the order the app lists them. */
export const SEARCH_MODES: readonly SearchMode[] = ['meaning', 'keywords', 'both'];

/**
 * The search `retrieve` applies when the question's `text` is given and `search` is not (without `text`, always
 * `meaning`). Chosen by measurement: see `npm run bench retrieval`.
 */
export const DEFAULT_SEARCH: SearchMode = 'meaning';

/** Options every mode shares. */
interface SearchOptions {
  /**
   * The question as the user typed it. With it, `retrieve` applies `search` (default `DEFAULT_SEARCH`);
   * without it, meaning alone, exactly as the official TreeRetriever.
   */
  text?: string;
  /** What ranks the candidates when `text` is given. Default `DEFAULT_SEARCH`. */
  search?: SearchMode;
}

/** Collapsed tree: all nodes of all layers ranked together (the paper's main querying method). */
export interface CollapsedOptions extends SearchOptions {
  mode: 'collapsed';
  /** Token budget of the context (sum of the cl100k counts of the nodes' texts), an integer ≥ 1. Default 2,000. */
  maxTokens?: number;
  /** Only the best `topK` nodes are candidates (an integer ≥ 1). Default: no cap. */
  topK?: number;
}

/** Tree traversal: the best `topK` of a layer, then the best `topK` of their children, layer by layer. */
export interface TraversalOptions extends SearchOptions {
  mode: 'traversal';
  /** Nodes kept per layer, an integer ≥ 1. Default 5. */
  topK?: number;
  /** Layer to start from, 0 … top layer. Default: the top layer. */
  startLayer?: number;
  /** Layers visited, 1 … startLayer + 1. Default startLayer + 1 (down to the leaves). */
  numLayers?: number;
}

/** Flat search over the leaves only, filled up to a token budget (the paper's non-RAPTOR baseline). */
export interface LeavesOptions extends SearchOptions {
  mode: 'leaves';
  /** Token budget of the context (sum of the cl100k counts of the leaves' texts), an integer ≥ 1. Default 2,000. */
  maxTokens?: number;
  /** Only the best `topK` leaves are candidates (an integer ≥ 1). Default: no cap. */
  topK?: number;
}

/** How to retrieve; see each mode's options. */
export type RetrieveOptions = CollapsedOptions | TraversalOptions | LeavesOptions;

/** One selected node. */
export interface RetrievedNode {
  id: number;
  layer: number;
  /** Cosine similarity to the query, in [−1, 1]; 0 when the query or the node's embedding is all zeros. */
  score: number;
}

/** What `retrieve` selected. */
export interface RetrievalResult {
  /** Selected nodes in selection order (collapsed and leaves: best first; traversal: layer by layer). */
  nodes: RetrievedNode[];
  /** The selected texts joined as the official get_text does; see `formatContext`. */
  context: string;
  /**
   * Sum of the cl100k_base token counts of the selected texts, counted at retrieval time (not the nodes'
   * stored `tokens`); ≤ maxTokens in collapsed and leaves mode.
   */
  tokens: number;
}

/** Codes of `RetrievalError`. */
export type RetrievalErrorCode =
  | 'INVALID_MODE'
  | 'INVALID_TOP_K'
  | 'INVALID_MAX_TOKENS'
  | 'INVALID_START_LAYER'
  | 'INVALID_NUM_LAYERS'
  | 'INVALID_QUERY'
  | 'EMPTY_TREE';

/** Retrieval options out of range, a non-finite query, or a tree without nodes. */
export class RetrievalError extends AerieError<RetrievalErrorCode> {}

/** Python's str.splitlines() boundaries: \n, \r, \r\n, \v, \f, \x1c–\x1e, NEL, LINE and PARAGRAPH SEPARATOR. */
// eslint-disable-next-line no-control-regex -- \x1c–\x1e are line boundaries for Python, so they must be here.
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;
/** What follows every text in the context. */
const CONTEXT_SEPARATOR = '\n\n';

/**
 * Joins texts into a context exactly like the official get_text: in each text every line break becomes one
 * space (a trailing break is dropped, as Python's splitlines drops it), and each text is followed by "\n\n".
 */
export function formatContext(texts: readonly string[]): string {
  let context = '';
  for (const text of texts) {
    const lines = text.split(LINE_BREAK);
    if (lines[lines.length - 1] === '') lines.pop();
    context += lines.join(' ') + CONTEXT_SEPARATOR;
  }
  return context;
}

/** What retrieval needs per tree beyond the nodes themselves, computed once. */
interface TreeIndex {
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

function treeIndex(nodes: readonly TreeNode[], dim: number): TreeIndex {
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
function tokensOf(nodes: readonly TreeNode[], index: TreeIndex, id: number): number {
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
function kernelFor(packed: Float32Array, count: number, dim: number, inPlaceOnly = false): DotKernel | null {
  if (count * dim < KERNEL_MEMORY_MIN_VALUES || (inPlaceOnly && !inKernelMemory(packed, count, dim)))
    return null;
  return createDotKernel(packed, count, dim) ?? null;
}

/** Fills `scores[id]` with the cosine similarity of each candidate to the query (all nodes when undefined). */
function scoreCandidates(
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
function better(scores: Float64Array, a: number, b: number): boolean {
  return scores[a] > scores[b] || (scores[a] === scores[b] && a < b);
}

/**
 * The best `m` candidates (all nodes when `candidates` is undefined) in ranking order: one pass that keeps the
 * best m seen in a heap whose root is the worst of them, so a node that cannot enter costs one comparison,
 * then a sort of those m. O(n + m log m log n) instead of ranking all n.
 */
function bestOf(
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
function walkRanked(
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

/**
 * Builds the per-tree index queries use (packed embeddings, norms, layers, the scoring kernel) now rather than
 * at the first query, e.g. while a tree opens. Optional: `retrieve` builds it when missing.
 * @throws DimensionError when a node's embedding differs in length from `tree.embedding.dim`.
 */
export function prepareRetrieval(tree: RaptorTree): void {
  const index = treeIndex(tree.nodes, tree.embedding.dim);
  if (index.kernel === undefined) index.kernel = kernelFor(index.packed, tree.nodes.length, index.dim);
}

function checkInteger(
  value: number | undefined,
  name: string,
  code: RetrievalErrorCode,
  min: number,
  max: number,
): void {
  if (value === undefined) return;
  if (!Number.isInteger(value) || value < min || value > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `in [${min}, ${max}]`;
    throw new RetrievalError(code, `${name} must be an integer ${range}, got ${value}.`, {
      [name]: value,
      min,
      max,
    });
  }
}

/** The query as float64 (no precision lost), after checking its length and values. */
function readQuery(tree: RaptorTree, queryEmbedding: ArrayLike<number>): Float64Array {
  const dim = tree.embedding.dim;
  if (queryEmbedding.length !== dim) {
    throw new DimensionError(
      'DIMENSION_MISMATCH',
      `The query embedding has ${queryEmbedding.length} dimensions but the tree's embeddings have ${dim}.`,
      { query: queryEmbedding.length, tree: dim },
    );
  }
  const query = Float64Array.from(queryEmbedding);
  for (let k = 0; k < query.length; k++) {
    if (!Number.isFinite(query[k])) {
      throw new RetrievalError('INVALID_QUERY', `Query value ${k} is ${query[k]}, not a finite number.`, {
        index: k,
      });
    }
  }
  return query;
}

/**
 * Selects the nodes of `tree` most similar (cosine) to `queryEmbedding` and joins their texts into a context.
 *
 * - `collapsed` (mirrors the official retrieve_information_collapse_tree): rank every node; take them best
 *   first while the running token total stays ≤ maxTokens, stopping at the FIRST node that does not fit
 *   (later, smaller nodes are not tried); `topK` caps the candidates. Each examined node's text is counted
 *   with `countTokens` (cl100k_base) when first examined (then remembered for the tree), so only the ranked
 *   prefix up to the first misfit is tokenized, however large the tree. Only the best few nodes are sorted
 *   (a partial selection over one packed buffer of embeddings), never all of them.
 * - `traversal` (mirrors the official retrieve_information): the best `topK` of `startLayer`, then the best
 *   `topK` among the children of those (deduplicated), layer by layer for `numLayers` layers; no token budget.
 * - `leaves`: like collapsed over layer 0 only; never returns a summary.
 *
 * Ties rank by ascending id. Trees are treated as immutable: per-tree packed embeddings, norms and token counts
 * are cached on `tree.nodes` (built by the first query, or ahead of it by `prepareRetrieval`).
 * @throws DimensionError when the query or a node's embedding differs in length from `tree.embedding.dim`
 *   (names both numbers).
 * @throws RetrievalError for options out of range, a non-finite query value or a tree without nodes.
 */
export function retrieve(
  tree: RaptorTree,
  queryEmbedding: ArrayLike<number>,
  opts: RetrieveOptions,
): RetrievalResult {
  const nodes = tree.nodes;
  if (nodes.length === 0) throw new RetrievalError('EMPTY_TREE', 'The tree has no nodes.');
  const query = readQuery(tree, queryEmbedding);
  const queryNorm = norm(query);
  const index = treeIndex(nodes, tree.embedding.dim);
  const scores = new Float64Array(nodes.length);
  const selected: number[] = [];
  let total = 0;

  if (opts.mode === 'collapsed' || opts.mode === 'leaves') {
    const { maxTokens = DEFAULT_MAX_TOKENS, topK } = opts;
    checkInteger(maxTokens, 'maxTokens', 'INVALID_MAX_TOKENS', 1, Number.MAX_SAFE_INTEGER);
    checkInteger(topK, 'topK', 'INVALID_TOP_K', 1, Number.MAX_SAFE_INTEGER);
    const candidates = opts.mode === 'leaves' ? (index.layers[0] ?? []) : undefined;
    const count = candidates ? candidates.length : nodes.length;
    scoreCandidates(index, candidates, query, queryNorm, scores);
    walkRanked(candidates, count, scores, topK ?? count, (id) => {
      const tokens = tokensOf(nodes, index, id);
      if (total + tokens > maxTokens) return false;
      selected.push(id);
      total += tokens;
      return true;
    });
  } else if (opts.mode === 'traversal') {
    const topLayer = index.layers.length - 1;
    const { topK = DEFAULT_TRAVERSAL_TOP_K, startLayer = topLayer } = opts;
    checkInteger(topK, 'topK', 'INVALID_TOP_K', 1, Number.MAX_SAFE_INTEGER);
    checkInteger(startLayer, 'startLayer', 'INVALID_START_LAYER', 0, topLayer);
    const { numLayers = startLayer + 1 } = opts;
    checkInteger(numLayers, 'numLayers', 'INVALID_NUM_LAYERS', 1, startLayer + 1);
    let candidates: number[] = index.layers[startLayer];
    for (let step = 0; step < numLayers && candidates.length > 0; step++) {
      scoreCandidates(index, candidates, query, queryNorm, scores);
      const best = Array.from(bestOf(candidates, candidates.length, scores, topK));
      selected.push(...best);
      // Traversal has no budget; the total only reports the context's size.
      for (const id of best) total += tokensOf(nodes, index, id);
      const children = new Set<number>();
      for (const id of best) for (const child of nodes[id].children) children.add(child);
      candidates = [...children];
    }
  } else {
    const mode: unknown = (opts as { mode?: unknown }).mode;
    throw new RetrievalError('INVALID_MODE', `Unknown retrieval mode ${JSON.stringify(mode)}.`, { mode });
  }

  return {
    nodes: selected.map((id) => ({ id, layer: nodes[id].layer, score: scores[id] })),
    context: formatContext(selected.map((id) => nodes[id].text)),
    tokens: total,
  };
}

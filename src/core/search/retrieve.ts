/**
 * Retrieval from a RAPTOR tree: the collapsed tree (every node ranked together, filled up to a token budget),
 * tree traversal (top-k per layer, descending through the children of what was chosen), and flat leaf search
 * (the paper's baseline). By meaning alone (no `text`), the selection rules are the official implementation's
 * (raptor/tree_retriever.py), checked against it on its own Cinderella tree by tests/core/search/retrieve.test.ts.
 * With the question's `text`, the candidates of every mode are ranked by `search` (keywords.ts, fusion.ts),
 * and `distinct` (distinct.ts) keeps any sentence from entering the context twice. `retrieveReranked` has a
 * cross-encoder reorder the best candidates before the budget is filled. Each mode's selection is one function
 * here (`selectRanked`, `selectTraversal`), made of the steps in retrieve-steps.ts.
 *
 * Token budgets count each candidate's text with cl100k_base at retrieval time, as the official code does
 * (`len(tokenizer.encode(node.text))`), and never read `TreeNode.tokens`: a stored count can come from another
 * tokenizer (the official Cinderella tree's file carries o200k_base counts) or from a hand-edited file.
 */
import type { ChosenPassage } from './passages';
import { inReadingOrder } from './reading-order';
import { routeTo, walkDown } from './route';
import {
  DEFAULT_MAX_TOKENS,
  DEFAULT_RERANK_DEPTH,
  DEFAULT_TRAVERSAL_TOP_K,
  RetrievalError,
  type CollapsedOptions,
  type LeavesOptions,
  type RetrievalErrorCode,
  type RetrievalResult,
  type RetrievedNode,
  type Reranker,
  type RetrieveOptions,
  type TraversalOptions,
} from './retrieve-options';
import { bestOf, kernelFor, treeIndex, walkRanked } from './retrieve-index';
import {
  fill,
  fullOrder,
  keywordHead,
  partOf,
  rerankHead,
  scoreByMeaning,
  startSelection,
  type RerankRequest,
  type Reranking,
  type Selecting,
  type Taken,
} from './retrieve-steps';
import type { RaptorTree } from '../types';

export * from './retrieve-options';

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

type Selection = Generator<RerankRequest, RetrievalResult, ArrayLike<number>>;

/** What a mode chose: passages sentence by sentence (with the traversal's route), or nodes in the order taken. */
type Chosen = { passages: ChosenPassage[]; route?: number[] } | { taken: Taken[]; total: number };

/** Collapsed (every node) or leaves (layer 0): the best candidates that fit `maxTokens`. */
function* selectRanked(s: Selecting, opts: CollapsedOptions | LeavesOptions): Reranking<Chosen> {
  const { index, search, rerankDepth } = s;
  const { maxTokens = DEFAULT_MAX_TOKENS, topK } = opts;
  checkInteger(maxTokens, 'maxTokens', 'INVALID_MAX_TOKENS', 1, Number.MAX_SAFE_INTEGER);
  checkInteger(topK, 'topK', 'INVALID_TOP_K', 1, Number.MAX_SAFE_INTEGER);
  const candidates = opts.mode === 'leaves' ? (index.layers[0] ?? []) : undefined;
  const count = candidates ? candidates.length : s.nodes.length;
  const limit = Math.min(topK ?? count, count);
  // By keywords alone, passages read only the best few nodes: neither meaning nor a full ranking is needed.
  if (s.sentenceWise && search === 'keywords' && rerankDepth <= 0) {
    return { passages: fill(s, keywordHead(s, candidates, count, limit), maxTokens) };
  }
  scoreByMeaning(s, candidates);
  if (s.sentenceWise) {
    const order = yield* rerankHead(s, fullOrder(s, candidates, count).subarray(0, limit));
    return { passages: fill(s, (n) => order.subarray(0, n), maxTokens) };
  }
  const chosen: Chosen = { taken: [], total: 0 };
  // Stops at the first node that does not fit (the official rule); a node with nothing new is passed over.
  const take = (id: number): boolean => {
    const part = partOf(s, id);
    if (!part) return true;
    if (chosen.total + part.tokens > maxTokens) return false;
    chosen.taken.push(part.taken);
    chosen.total += part.tokens;
    s.sentences?.add(id);
    return true;
  };
  if (search === 'meaning' && rerankDepth <= 0) {
    walkRanked(candidates, count, s.scores, limit, take);
  } else {
    const order = yield* rerankHead(s, fullOrder(s, candidates, count).subarray(0, limit));
    for (const id of order) if (!take(id)) break;
  }
  return chosen;
}

/** The traversal's layers and budget, checked against the tree. */
function traversalOptions(
  s: Selecting,
  opts: TraversalOptions,
): {
  topK: number;
  startLayer: number;
  numLayers: number;
  maxTokens: number;
} {
  const topLayer = s.index.layers.length - 1;
  const { topK = DEFAULT_TRAVERSAL_TOP_K, startLayer = topLayer } = opts;
  checkInteger(topK, 'topK', 'INVALID_TOP_K', 1, Number.MAX_SAFE_INTEGER);
  checkInteger(startLayer, 'startLayer', 'INVALID_START_LAYER', 0, topLayer);
  const { numLayers = startLayer + 1, maxTokens = DEFAULT_MAX_TOKENS } = opts;
  checkInteger(numLayers, 'numLayers', 'INVALID_NUM_LAYERS', 1, startLayer + 1);
  checkInteger(maxTokens, 'maxTokens', 'INVALID_MAX_TOKENS', 1, Number.MAX_SAFE_INTEGER);
  return { topK, startLayer, numLayers, maxTokens };
}

/**
 * Traversal: the best `topK` of `startLayer`, then of their children, layer by layer. Sentence by sentence,
 * the walk down (route.ts) enters the nodes whose passages then fill `maxTokens`.
 */
function* selectTraversal(s: Selecting, opts: TraversalOptions): Reranking<Chosen> {
  const { nodes, index, search, rerankDepth } = s;
  const { topK, startLayer, numLayers, maxTokens } = traversalOptions(s, opts);
  if (s.sentenceWise) {
    scoreByMeaning(s, undefined);
    const entered = walkDown({
      nodes,
      layers: index.layers,
      scores: s.keyword!,
      cosines: s.scores,
      startLayer,
      numLayers,
      topK,
    });
    const order = yield* rerankHead(s, fullOrder(s, entered, entered.length));
    const passages = fill(s, (n) => order.subarray(0, n), maxTokens);
    const route = routeTo(
      nodes,
      entered,
      passages.map((p) => p.id),
    );
    return { passages, route };
  }
  const chosen: Chosen = { taken: [], total: 0 };
  const official = search === 'meaning' && rerankDepth <= 0 && !s.sentences;
  let candidates: number[] = index.layers[startLayer];
  for (let step = 0; step < numLayers && candidates.length > 0; step++) {
    scoreByMeaning(s, candidates);
    const order = official
      ? bestOf(candidates, candidates.length, s.scores, topK)
      : yield* rerankHead(s, fullOrder(s, candidates, candidates.length));
    // The best topK that add something new; traversal has no budget, the total only reports its size.
    const layerChosen: number[] = [];
    for (const id of order) {
      if (layerChosen.length === topK) break;
      const part = partOf(s, id);
      if (!part) continue;
      layerChosen.push(id);
      chosen.taken.push(part.taken);
      chosen.total += part.tokens;
      s.sentences?.add(id);
    }
    const children = new Set<number>();
    for (const id of layerChosen) for (const child of nodes[id].children) children.add(child);
    candidates = [...children];
  }
  return chosen;
}

/** How a chosen node is reported: its layer, similarity, keyword and reranker scores, and excerpt. */
function describe(s: Selecting, { id, excerpt }: Taken): RetrievedNode {
  const node: RetrievedNode = { id, layer: s.nodes[id].layer, score: s.scores[id] };
  if (s.keyword) node.keyword = s.keyword[id];
  const rerank = s.reranked.get(id);
  if (rerank !== undefined) node.rerank = rerank;
  if (excerpt) node.excerpt = excerpt;
  return node;
}

/** The passages in reading order, described, with their context and the traversal's route. */
function passagesResult(
  s: Selecting,
  passages: ChosenPassage[],
  route: number[] | undefined,
): RetrievalResult {
  // A leaf may have entered through its summary's copy of its sentence, without being ranked itself: its
  // similarity is reported all the same.
  scoreByMeaning(
    s,
    passages.map((p) => p.id),
  );
  const read = inReadingOrder(s.tree, passages);
  const result: RetrievalResult = {
    nodes: read.map((p) => ({
      ...describe(
        s,
        p.whole
          ? { id: p.id }
          : {
              id: p.id,
              excerpt: { text: p.text, omitted: p.omitted, focused: true, sentences: p.sentences },
            },
      ),
      rank: p.rank,
    })),
    context: formatContext(read.map((p) => p.text)),
    tokens: read.reduce((sum, p) => sum + p.tokens, 0),
  };
  if (route) result.route = route;
  return result;
}

/** The result of what a mode chose. */
function resultOf(s: Selecting, chosen: Chosen): RetrievalResult {
  const result: RetrievalResult =
    'passages' in chosen
      ? passagesResult(s, chosen.passages, chosen.route)
      : {
          nodes: chosen.taken.map((taken) => describe(s, taken)),
          context: formatContext(chosen.taken.map(({ id, excerpt }) => excerpt?.text ?? s.nodes[id].text)),
          tokens: chosen.total,
        };
  if (s.keywordMatches !== undefined) result.keywordMatches = s.keywordMatches;
  return result;
}

/**
 * The selection of every mode, written once: a generator that yields a `RerankRequest` where a reranker
 * reorders candidates (only when `rerankDepth` > 0) and returns the result. `retrieve` runs it without a
 * reranker (it never yields), `retrieveReranked` answers its requests.
 */
function* select(
  tree: RaptorTree,
  queryEmbedding: ArrayLike<number>,
  opts: RetrieveOptions,
  rerankDepth: number,
): Selection {
  const s = startSelection(tree, queryEmbedding, opts, rerankDepth);
  let chosen: Chosen;
  if (opts.mode === 'collapsed' || opts.mode === 'leaves') {
    chosen = yield* selectRanked(s, opts);
  } else if (opts.mode === 'traversal') {
    chosen = yield* selectTraversal(s, opts);
  } else {
    const mode: unknown = (opts as { mode?: unknown }).mode;
    throw new RetrievalError('INVALID_MODE', `Unknown retrieval mode ${JSON.stringify(mode)}.`, { mode });
  }
  return resultOf(s, chosen);
}

/**
 * Selects the nodes of `tree` for a query and joins their texts into a context.
 *
 * Without `text` (by meaning alone, every text whole):
 * - `collapsed` (mirrors the official retrieve_information_collapse_tree): rank every node by cosine
 *   similarity; take them best first while the running token total stays ≤ maxTokens, stopping at the FIRST
 *   node that does not fit (later, smaller nodes are not tried); `topK` caps the candidates. Each examined
 *   node's text is counted with `countTokens` (cl100k_base) when first examined (then remembered for the
 *   tree), so only the ranked prefix up to the first misfit is tokenized, however large the tree. Only the
 *   best few nodes are sorted (a partial selection over one packed buffer of embeddings), never all of them.
 * - `traversal` (mirrors the official retrieve_information): the best `topK` of `startLayer`, then the best
 *   `topK` among the children of those (deduplicated), layer by layer for `numLayers` layers; no token budget.
 * - `leaves`: like collapsed over layer 0 only; never returns a summary.
 *
 * With `text` (the question), each mode ranks its candidates by `search` (default `DEFAULT_SEARCH`, keywords)
 * and, with `distinct` (default on), passes over what is already in the context; the rules above are otherwise
 * the same.
 *
 * Ties rank by ascending id. Trees are treated as immutable: per-tree packed embeddings, norms, token counts
 * and the keyword index are cached on `tree.nodes` (built by the first query, or ahead of it by
 * `prepareRetrieval`).
 * @throws DimensionError when the query or a node's embedding differs in length from `tree.embedding.dim`
 *   (names both numbers).
 * @throws RetrievalError for options out of range, a non-finite query value or a tree without nodes.
 */
export function retrieve(
  tree: RaptorTree,
  queryEmbedding: ArrayLike<number>,
  opts: RetrieveOptions,
): RetrievalResult {
  const steps = select(tree, queryEmbedding, opts, 0);
  const step = steps.next();
  if (!step.done) throw new Error('Retrieval without a reranker asked for one.');
  return step.value;
}

/**
 * `retrieve`, with `reranker` reordering the best `reranker.depth` candidates (default 32) before the budget
 * is filled (collapsed, leaves), or before each layer's top-k is taken (traversal). The candidates are ranked
 * by `opts.search` first, as in `retrieve`. Nodes it scored carry `rerank`.
 * @throws what `retrieve` throws; RetrievalError INVALID_RERANK when the reranker returns the wrong number of
 *   scores or a non-finite one; whatever `reranker.score` rejects with.
 */
export async function retrieveReranked(
  tree: RaptorTree,
  queryEmbedding: ArrayLike<number>,
  opts: RetrieveOptions,
  reranker: Reranker,
): Promise<RetrievalResult> {
  const depth = reranker.depth ?? DEFAULT_RERANK_DEPTH;
  checkInteger(depth, 'depth', 'INVALID_RERANK', 1, Number.MAX_SAFE_INTEGER);
  const steps = select(tree, queryEmbedding, opts, depth);
  let step = steps.next();
  while (!step.done) {
    const texts = step.value.ids.map((id) => tree.nodes[id].text);
    step = steps.next(await reranker.score(texts));
  }
  return step.value;
}

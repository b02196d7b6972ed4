/**
 * Retrieval from a RAPTOR tree: the collapsed tree (every node ranked together, filled up to a token budget),
 * tree traversal (top-k per layer, descending through the children of what was chosen), and flat leaf search
 * (the paper's baseline). By meaning alone (no `text`), the selection rules are the official implementation's
 * (raptor/tree_retriever.py), checked against it on its own Cinderella tree by tests/core/search/retrieve.test.ts.
 * With the question's `text`, the candidates of every mode are ranked by `search` (keywords.ts, fusion.ts),
 * and `distinct` (distinct.ts) keeps any sentence from entering the context twice. `retrieveReranked` has a
 * cross-encoder reorder the best candidates before the budget is filled.
 *
 * Token budgets count each candidate's text with cl100k_base at retrieval time, as the official code does
 * (`len(tokenizer.encode(node.text))`), and never read `TreeNode.tokens`: a stored count can come from another
 * tokenizer (the official Cinderella tree's file carries o200k_base counts) or from a hand-edited file.
 */
import { ContextSentences } from './distinct';
import { choosePassages, type ChosenPassage } from './passages';
import { inReadingOrder } from './reading-order';
import { routeTo, walkDown } from './route';
import { DimensionError } from '../errors';
import { fusedOrder, keywordOrder } from './fusion';
import { keywordIndex } from './keywords';
import {
  DEFAULT_MAX_TOKENS,
  DEFAULT_RERANK_DEPTH,
  DEFAULT_SEARCH,
  DEFAULT_TRAVERSAL_TOP_K,
  RetrievalError,
  SEARCH_MODES,
  type RetrievalErrorCode,
  type RetrievalResult,
  type RetrievedNode,
  type Reranker,
  type RetrieveOptions,
  type SearchMode,
} from './retrieve-options';
import { bestOf, kernelFor, scoreCandidates, tokensOf, treeIndex, walkRanked } from './retrieve-index';
import { countTokens } from '../text';
import type { RaptorTree } from '../types';
import { norm } from '../vector';

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

/** Asks the driver for cross-encoder scores of these nodes (one per id, in order). */
interface RerankRequest {
  ids: number[];
}

type Selection = Generator<RerankRequest, RetrievalResult, ArrayLike<number>>;

/** One node taken into the context. */
interface Taken {
  id: number;
  /** Set when some of its sentences were left out (`distinct`, or passages by sentence). */
  excerpt?: RetrievedNode['excerpt'];
}

/** Whether the context is filled sentence by sentence (passages.ts): a question ranked by its words, distinct on. */
function bySentence(opts: RetrieveOptions, search: SearchMode): boolean {
  return (
    opts.text !== undefined &&
    search !== 'meaning' &&
    (opts.distinct ?? true) &&
    (opts.passages ?? 'sentences') === 'sentences'
  );
}

function searchOf(opts: RetrieveOptions): SearchMode {
  if (opts.text === undefined) return 'meaning';
  const search = opts.search ?? DEFAULT_SEARCH;
  if (!SEARCH_MODES.includes(search)) {
    throw new RetrievalError('INVALID_SEARCH', `Unknown search ${JSON.stringify(search)}.`, { search });
  }
  return search;
}

/**
 * The selection of every mode, written once: a generator that yields a `RerankRequest` where a reranker
 * reorders candidates (only when `rerankDepth` > 0) and returns the result. `retrieve` runs it without a
 * reranker (it never yields), `retrieveReranked` answers its requests.
 */
// eslint-disable-next-line max-lines-per-function -- not yet cut along its seams into hooks or components (issue 46; docs/architecture.md lists the long functions)
function* select(
  tree: RaptorTree,
  queryEmbedding: ArrayLike<number>,
  opts: RetrieveOptions,
  rerankDepth: number,
): Selection {
  const nodes = tree.nodes;
  if (nodes.length === 0) throw new RetrievalError('EMPTY_TREE', 'The tree has no nodes.');
  const query = readQuery(tree, queryEmbedding);
  const queryNorm = norm(query);
  const index = treeIndex(nodes, tree.embedding.dim);
  const scores = new Float64Array(nodes.length);
  const search = searchOf(opts);
  const distinct = opts.distinct ?? opts.text !== undefined;
  const sentences = distinct ? new ContextSentences(nodes) : undefined;
  let keyword: Float64Array | undefined;
  let keywordMatches: number | undefined;
  if (search !== 'meaning') {
    keyword = new Float64Array(nodes.length);
    keywordMatches = keywordIndex(nodes).score(opts.text ?? '', keyword);
  }
  const fused = search === 'both' ? new Float64Array(nodes.length) : undefined;
  const reranked = new Map<number, number>();

  /** Every candidate best first by `search` (scores already computed for them). */
  const fullOrder = (candidates: ArrayLike<number> | undefined, count: number): Int32Array =>
    search === 'keywords'
      ? keywordOrder(candidates, count, keyword!, scores)
      : search === 'both'
        ? fusedOrder(candidates, count, keyword!, scores, fused!)
        : bestOf(candidates, count, scores, count);

  /**
   * The first `n` of `candidates` (at most `limit`) in keyword order without ranking or scoring all of them:
   * the best `n` by keyword score (a heap), scored by meaning for the ties, then sorted as `keywordOrder`
   * sorts. Beyond the nodes that match a keyword, the whole keyword order.
   */
  const keywordHead =
    (candidates: ArrayLike<number> | undefined, count: number, limit: number) =>
    (n: number): Int32Array => {
      const want = Math.min(n, limit);
      let matched = 0;
      for (let c = 0; c < count; c++) if (keyword![candidates ? candidates[c] : c] > 0) matched++;
      if (want > matched) {
        scoreCandidates(index, candidates, query, queryNorm, scores);
        return keywordOrder(candidates, count, keyword!, scores).subarray(0, want);
      }
      const head = bestOf(candidates, count, keyword!, want);
      scoreCandidates(index, head, query, queryNorm, scores);
      return head.sort((a, b) => keyword![b] - keyword![a] || scores[b] - scores[a] || a - b);
    };

  /** `order` with its first `rerankDepth` reordered by the reranker's scores (stable for equal scores). */
  function* rerankHead(order: Int32Array): Generator<RerankRequest, Int32Array, ArrayLike<number>> {
    if (rerankDepth <= 0 || order.length === 0) return order;
    const head = Array.from(order.subarray(0, rerankDepth));
    const given = yield { ids: head };
    if (given.length !== head.length || !Array.from(given).every(Number.isFinite)) {
      throw new RetrievalError(
        'INVALID_RERANK',
        `The reranker returned ${given.length} scores for ${head.length} passages, or a score that is not a number.`,
        { expected: head.length, got: given.length },
      );
    }
    head.forEach((id, i) => reranked.set(id, given[i]));
    const sorted = head.map((id, i) => ({ id, i })).sort((a, b) => given[b.i] - given[a.i] || a.i - b.i);
    const out = order.slice();
    sorted.forEach(({ id }, i) => (out[i] = id));
    return out;
  }

  /** What node `id` adds to the context: undefined when `distinct` finds nothing new in it. */
  const partOf = (id: number): { taken: Taken; tokens: number } | undefined => {
    const part = sentences?.newPart(id);
    if (!part || part.omitted === 0) return { taken: { id }, tokens: tokensOf(nodes, index, id) };
    if (part.text === '') return undefined;
    return { taken: { id, excerpt: part }, tokens: countTokens(part.text) };
  };

  const taken: Taken[] = [];
  let total = 0;
  const sentenceWise = bySentence(opts, search);
  let passages: ChosenPassage[] | undefined;
  let route: number[] | undefined;
  const fill = (head: (count: number) => ArrayLike<number>, maxTokens: number): ChosenPassage[] =>
    choosePassages({
      nodes,
      head,
      nodeScores: keyword!,
      weights: keywordIndex(nodes).termWeights(opts.text ?? ''),
      maxTokens,
      wholeTokens: (id) => tokensOf(nodes, index, id),
    });

  if (opts.mode === 'collapsed' || opts.mode === 'leaves') {
    const { maxTokens = DEFAULT_MAX_TOKENS, topK } = opts;
    checkInteger(maxTokens, 'maxTokens', 'INVALID_MAX_TOKENS', 1, Number.MAX_SAFE_INTEGER);
    checkInteger(topK, 'topK', 'INVALID_TOP_K', 1, Number.MAX_SAFE_INTEGER);
    const candidates = opts.mode === 'leaves' ? (index.layers[0] ?? []) : undefined;
    const count = candidates ? candidates.length : nodes.length;
    const limit = Math.min(topK ?? count, count);
    // By keywords alone, passages read only the best few nodes: neither meaning nor a full ranking is needed.
    const quick = sentenceWise && search === 'keywords' && rerankDepth <= 0;
    if (!quick) scoreCandidates(index, candidates, query, queryNorm, scores);
    // Stops at the first node that does not fit (the official rule); a node with nothing new is passed over.
    const take = (id: number): boolean => {
      const part = partOf(id);
      if (!part) return true;
      if (total + part.tokens > maxTokens) return false;
      taken.push(part.taken);
      total += part.tokens;
      sentences?.add(id);
      return true;
    };
    if (quick) {
      passages = fill(keywordHead(candidates, count, limit), maxTokens);
    } else if (sentenceWise) {
      const order = yield* rerankHead(fullOrder(candidates, count).subarray(0, limit));
      passages = fill((n) => order.subarray(0, n), maxTokens);
    } else if (search === 'meaning' && rerankDepth <= 0) {
      walkRanked(candidates, count, scores, limit, take);
    } else {
      const order = yield* rerankHead(fullOrder(candidates, count).subarray(0, limit));
      for (const id of order) if (!take(id)) break;
    }
  } else if (opts.mode === 'traversal') {
    const topLayer = index.layers.length - 1;
    const { topK = DEFAULT_TRAVERSAL_TOP_K, startLayer = topLayer } = opts;
    checkInteger(topK, 'topK', 'INVALID_TOP_K', 1, Number.MAX_SAFE_INTEGER);
    checkInteger(startLayer, 'startLayer', 'INVALID_START_LAYER', 0, topLayer);
    const { numLayers = startLayer + 1, maxTokens = DEFAULT_MAX_TOKENS } = opts;
    checkInteger(numLayers, 'numLayers', 'INVALID_NUM_LAYERS', 1, startLayer + 1);
    checkInteger(maxTokens, 'maxTokens', 'INVALID_MAX_TOKENS', 1, Number.MAX_SAFE_INTEGER);
    let candidates: number[] = sentenceWise ? [] : index.layers[startLayer];
    if (sentenceWise) {
      scoreCandidates(index, undefined, query, queryNorm, scores);
      const entered = walkDown({
        nodes,
        layers: index.layers,
        scores: keyword!,
        cosines: scores,
        startLayer,
        numLayers,
        topK,
      });
      const order = yield* rerankHead(fullOrder(entered, entered.length));
      passages = fill((n) => order.subarray(0, n), maxTokens);
      route = routeTo(
        nodes,
        entered,
        passages.map((p) => p.id),
      );
    }
    for (let step = 0; step < numLayers && candidates.length > 0; step++) {
      scoreCandidates(index, candidates, query, queryNorm, scores);
      const official = search === 'meaning' && rerankDepth <= 0 && !sentences;
      const order = official
        ? bestOf(candidates, candidates.length, scores, topK)
        : yield* rerankHead(fullOrder(candidates, candidates.length));
      // The best topK that add something new; traversal has no budget, the total only reports its size.
      const chosen: number[] = [];
      for (const id of order) {
        if (chosen.length === topK) break;
        const part = partOf(id);
        if (!part) continue;
        chosen.push(id);
        taken.push(part.taken);
        total += part.tokens;
        sentences?.add(id);
      }
      const children = new Set<number>();
      for (const id of chosen) for (const child of nodes[id].children) children.add(child);
      candidates = [...children];
    }
  } else {
    const mode: unknown = (opts as { mode?: unknown }).mode;
    throw new RetrievalError('INVALID_MODE', `Unknown retrieval mode ${JSON.stringify(mode)}.`, { mode });
  }

  const describe = ({ id, excerpt }: Taken): RetrievedNode => {
    const node: RetrievedNode = { id, layer: nodes[id].layer, score: scores[id] };
    if (keyword) node.keyword = keyword[id];
    const rerank = reranked.get(id);
    if (rerank !== undefined) node.rerank = rerank;
    if (excerpt) node.excerpt = excerpt;
    return node;
  };
  let result: RetrievalResult;
  if (passages) {
    // A leaf may have entered through its summary's copy of its sentence, without being ranked itself: its
    // similarity is reported all the same.
    scoreCandidates(
      index,
      passages.map((p) => p.id),
      query,
      queryNorm,
      scores,
    );
    const read = inReadingOrder(tree, passages);
    result = {
      nodes: read.map((p) => ({
        ...describe(
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
  } else {
    result = {
      nodes: taken.map(describe),
      context: formatContext(taken.map(({ id, excerpt }) => excerpt?.text ?? nodes[id].text)),
      tokens: total,
    };
  }
  if (keywordMatches !== undefined) result.keywordMatches = keywordMatches;
  return result;
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

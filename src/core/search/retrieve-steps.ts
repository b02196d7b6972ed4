/**
 * The steps every retrieval mode's selection is made of (retrieve.ts puts them together): the query checked and
 * the question's keywords scored once (`startSelection`), candidates ordered by the search (`fullOrder`,
 * `keywordHead`), the reranker's reorder of the best (`rerankHead`), what a node adds to the context (`partOf`)
 * and the passages that fill a budget sentence by sentence (`fill`).
 */
import { ContextSentences } from './distinct';
import { choosePassages, type ChosenPassage } from './passages';
import { DimensionError } from '../errors';
import { fusedOrder, keywordOrder } from './fusion';
import { keywordIndex } from './keywords';
import {
  DEFAULT_SEARCH,
  RetrievalError,
  SEARCH_MODES,
  type RetrievedNode,
  type RetrieveOptions,
  type SearchMode,
} from './retrieve-options';
import { bestOf, scoreCandidates, tokensOf, treeIndex, type TreeIndex } from './retrieve-index';
import { countTokens } from '../text';
import type { RaptorTree, TreeNode } from '../types';
import { norm } from '../vector';

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
export interface RerankRequest {
  ids: number[];
}

/** A step of a selection that may ask for reranker scores on its way to `T`. */
export type Reranking<T> = Generator<RerankRequest, T, ArrayLike<number>>;

/** One node taken into the context. */
export interface Taken {
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

/** How candidates are ranked: by meaning without a question's text, else `opts.search` (checked). */
function searchOf(opts: RetrieveOptions): SearchMode {
  if (opts.text === undefined) return 'meaning';
  const search = opts.search ?? DEFAULT_SEARCH;
  if (!SEARCH_MODES.includes(search)) {
    throw new RetrievalError('INVALID_SEARCH', `Unknown search ${JSON.stringify(search)}.`, { search });
  }
  return search;
}

/** What one query's selection reads and fills in, whatever its mode. */
export interface Selecting {
  tree: RaptorTree;
  nodes: readonly TreeNode[];
  opts: RetrieveOptions;
  /** Candidates the reranker reorders; 0 without one. */
  rerankDepth: number;
  query: Float64Array;
  queryNorm: number;
  index: TreeIndex;
  /** Cosine similarity of each node scored so far (`scoreCandidates`). */
  scores: Float64Array;
  search: SearchMode;
  /** The sentences already in the context (`distinct`); undefined when off. */
  sentences?: ContextSentences;
  /** Each node's keyword score; undefined when searching by meaning. */
  keyword?: Float64Array;
  /** How many nodes match a keyword of the question; undefined when searching by meaning. */
  keywordMatches?: number;
  /** Scratch for the fused order (search 'both'). */
  fused?: Float64Array;
  /** The reranker's score of each node it scored. */
  reranked: Map<number, number>;
  /** Whether the context is filled sentence by sentence (`bySentence`). */
  sentenceWise: boolean;
}

/** Checks the query and the tree, and scores every node by the question's keywords when the search uses them. */
export function startSelection(
  tree: RaptorTree,
  queryEmbedding: ArrayLike<number>,
  opts: RetrieveOptions,
  rerankDepth: number,
): Selecting {
  const nodes = tree.nodes;
  if (nodes.length === 0) throw new RetrievalError('EMPTY_TREE', 'The tree has no nodes.');
  const query = readQuery(tree, queryEmbedding);
  const index = treeIndex(nodes, tree.embedding.dim);
  const search = searchOf(opts);
  const distinct = opts.distinct ?? opts.text !== undefined;
  const selecting: Selecting = {
    tree,
    nodes,
    opts,
    rerankDepth,
    query,
    queryNorm: norm(query),
    index,
    scores: new Float64Array(nodes.length),
    search,
    sentences: distinct ? new ContextSentences(nodes) : undefined,
    fused: search === 'both' ? new Float64Array(nodes.length) : undefined,
    reranked: new Map<number, number>(),
    sentenceWise: bySentence(opts, search),
  };
  if (search !== 'meaning') {
    selecting.keyword = new Float64Array(nodes.length);
    selecting.keywordMatches = keywordIndex(nodes).score(opts.text ?? '', selecting.keyword);
  }
  return selecting;
}

/** Scores `candidates` (all nodes when undefined) by meaning. */
export function scoreByMeaning(s: Selecting, candidates: ArrayLike<number> | undefined): void {
  scoreCandidates(s.index, candidates, s.query, s.queryNorm, s.scores);
}

/** Every candidate best first by `search` (scores already computed for them). */
export function fullOrder(
  s: Selecting,
  candidates: ArrayLike<number> | undefined,
  count: number,
): Int32Array {
  return s.search === 'keywords'
    ? keywordOrder(candidates, count, s.keyword!, s.scores)
    : s.search === 'both'
      ? fusedOrder(candidates, count, s.keyword!, s.scores, s.fused!)
      : bestOf(candidates, count, s.scores, count);
}

/**
 * The first `n` of `candidates` (at most `limit`) in keyword order without ranking or scoring all of them:
 * the best `n` by keyword score (a heap), scored by meaning for the ties, then sorted as `keywordOrder`
 * sorts. Beyond the nodes that match a keyword, the whole keyword order.
 */
export function keywordHead(
  s: Selecting,
  candidates: ArrayLike<number> | undefined,
  count: number,
  limit: number,
): (n: number) => Int32Array {
  const keyword = s.keyword!;
  const scores = s.scores;
  return (n) => {
    const want = Math.min(n, limit);
    let matched = 0;
    for (let c = 0; c < count; c++) if (keyword[candidates ? candidates[c] : c] > 0) matched++;
    if (want > matched) {
      scoreByMeaning(s, candidates);
      return keywordOrder(candidates, count, keyword, scores).subarray(0, want);
    }
    const head = bestOf(candidates, count, keyword, want);
    scoreByMeaning(s, head);
    return head.sort((a, b) => keyword[b] - keyword[a] || scores[b] - scores[a] || a - b);
  };
}

/** `order` with its first `rerankDepth` reordered by the reranker's scores (stable for equal scores). */
export function* rerankHead(s: Selecting, order: Int32Array): Reranking<Int32Array> {
  if (s.rerankDepth <= 0 || order.length === 0) return order;
  const head = Array.from(order.subarray(0, s.rerankDepth));
  const given = yield { ids: head };
  if (given.length !== head.length || !Array.from(given).every(Number.isFinite)) {
    throw new RetrievalError(
      'INVALID_RERANK',
      `The reranker returned ${given.length} scores for ${head.length} passages, or a score that is not a number.`,
      { expected: head.length, got: given.length },
    );
  }
  head.forEach((id, i) => s.reranked.set(id, given[i]));
  const sorted = head.map((id, i) => ({ id, i })).sort((a, b) => given[b.i] - given[a.i] || a.i - b.i);
  const out = order.slice();
  sorted.forEach(({ id }, i) => (out[i] = id));
  return out;
}

/** What node `id` adds to the context: undefined when `distinct` finds nothing new in it. */
export function partOf(s: Selecting, id: number): { taken: Taken; tokens: number } | undefined {
  const part = s.sentences?.newPart(id);
  if (!part || part.omitted === 0) return { taken: { id }, tokens: tokensOf(s.nodes, s.index, id) };
  if (part.text === '') return undefined;
  return { taken: { id, excerpt: part }, tokens: countTokens(part.text) };
}

/** The passages, sentence by sentence, that fill `maxTokens` from the nodes `head` ranks first. */
export function fill(
  s: Selecting,
  head: (count: number) => ArrayLike<number>,
  maxTokens: number,
): ChosenPassage[] {
  return choosePassages({
    nodes: s.nodes,
    head,
    nodeScores: s.keyword!,
    weights: keywordIndex(s.nodes).termWeights(s.opts.text ?? ''),
    maxTokens,
    wholeTokens: (id) => tokensOf(s.nodes, s.index, id),
  });
}

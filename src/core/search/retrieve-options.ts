/**
 * What `retrieve` (retrieve.ts) takes and returns: its modes and options, the search settings, the result
 * shape and its error. Kept apart from the selection code so the app and the evaluation import the shapes
 * without it.
 */
import { AerieError } from '../errors';

/** Token budget of collapsed and leaf retrieval when none is given: the paper's 2,000 (its best on QASPER). */
export const DEFAULT_MAX_TOKENS = 2000;
/** Nodes kept per layer in tree traversal when none is given: the official TreeRetrieverConfig's top_k of 5. */
export const DEFAULT_TRAVERSAL_TOP_K = 5;

/**
 * What ranks the candidates: `meaning` (cosine similarity of embeddings: the paper's and the official code's
 * ranking), `keywords` (BM25 over the nodes' texts, keywords.ts) or `both` (the two rankings fused by
 * reciprocal rank, fusion.ts). Keywords need the question's `text`.
 */
export type SearchMode = 'meaning' | 'keywords' | 'both';

/** Every search setting, in the order the app lists them. */
export const SEARCH_MODES: readonly SearchMode[] = ['meaning', 'keywords', 'both'];

/**
 * The search `retrieve` applies when the question's `text` is given and `search` is not (without `text`, always
 * `meaning`). Chosen by measurement (`npm run bench retrieval`, the gold sets of three books, docs/retrieval.md):
 * with the offline model, keywords found the most evidence in every mode but traversal (collapsed tree: 0.499
 * of it against 0.446 fused and 0.254 by meaning; plain BM25 over the leaves 0.451), and fusion never beat
 * keywords alone; the random-weight MiniLM cannot rank by meaning at all. Meaning and both stay one click away.
 */
export const DEFAULT_SEARCH: SearchMode = 'keywords';

/** Options every mode shares. */
export interface SearchOptions {
  /**
   * The question as the user typed it. With it, `retrieve` applies `search` (default `DEFAULT_SEARCH`) and
   * `distinct` (default on); without it, meaning alone and every text whole, exactly as the official
   * TreeRetriever.
   */
  text?: string;
  /** What ranks the candidates when `text` is given. Default `DEFAULT_SEARCH`; ignored without `text`. */
  search?: SearchMode;
  /**
   * Never pay twice for a sentence (distinct.ts): a node's sentences that a related node already put in the
   * context (an extractive summary and the leaf it copied from) are left out of its text, a node with nothing
   * new is skipped, and only what is new counts against the budget. Default: on when `text` is given, off
   * without it. Off with search `meaning` is the official TreeRetriever on every tree; on changes a selection
   * only where some sentence would have been in the context twice.
   */
  distinct?: boolean;
  /**
   * What a node puts into the context when the question's words rank the candidates (`search` keywords or
   * both, `distinct` on): `sentences` (default) fills the budget with the best sentences of the best-ranked
   * nodes (passages.ts) and returns the nodes in reading order (reading-order.ts); `whole` takes whole nodes
   * best first. With search `meaning` (or no `text`) nodes are always whole and best first, as the official
   * TreeRetriever takes them.
   */
  passages?: PassageUnit;
}

/** How much of a node a context takes: its sentences that bear on the question, or the whole node. */
export type PassageUnit = 'sentences' | 'whole';

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
  /**
   * Token budget of the context when passages are sentences (route.ts: the walk follows every branch holding
   * one of the best passages, then fills this budget from what it entered), an integer ≥ 1. Default 2,000.
   * Unused when nodes are whole (the paper's traversal has no budget).
   */
  maxTokens?: number;
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
  /**
   * BM25 score for the question (0: no term in common): the node's own text and, for a leaf, its nearby leaves'
   * words at a tenth of the weight (keywords.ts); set when keywords were searched.
   */
  keyword?: number;
  /** The cross-encoder's score (higher is more relevant); set on the candidates a reranker reordered. */
  rerank?: number;
  /**
   * Set when only some of the node's sentences entered the context: the text that entered and how many
   * sentences were left out. `focused`: the sentences were chosen for the question (passages by sentence; runs
   * of sentences joined by " … "); otherwise the others were already in the context (`distinct`, joined by one
   * space). `sentences`: with `focused`, the indexes of the node's sentences (as `sentenceSpans` cuts its text)
   * that entered, ascending.
   */
  excerpt?: { text: string; omitted: number; focused?: true; sentences?: number[] };
  /**
   * 1-based order in which the node entered the context, set when `nodes` are in reading order (passages by
   * sentence) rather than in that order.
   */
  rank?: number;
}

/** What `retrieve` selected. */
export interface RetrievalResult {
  /**
   * Selected nodes in the order the context gives them: with passages by sentence, reading order (documents
   * in the tree's order, each from its beginning; each node's `rank` says when it was chosen); otherwise
   * selection order (collapsed and leaves: best first; traversal: layer by layer).
   */
  nodes: RetrievedNode[];
  /**
   * Tree traversal with passages by sentence: the summaries the walk went through to reach what it read, top
   * layer first (they are not in the context unless also in `nodes`).
   */
  route?: number[];
  /** The selected texts (a node's excerpt where it has one) joined as the official get_text does. */
  context: string;
  /**
   * Sum of the cl100k_base token counts of the selected texts (excerpts where given), counted at retrieval time
   * (not the nodes' stored `tokens`); ≤ maxTokens in collapsed and leaves mode.
   */
  tokens: number;
  /** How many nodes share a term with the question; set when keywords were searched. */
  keywordMatches?: number;
}

/** Codes of `RetrievalError`. */
export type RetrievalErrorCode =
  | 'INVALID_MODE'
  | 'INVALID_SEARCH'
  | 'INVALID_TOP_K'
  | 'INVALID_MAX_TOKENS'
  | 'INVALID_START_LAYER'
  | 'INVALID_NUM_LAYERS'
  | 'INVALID_QUERY'
  | 'INVALID_RERANK'
  | 'EMPTY_TREE';

/** Retrieval options out of range, a non-finite query, a reranker's wrong answer, or a tree without nodes. */
export class RetrievalError extends AerieError<RetrievalErrorCode> {}

/** A cross-encoder that scores candidates against the question (the app's runs in the embedding worker). */
export interface Reranker {
  /**
   * One relevance score per text, in order (higher is more relevant). The texts are the candidates' whole
   * texts; the question is the reranker's own.
   */
  score(texts: string[]): Promise<ArrayLike<number>>;
  /** How many of the best candidates it reorders (an integer ≥ 1). Default `DEFAULT_RERANK_DEPTH`. */
  depth?: number;
}

/**
 * Candidates a reranker reorders by default: about one and a half 2,000-token contexts of 100-token leaves, so what
 * fills the budget after reordering comes from well beyond what the first ranking alone would have taken.
 */
export const DEFAULT_RERANK_DEPTH = 32;

/**
 * What an evaluation compares: retrieval variants, each a mode (collapsed tree, tree traversal, leaves only)
 * with a search setting (meaning, keywords, both) and optionally a rerank hook, and the names they go by.
 *
 * Names (`variantKey`): the mode alone for the default search (`collapsed`, `traversal`, `leaves`), the mode and
 * the search after a colon for the others (`collapsed:keywords`, `leaves:both`, and `collapsed:meaning` once
 * the default is not meaning), and `+<hook name>` for a rerank hook (`collapsed:both+rerank`). Every report
 * entry also records its mode and search, so a report stays readable after the default changes.
 */
import {
  DEFAULT_SEARCH,
  SEARCH_MODES,
  type RetrievalResult,
  type RetrieveOptions,
  type SearchMode,
} from '../search';
import type { AbortSignalLike } from '../abort';
import type { RaptorTree } from '../types';
import type { EvalQuestion } from './questions';

/** The retrieval modes, in the order reports list them. */
export type RetrievalMode = RetrieveOptions['mode'];

/** Every retrieval mode: the paper's collapsed tree and tree traversal, and flat leaves (its baseline). */
export const RETRIEVAL_MODES: readonly RetrievalMode[] = ['collapsed', 'traversal', 'leaves'];

/**
 * A retrieval that replaces `retrieve` for one variant, e.g. issue 25's reranker (retrieve candidates, reorder
 * them with a cross-encoder, fill the budget). It receives the options `retrieve` would have had.
 */
export type VariantRetrieve = (
  tree: RaptorTree,
  queryVector: Float32Array,
  options: RetrieveOptions,
  context: { question: EvalQuestion; signal?: AbortSignalLike },
) => RetrievalResult | Promise<RetrievalResult>;

/** An injected reranking step, named in the variant's key. */
export interface RerankHook {
  /** Short name, appended to the key after "+": letters, digits, "-" and "_". */
  name: string;
  retrieve: VariantRetrieve;
}

/** One retrieval setting an evaluation runs on every question. */
export interface EvalVariant {
  mode: RetrievalMode;
  /** Default `DEFAULT_SEARCH`. */
  search?: SearchMode;
  rerank?: RerankHook;
}

/** The report key of a variant; see the module comment. */
export function variantKey(variant: EvalVariant): string {
  const search = variant.search ?? DEFAULT_SEARCH;
  const base = search === DEFAULT_SEARCH ? variant.mode : `${variant.mode}:${search}`;
  return variant.rerank ? `${base}+${variant.rerank.name}` : base;
}

/**
 * Every mode with every search setting: the default search's three modes first, then the others in
 * `SEARCH_MODES` order.
 */
export function defaultVariants(searches: readonly SearchMode[] = SEARCH_MODES): EvalVariant[] {
  const ordered = [...searches].sort((a, b) => Number(b === DEFAULT_SEARCH) - Number(a === DEFAULT_SEARCH));
  return ordered.flatMap((search) => RETRIEVAL_MODES.map((mode) => ({ mode, search })));
}

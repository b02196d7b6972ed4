/**
 * From the Ask panel's settings to the options `retrieve` takes: pure, so the mapping is tested without React.
 */
import { DEFAULT_SEARCH, type RetrieveOptions } from '../../core/search';
import type { RetrievalMode } from '../modes';
import type { RetrievalSettings } from './types';

/** The paper's collapsed-tree budget, also used for leaves-only retrieval (tokens). */
const PAPER_MAX_TOKENS = 2000;
/** The official TreeRetriever's top-k per layer in tree traversal. */
const PAPER_TRAVERSAL_TOP_K = 5;

/**
 * The paper's retrieval defaults for a tree whose top layer is `maxLayer`: collapsed tree with 2,000 tokens;
 * traversal of the top 5 per layer from the top layer down to the leaves (by keywords, at least 5 per layer and
 * 2,000 tokens of passages); leaves only with 2,000 tokens.
 */
export function defaultRetrievalSettings(maxLayer: number): RetrievalSettings {
  return {
    mode: 'collapsed',
    collapsedMaxTokens: PAPER_MAX_TOKENS,
    traversalTopK: PAPER_TRAVERSAL_TOP_K,
    traversalStartLayer: maxLayer,
    traversalLayers: maxLayer + 1,
    traversalMaxTokens: PAPER_MAX_TOKENS,
    leavesMaxTokens: PAPER_MAX_TOKENS,
    search: DEFAULT_SEARCH,
    rerank: false,
    distinct: true,
  };
}

/**
 * The `retrieve` options of `mode` under the panel's settings `s` (each mode reads only its own fields). With
 * the question's `text`, its search setting and `distinct` apply; without it (retrieval by a node's embedding),
 * meaning alone with every text whole, as the official TreeRetriever.
 */
export function retrieveOptionsFor(
  mode: RetrievalMode,
  s: RetrievalSettings,
  text?: string,
): RetrieveOptions {
  const question = text === undefined ? {} : { text, search: s.search, distinct: s.distinct };
  switch (mode) {
    case 'collapsed':
      return { mode, maxTokens: s.collapsedMaxTokens, ...question };
    case 'traversal':
      return {
        mode,
        topK: s.traversalTopK,
        startLayer: s.traversalStartLayer,
        numLayers: s.traversalLayers,
        maxTokens: s.traversalMaxTokens,
        ...question,
      };
    case 'leaves':
      return { mode, maxTokens: s.leavesMaxTokens, ...question };
  }
}

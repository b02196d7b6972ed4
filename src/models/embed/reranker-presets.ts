/**
 * The rerankers Aerie names, without loading transformers.js (the page's settings import these; the model code
 * lives in reranker.ts, in the embedding worker).
 */

/** The reranker the app offers: the MS MARCO MiniLM-L6 cross-encoder (23 MB in q8). */
export const DEFAULT_RERANKER_ID = 'Xenova/ms-marco-MiniLM-L-6-v2';
/** The committed random-weight test model of the same architecture family (scripts/models). */
export const TEST_RERANKER_ID = 'local:aerie-tiny-cross';

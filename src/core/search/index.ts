/**
 * The search room: collapsed-tree, traversal and leaves-only retrieval by meaning, keywords (BM25) or both
 * (reciprocal-rank fusion), with the option checks, the skip of sentences already in the context, passages by
 * sentence in reading order, and where each node sits in its documents.
 */
export * from './keywords';
export { excerptText } from './passages';
export * from './places';
export * from './retrieve';
export * from './retrieve-options';

/**
 * The search room: collapsed-tree, traversal and leaves-only retrieval by meaning, keywords (BM25) or both
 * (reciprocal-rank fusion), with the option checks and the skip of sentences already in the context.
 */
export * from './keywords';
export * from './retrieve';
export * from './retrieve-options';

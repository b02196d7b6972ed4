/**
 * A tree around hand-made or generated nodes, for tests and benches: format v1, extractive summaries, the
 * paper's build parameters, no documents. Only the title, the model's name and the date vary between callers.
 */
import { DEFAULT_BUILD_PARAMS, type RaptorTree, type TreeNode } from '../../src/core/types';

/** What a caller may name; the embedding's dimension is read from the first node. */
export interface TreeOfOptions {
  title?: string;
  model?: string;
  createdAt?: string;
}

/** The tree holding `nodes` (its embedding dimension is the first node's vector length; 0 when empty). */
export function treeOf(nodes: TreeNode[], options: TreeOfOptions = {}): RaptorTree {
  return {
    format: 'raptor-tree',
    version: 1,
    title: options.title ?? 'hand-made',
    createdAt: options.createdAt ?? '2024-01-01T00:00:00Z',
    embedding: { model: options.model ?? 'test', dim: nodes[0]?.embedding.length ?? 0 },
    summarizer: { kind: 'extractive' },
    params: { ...DEFAULT_BUILD_PARAMS },
    documents: [],
    nodes,
  };
}

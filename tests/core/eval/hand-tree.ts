/** Small trees worked by hand for the evaluation's unit tests: nodes with chosen texts, layers and embeddings. */
import { DEFAULT_BUILD_PARAMS, type RaptorTree, type TreeNode } from '../../../src/core/types';

/** One node: its layer, text, embedding and (summaries) children; ids are the positions in the list. */
export type HandNode = [layer: number, text: string, embedding: number[], children?: number[]];

/** A tree of `nodes` (embedding length from the first node); stored token counts are left 0 (retrieval counts). */
export function handTree(nodes: readonly HandNode[], title = 'hand'): RaptorTree {
  return {
    format: 'raptor-tree',
    version: 1,
    title,
    createdAt: '2026-01-01T00:00:00.000Z',
    embedding: { model: 'hand', dim: nodes[0][2].length },
    summarizer: { kind: 'extractive' },
    params: { ...DEFAULT_BUILD_PARAMS },
    documents: [{ id: 'd', name: 'd', chars: 0 }],
    nodes: nodes.map(([layer, text, embedding, children = []], id): TreeNode => ({
      id,
      layer,
      text,
      tokens: 0,
      children,
      embedding: Float32Array.from(embedding),
    })),
  };
}

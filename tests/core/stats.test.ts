import { describe, expect, it } from 'vitest';
import { treeStats } from '../../src/core/stats';
import type { TreeNode } from '../../src/core/types';

function node(id: number, layer: number, tokens: number, children: number[] = []): TreeNode {
  return { id, layer, text: `n${id}`, tokens, children, embedding: new Float32Array(1) };
}

describe('treeStats (Appendix C)', () => {
  it('computes per-layer counts, lengths, fan-out and compression on a hand-made tree', () => {
    // Leaves of 100, 80, 60 and 40 tokens; summary 4 covers 0,1 (50 tokens), 5 covers 1,2,3 (30 tokens);
    // the root 6 covers both summaries (20 tokens).
    const nodes = [
      node(0, 0, 100),
      node(1, 0, 80),
      node(2, 0, 60),
      node(3, 0, 40),
      node(4, 1, 50, [0, 1]),
      node(5, 1, 30, [1, 2, 3]),
      node(6, 2, 20, [4, 5]),
    ];
    const s = treeStats({ nodes });
    expect(s.nodesPerLayer).toEqual([4, 2, 1]);
    expect(s.summaryLayers).toBe(2);
    expect(s.leafTokens).toBe(280);
    expect(s.avgSummaryTokens).toBeCloseTo((50 + 30 + 20) / 3, 12);
    // Links: 4→0,1 (180), 5→1,2,3 (180), 6→4,5 (80): 7 links, 440 tokens.
    expect(s.avgChildTokens).toBeCloseTo(440 / 7, 12);
    expect(s.avgChildrenPerParent).toBeCloseTo(7 / 3, 12);
    expect(s.avgCompressionRatio).toBeCloseTo((50 / 180 + 30 / 180 + 20 / 80) / 3, 12);
  });

  it('reports zeros for a leaves-only tree', () => {
    const s = treeStats({ nodes: [node(0, 0, 10), node(1, 0, 5)] });
    expect(s).toMatchObject({
      nodesPerLayer: [2],
      summaryLayers: 0,
      leafTokens: 15,
      avgSummaryTokens: 0,
      avgCompressionRatio: 0,
    });
  });

  it('counts an empty layer as 0 and leaves out the ratio of a summary whose children have no tokens', () => {
    // A summary over two empty leaves (0 tokens): its ratio would be 10 / 0; it adds 0 to the average instead.
    const nodes = [node(0, 0, 0), node(1, 0, 0), node(2, 2, 10, [0, 1]), node(3, 2, 30, [0])];
    const s = treeStats({ nodes });
    expect(s.nodesPerLayer).toEqual([2, 0, 2]);
    expect(s.summaryLayers).toBe(2);
    expect(s.avgCompressionRatio).toBe(0);
    expect(s.avgChildTokens).toBe(0);
    expect(s.avgChildrenPerParent).toBe(1.5);
    expect(s.avgSummaryTokens).toBe(20);
  });

  it('reports zeros and no layers for an empty tree', () => {
    expect(treeStats({ nodes: [] })).toMatchObject({
      nodesPerLayer: [],
      summaryLayers: 0,
      leafTokens: 0,
      avgSummaryTokens: 0,
      avgChildTokens: 0,
      avgChildrenPerParent: 0,
      avgCompressionRatio: 0,
    });
  });
});

/**
 * treeStats per layer (Table 10 of the paper, layer by layer) and the paper's rows, read from the paper's own
 * text (tests/fixtures/raptor-paper.txt).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PAPER_TABLE_10, treeStats } from '../../src/core/stats';
import type { TreeNode } from '../../src/core/types';

function node(id: number, layer: number, tokens: number, children: number[] = []): TreeNode {
  return { id, layer, text: `n${id}`, tokens, children, embedding: new Float32Array(1) };
}

describe('treeStats by layer (Table 10 per layer)', () => {
  // Leaves 0–5 (tokens 100, 80, 60, 40, 20, 10); layer 1: 6 covers 0,1,2 (30 tokens), 7 covers 2,3,4,5
  // (20 tokens); layer 2: 8 covers 6,7 (10 tokens).
  const nodes = [
    node(0, 0, 100),
    node(1, 0, 80),
    node(2, 0, 60),
    node(3, 0, 40),
    node(4, 0, 20),
    node(5, 0, 10),
    node(6, 1, 30, [0, 1, 2]),
    node(7, 1, 20, [2, 3, 4, 5]),
    node(8, 2, 10, [6, 7]),
  ];
  const s = treeStats({ nodes });

  it('gives each summary layer its own four figures', () => {
    expect(s.byLayer.map((l) => l.layer)).toEqual([1, 2]);
    const [one, two] = s.byLayer;
    expect(one.parents).toBe(2);
    expect(one.avgSummaryTokens).toBeCloseTo(25, 12);
    // Links 6→0,1,2 (240 tokens) and 7→2,3,4,5 (130): leaf 2 counts twice.
    expect(one.avgChildTokens).toBeCloseTo(370 / 7, 12);
    expect(one.avgChildrenPerParent).toBeCloseTo(3.5, 12);
    expect(one.avgCompressionRatio).toBeCloseTo((30 / 240 + 20 / 130) / 2, 12);
    expect(two).toMatchObject({
      parents: 1,
      avgSummaryTokens: 10,
      avgChildTokens: 25,
      avgChildrenPerParent: 2,
    });
    expect(two.avgCompressionRatio).toBeCloseTo(10 / 50, 12);
  });

  it('the whole tree pools every summary: parents and links add up over the layers', () => {
    expect(s.parents).toBe(3);
    expect(s.avgChildrenPerParent).toBeCloseTo(9 / 3, 12);
    expect(s.avgSummaryTokens).toBeCloseTo(60 / 3, 12);
    expect(s.avgChildTokens).toBeCloseTo((370 + 50) / 9, 12);
    expect(s.avgCompressionRatio).toBeCloseTo((30 / 240 + 20 / 130 + 10 / 50) / 3, 12);
    const links = s.byLayer.reduce((sum, l) => sum + l.parents * l.avgChildrenPerParent, 0);
    expect(links).toBeCloseTo(s.parents * s.avgChildrenPerParent, 12);
  });

  it('a leaves-only tree has no summary layers and zero figures', () => {
    const leaves = treeStats({ nodes: [node(0, 0, 10)] });
    expect(leaves.byLayer).toEqual([]);
    expect(leaves).toMatchObject({ parents: 0, avgChildrenPerParent: 0, avgCompressionRatio: 0 });
  });
});

describe('PAPER_TABLE_10 is the paper’s Table 10', () => {
  it('matches the rows printed in the paper (tests/fixtures/raptor-paper.txt)', () => {
    const paper = readFileSync(new URL('../fixtures/raptor-paper.txt', import.meta.url), 'utf8');
    const table = paper.slice(paper.indexOf('Table 10:'), paper.indexOf('D SUMMARIZATION PROMPT'));
    for (const row of PAPER_TABLE_10) {
      const line = table.split('\n').find((l) => l.startsWith(`${row.dataset}\t`));
      expect(line, row.dataset).toBeDefined();
      const [summary, child, children, ratio] = line!.split('\t').slice(1).map(Number);
      expect([summary, child, children, ratio]).toEqual([
        row.avgSummaryTokens,
        row.avgChildTokens,
        row.avgChildrenPerParent,
        row.avgCompressionRatio,
      ]);
    }
  });

  it('its compression ratio is a mean of ratios: the means alone would give less', () => {
    const all = PAPER_TABLE_10[0];
    const ratioOfMeans = all.avgSummaryTokens / (all.avgChildrenPerParent * all.avgChildTokens);
    expect(ratioOfMeans).toBeLessThan(all.avgCompressionRatio - 0.04);
  });
});

/**
 * What an evaluation's answering model reads (src/core/eval/context-passages.ts): the context as retrieved —
 * in reading order, the sentences that entered, where each sits — not the nodes whole in the order chosen.
 */
import { describe, expect, it } from 'vitest';
import { contextPassages } from '../../../src/core/eval/context-passages';
import { evaluateRetrieval } from '../../../src/core/eval';
import { countTokens } from '../../../src/core/text';
import type { RaptorTree, TreeNode } from '../../../src/core/types';
import { treeOf } from '../../support/tree-of';

const LEAVES = [
  'Chapter 1\n\nAnne walked by the sea at Lyme. The wind was cold.',
  'Chapter 2\n\nCaptain Wentworth spoke of the navy. The dinner was long.',
];

function book(): RaptorTree {
  let start = 0;
  const nodes: TreeNode[] = LEAVES.map((text, id) => {
    const source = { doc: 'p', start, end: start + text.length };
    start += text.length + 2;
    return {
      id,
      layer: 0,
      text,
      tokens: countTokens(text),
      children: [],
      embedding: Float32Array.of(1, 0),
      source,
    };
  });
  return { ...treeOf(nodes), documents: [{ id: 'p', name: 'Persuasion', chars: start }] };
}

describe('contextPassages', () => {
  it('gives the answering model the context as retrieved: in the book’s order, excerpts, with their places', async () => {
    const tree = book();
    const report = await evaluateRetrieval(
      tree,
      [{ question: 'What did Captain Wentworth say of the navy, and Anne?' }],
      {
        embedQuery: async (texts) => texts.map(() => Float32Array.of(1, 0)),
        variants: [{ mode: 'leaves' }],
        maxTokens: 28,
      },
    );
    const result = report.perQuestion[0].modes.leaves;
    // Chosen first: the Wentworth leaf (three question words), whole; then Anne's sentence of the Lyme leaf, which
    // is read first, being earlier in the book.
    expect(result.nodes).toEqual([1, 0]);
    expect(result.read?.map((r) => r.id)).toEqual([0, 1]);
    expect(contextPassages(tree, result)).toEqual([
      '(Chapter 1 · 0%) Anne walked by the sea at Lyme.',
      `(Chapter 2 · 47%) ${LEAVES[1]}`,
    ]);
    // Without a reading order (e.g. a report of an earlier version), the nodes whole as chosen.
    expect(contextPassages(tree, { nodes: [1] })).toEqual([`(Chapter 2 · 47%) ${LEAVES[1]}`]);
  });
});

/**
 * Where a node sits (src/core/search/places.ts) and the reading order of a context (reading-order.ts), on a
 * two-chapter document: a leaf's section and share of the document, a summary's stretch, several documents,
 * and nodes whose leaves have no source.
 */
import { describe, expect, it } from 'vitest';
import { placeOfNode, placeText } from '../../../src/core/search/places';
import { inReadingOrder } from '../../../src/core/search/reading-order';
import type { RaptorTree, TreeNode } from '../../../src/core/types';
import { treeOf } from '../../support/tree-of';

const TEXTS = [
  'Chapter 1\n\nAnne was at home.',
  'She walked out.',
  'Chapter 2\n\nBath was loud.',
  'The end came.',
];

/** Leaves 0–3 of "book" (100 characters), summaries 4 {0, 1}, 5 {2, 3}, root 6 {4, 5}; leaf 7 without a source. */
function tree(): RaptorTree {
  const starts = [0, 30, 50, 80];
  const nodes: TreeNode[] = TEXTS.map((text, id) => ({
    id,
    layer: 0,
    text,
    tokens: 1,
    children: [],
    embedding: Float32Array.of(1, 0),
    source: { doc: 'book', start: starts[id], end: starts[id] + text.length },
  }));
  const summary = (id: number, layer: number, children: number[]): TreeNode => ({
    id,
    layer,
    text: 's',
    tokens: 1,
    children,
    embedding: Float32Array.of(1, 0),
  });
  nodes.push(summary(4, 1, [0, 1]), summary(5, 1, [2, 3]), summary(6, 2, [4, 5]));
  nodes.push({ ...nodes[0], id: 7, source: undefined });
  return { ...treeOf(nodes), documents: [{ id: 'book', name: 'Book', chars: 100 }] };
}

describe('placeOfNode', () => {
  it('gives a leaf its section and its share of the document', () => {
    const t = tree();
    expect(placeText(placeOfNode(t, 1)!, false)).toBe('Chapter 1 · 30%');
    expect(placeText(placeOfNode(t, 3)!, false)).toBe('Chapter 2 · 80%');
    // A leaf that opens with its heading belongs to that chapter.
    expect(placeOfNode(t, 2)).toMatchObject({ section: 'Chapter 2', from: 0.5 });
  });

  it('gives a summary the stretch of its leaves, from section to section', () => {
    const t = tree();
    expect(placeText(placeOfNode(t, 6)!, false)).toBe('Chapter 1 – Chapter 2 · 0–93%');
    expect(placeText(placeOfNode(t, 5)!, true)).toBe('Book · Chapter 2 · 50–93%');
  });

  it('has no place for a node whose leaves have no source', () => {
    expect(placeOfNode(tree(), 7)).toBeUndefined();
  });
});

describe('inReadingOrder', () => {
  it('sorts by document and offset, a summary where its first leaf is, unplaced nodes last in their order', () => {
    const t = tree();
    const items = [3, 7, 5, 0, 4].map((id) => ({ id }));
    expect(inReadingOrder(t, items).map((i) => i.id)).toEqual([0, 4, 5, 3, 7]);
  });
});

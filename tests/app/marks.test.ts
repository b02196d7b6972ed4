/** Marks beside a node's own selection (src/app/tree/marks.ts), Find and the order of "Next selected". */
import { describe, expect, it } from 'vitest';
import { buildHierarchy, type HierarchyNode } from '../../src/app/tree/hierarchy';
import {
  cycle,
  findNodes,
  fold,
  searchText,
  selectedOrder,
  subtreeCounts,
  sumUp,
} from '../../src/app/tree/marks';
import { indexSelections } from '../../src/app/tree/selection';

const v = (x: number) => Float32Array.of(1, x);
const NODES: HierarchyNode[] = [
  { id: 0, layer: 0, children: [], embedding: v(0) },
  { id: 1, layer: 0, children: [], embedding: v(0.1) },
  { id: 2, layer: 0, children: [], embedding: v(0.9) },
  { id: 3, layer: 1, children: [0, 1], embedding: v(0.05) },
  { id: 4, layer: 1, children: [1, 2], embedding: v(0.9) },
  { id: 5, layer: 2, children: [3, 4], embedding: v(0.5) },
];
const h = buildHierarchy(NODES);

describe('subtree counts', () => {
  it('counts each mode’s picks in every primary subtree, the node itself included', () => {
    expect(Array.from(sumUp(h, [0, 2]))).toEqual([1, 0, 1, 1, 1, 2]);
    const selection = indexSelections(
      {
        collapsed: [
          { id: 1, layer: 0, score: 0.9 },
          { id: 4, layer: 1, score: 0.8 },
        ],
        leaves: [{ id: 2, layer: 0, score: 0.7 }],
      },
      NODES.length,
    );
    const counts = subtreeCounts(h, selection);
    // Leaf 1 hangs under 3 (its nearer parent), so 4's subtree holds 4 and 2.
    expect(Array.from(counts.collapsed!)).toEqual([0, 1, 0, 1, 1, 2]);
    expect(Array.from(counts.leaves!)).toEqual([0, 0, 1, 0, 1, 1]);
    expect(counts.traversal).toBeUndefined();
  });
});

describe('Find', () => {
  const texts = [
    { text: 'Élizabeth walked to Pemberley.' },
    { text: 'A letter from Jane.' },
    { text: 'Nothing here.' },
    { text: 'summary', label: ['Elizabeth', 'walk'] },
    { text: 'summary', label: ['Jane'], title: 'Letters' },
    { text: 'root' },
  ].map(searchText);
  it('matches labels, titles and text, case and accents folded, top layer first then left to right', () => {
    expect(findNodes(h, texts, 'elizabeth')).toEqual([3, 0]);
    expect(findNodes(h, texts, 'LETTER')).toEqual([4, 1]);
    expect(findNodes(h, texts, ' walk ')).toEqual([3, 0]);
    expect(findNodes(h, texts, 'z')).toEqual([]);
    expect(fold('Émile Zola')).toBe('emile zola');
  });
});

describe('Next selected', () => {
  it('visits each selected node once, by its best rank, modes in order, then id', () => {
    const selection = indexSelections(
      {
        collapsed: [
          { id: 4, layer: 1, score: 0.9 },
          { id: 1, layer: 0, score: 0.8 },
        ],
        traversal: [
          { id: 5, layer: 2, score: 0.9 },
          { id: 4, layer: 1, score: 0.9 },
        ],
        leaves: [{ id: 1, layer: 0, score: 0.9 }],
      },
      NODES.length,
    );
    // 4 is collapsed #1, 5 traversal #1, 1 leaves #1 (and collapsed #2): all rank 1, modes in order.
    expect(selectedOrder(selection)).toEqual([4, 5, 1]);
  });

  it('cycles forwards and backwards', () => {
    expect(cycle(-1, 3)).toBe(0);
    expect(cycle(-1, 3, true)).toBe(2);
    expect(cycle(2, 3)).toBe(0);
    expect(cycle(0, 3, true)).toBe(2);
    expect(cycle(0, 0)).toBe(-1);
  });
});

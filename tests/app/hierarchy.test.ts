/**
 * The hierarchy the icicle and outline draw (src/app/tree/hierarchy.ts): one primary parent per node (the most
 * similar summary), spans that partition the leaf row, children in document order.
 */
import { describe, expect, it } from 'vitest';
import {
  ancestorsOf,
  buildHierarchy,
  hierarchyOf,
  kidsOf,
  ROOT,
  type HierarchyNode,
} from '../../src/app/tree/hierarchy';

const v = (...xs: number[]) => Float32Array.from(xs);

//            7 (root layer)
//        5       6
//    0 1 2     3 4        leaf 2 belongs to 5 and 6 (soft clustering); it is nearer 6
const NODES: HierarchyNode[] = [
  { id: 0, layer: 0, children: [], embedding: v(1, 0) },
  { id: 1, layer: 0, children: [], embedding: v(1, 0.1) },
  { id: 2, layer: 0, children: [], embedding: v(0.1, 1) },
  { id: 3, layer: 0, children: [], embedding: v(0, 1) },
  { id: 4, layer: 0, children: [], embedding: v(0.2, 1) },
  { id: 5, layer: 1, children: [0, 1, 2], embedding: v(1, 0.05) },
  { id: 6, layer: 1, children: [2, 3, 4], embedding: v(0.1, 1) },
  { id: 7, layer: 2, children: [5, 6], embedding: v(1, 1) },
];

describe('buildHierarchy', () => {
  it('hangs each node under its most similar parent', () => {
    const h = buildHierarchy(NODES);
    expect(Array.from(h.primaryParent)).toEqual([5, 5, 6, 6, 6, 7, 7, ROOT]);
    expect(ancestorsOf(h, 3)).toEqual([6, 7]);
    expect(Array.from(kidsOf(h, ROOT))).toEqual([7]);
  });

  it('gives every node a span of its primary leaves, side by side in document order, partitioning the row', () => {
    const h = buildHierarchy(NODES);
    expect(h.leafCount).toBe(5);
    expect(Array.from(h.span)).toEqual([1, 1, 1, 1, 1, 2, 3, 5]);
    expect(Array.from(h.start)).toEqual([0, 1, 2, 3, 4, 0, 2, 0]);
    expect(Array.from(h.kids[6])).toEqual([2, 3, 4]);
    expect(h.rows.map((r) => Array.from(r))).toEqual([[0, 1, 2, 3, 4], [5, 6], [7]]);
    expect(Array.from(h.descendants)).toEqual([1, 1, 1, 1, 1, 3, 4, 8]);
    // Each row's spans tile the leaves exactly (a partition).
    for (const row of h.rows) {
      let at = 0;
      for (const id of row) {
        expect(h.start[id]).toBe(at);
        at += h.span[id];
      }
      expect(at).toBe(h.leafCount);
    }
  });

  it('orders children by their first leaf, not by id', () => {
    const nodes: HierarchyNode[] = [
      ...[0, 1, 2, 3].map((id) => ({ id, layer: 0, children: [], embedding: v(1, id) })),
      { id: 4, layer: 1, children: [2, 3], embedding: v(1, 2.5) },
      { id: 5, layer: 1, children: [0, 1], embedding: v(1, 0.5) },
      { id: 6, layer: 2, children: [4, 5], embedding: v(1, 1) },
    ];
    const h = buildHierarchy(nodes);
    expect(Array.from(h.kids[6])).toEqual([5, 4]);
    expect(h.start[5]).toBe(0);
    expect(h.start[4]).toBe(2);
  });

  it('gives a parent whose children all prefer other parents one of them back, when that leaves them one', () => {
    // 4's children 0 and 1 are both nearer 3; 3 keeps 2, so 4 takes back its nearest, 1.
    const nodes: HierarchyNode[] = [
      { id: 0, layer: 0, children: [], embedding: v(1, 0) },
      { id: 1, layer: 0, children: [], embedding: v(1, 0.4) },
      { id: 2, layer: 0, children: [], embedding: v(1, 0.1) },
      { id: 3, layer: 1, children: [0, 1, 2], embedding: v(1, 0) },
      { id: 4, layer: 1, children: [0, 1], embedding: v(0, 1) },
      { id: 5, layer: 2, children: [3, 4], embedding: v(1, 1) },
    ];
    const h = buildHierarchy(nodes);
    expect(h.primaryParent[1]).toBe(4);
    expect(h.span[4]).toBe(1);
    expect(h.span[3]).toBe(2);
  });

  it('hangs nodes without parents from the root, and is shared per nodes array', () => {
    const nodes: HierarchyNode[] = [
      { id: 0, layer: 0, children: [], embedding: v(1) },
      { id: 1, layer: 0, children: [], embedding: v(1) },
      { id: 2, layer: 1, children: [0], embedding: v(1) },
    ];
    const h = hierarchyOf(nodes);
    expect(Array.from(h.rootKids)).toEqual([2, 1]);
    expect(h.leafCount).toBe(2);
    expect(hierarchyOf(nodes)).toBe(h);
  });
});

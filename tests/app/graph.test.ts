import { describe, expect, it } from 'vitest';
import { buildParentIndex, parentsOf } from '../../src/app/tree/graph';
import type { TreeNode } from '../../src/core/types';

type LayoutNode = Pick<TreeNode, 'id' | 'layer' | 'children'>;

//        9
//    6   7   8
//  0 1 2 3 4 5      (7 has children 2 and 3; 3 also belongs to 8: two parents)
const NODES: LayoutNode[] = [
  { id: 0, layer: 0, children: [] },
  { id: 1, layer: 0, children: [] },
  { id: 2, layer: 0, children: [] },
  { id: 3, layer: 0, children: [] },
  { id: 4, layer: 0, children: [] },
  { id: 5, layer: 0, children: [] },
  { id: 6, layer: 1, children: [0, 1] },
  { id: 7, layer: 1, children: [2, 3] },
  { id: 8, layer: 1, children: [3, 4, 5] },
  { id: 9, layer: 2, children: [6, 7, 8] },
];
const parents = buildParentIndex(NODES);

describe('buildParentIndex', () => {
  it('lists every parent of a node, ascending, including soft-clustering second parents', () => {
    expect(Array.from(parentsOf(parents, 3))).toEqual([7, 8]);
    expect(Array.from(parentsOf(parents, 0))).toEqual([6]);
    expect(Array.from(parentsOf(parents, 9))).toEqual([]);
  });

  it('ignores children out of range', () => {
    const index = buildParentIndex([
      { id: 0, children: [] },
      { id: 1, children: [0, 7, -1] },
    ]);
    expect(Array.from(parentsOf(index, 0))).toEqual([1]);
    expect(index.ids.length).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import {
  buildParentIndex,
  moveFocus,
  nearestInRow,
  parentsOf,
  rowRange,
  type TreeMove,
} from '../../src/app/tree/graph';
import { layoutTree, type LayoutNode } from '../../src/app/tree/layout';

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
const layout = layoutTree(NODES);
const parents = buildParentIndex(NODES);
const move = (id: number, m: TreeMove) => moveFocus(layout, NODES, parents, id, m);

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

describe('moveFocus', () => {
  it('moves left and right within a row and stops at its ends', () => {
    expect(move(1, 'right')).toBe(2);
    expect(move(1, 'left')).toBe(0);
    expect(move(0, 'left')).toBe(0);
    expect(move(5, 'right')).toBe(5);
    expect(move(7, 'first')).toBe(6);
    expect(move(7, 'last')).toBe(8);
  });

  it('goes up to the parent nearest in x, and down to the child nearest in x', () => {
    // Leaves are 36 apart: leaf 3 is at 108, its parents 7 at 90 (over 2–3) and 8 at 144 (over 3–5).
    expect([layout.x[3], layout.x[7], layout.x[8]]).toEqual([108, 90, 144]);
    expect(move(3, 'up')).toBe(7);
    expect(move(4, 'up')).toBe(8);
    expect(move(9, 'down')).toBe(7);
    expect(move(8, 'down')).toBe(4);
  });

  it('stays put where there is nowhere to go', () => {
    expect(move(9, 'up')).toBe(9);
    expect(move(0, 'down')).toBe(0);
  });

  it('goes up from a node without parents to the nearest node of the row above', () => {
    const nodes: LayoutNode[] = [
      { id: 0, layer: 0, children: [] },
      { id: 1, layer: 0, children: [] },
      { id: 2, layer: 0, children: [] },
      { id: 3, layer: 1, children: [0] },
    ];
    const l = layoutTree(nodes);
    expect(moveFocus(l, nodes, buildParentIndex(nodes), 2, 'up')).toBe(3);
  });
});

describe('nearestInRow and rowRange', () => {
  it('finds the node of a row nearest to an x', () => {
    expect(nearestInRow(layout, 0, layout.x[4] + 1)).toBe(4);
    expect(nearestInRow(layout, 0, -1000)).toBe(0);
    expect(nearestInRow(layout, 0, 1e9)).toBe(5);
    expect(nearestInRow(layout, 7, 0)).toBeUndefined();
  });

  it('gives the positions of the nodes inside an x range, ends included', () => {
    expect(rowRange(layout, 0, layout.x[1], layout.x[3])).toEqual([1, 4]);
    expect(rowRange(layout, 0, layout.x[1] + 0.5, layout.x[3] - 0.5)).toEqual([2, 3]);
    expect(rowRange(layout, 0, 1e9, 2e9)).toEqual([6, 6]);
    expect(rowRange(layout, 2, -1e9, 1e9)).toEqual([0, 1]);
    expect(rowRange(layout, 5, 0, 1)).toEqual([0, 0]);
  });
});

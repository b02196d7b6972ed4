/** The outline's model (src/app/tree/outline.ts): visible items and the WAI-ARIA tree pattern's keys. */
import { describe, expect, it } from 'vitest';
import { buildHierarchy, ROOT, type HierarchyNode } from '../../src/app/tree/hierarchy';
import { expandTo, outlineKey, outlineName, summaryName, visibleRows } from '../../src/app/tree/outline';

const v = (x: number) => Float32Array.of(1, x);
//        6
//    4       5
//  0   1   2   3
const NODES: HierarchyNode[] = [
  { id: 0, layer: 0, children: [], embedding: v(0) },
  { id: 1, layer: 0, children: [], embedding: v(0.1) },
  { id: 2, layer: 0, children: [], embedding: v(0.2) },
  { id: 3, layer: 0, children: [], embedding: v(0.3) },
  { id: 4, layer: 1, children: [0, 1], embedding: v(0.05) },
  { id: 5, layer: 1, children: [2, 3], embedding: v(0.25) },
  { id: 6, layer: 2, children: [4, 5], embedding: v(0.15) },
];
const h = buildHierarchy(NODES);

describe('visibleRows and expandTo', () => {
  it('shows the top closed, then each open branch depth first with its level and position', () => {
    expect(visibleRows(h, new Set())).toEqual([{ id: 6, level: 1, position: 1, siblings: 1, parent: ROOT }]);
    const open = expandTo(h, new Set(), 2);
    expect([...open].sort()).toEqual([5, 6]);
    expect(visibleRows(h, open).map((r) => [r.id, r.level, r.position, r.siblings])).toEqual([
      [6, 1, 1, 1],
      [4, 2, 1, 2],
      [5, 2, 2, 2],
      [2, 3, 1, 2],
      [3, 3, 2, 2],
    ]);
    expect(expandTo(h, open, 3)).toBe(open);
  });
});

describe('outlineKey (WAI-ARIA tree view pattern)', () => {
  const open = new Set([6]);
  const rows = visibleRows(h, open);
  it.each([
    [6, 'ArrowDown', { kind: 'focus', id: 4 }],
    [5, 'ArrowDown', { kind: 'focus', id: 5 }],
    [4, 'ArrowUp', { kind: 'focus', id: 6 }],
    [4, 'ArrowRight', { kind: 'expand', id: 4 }],
    [6, 'ArrowRight', { kind: 'focus', id: 4 }],
    [6, 'ArrowLeft', { kind: 'collapse', id: 6 }],
    [5, 'ArrowLeft', { kind: 'focus', id: 6 }],
    [5, 'Home', { kind: 'focus', id: 6 }],
    [6, 'End', { kind: 'focus', id: 5 }],
    [4, 'Enter', { kind: 'open', id: 4 }],
    [4, '*', { kind: 'expand-siblings', ids: [4, 5] }],
    [4, 'x', undefined],
  ])('on node %i, %s', (focused, key, action) => {
    expect(outlineKey(h, rows, open, focused, key)).toEqual(action);
  });

  it('goes nowhere right of a leaf or left of the top', () => {
    const all = new Set([6, 4, 5]);
    const rowsAll = visibleRows(h, all);
    expect(outlineKey(h, rowsAll, all, 0, 'ArrowRight')).toBeUndefined();
    expect(outlineKey(h, rowsAll, all, 0, 'ArrowLeft')).toEqual({ kind: 'focus', id: 4 });
    expect(outlineKey(h, rowsAll, new Set(), 6, 'ArrowLeft')).toBeUndefined();
  });
});

describe('outlineName', () => {
  it('names a summary by its title and label, its layer and its children; a leaf by its words', () => {
    expect(outlineName({ id: 4, layer: 1, text: 'x', label: ['Darcy', 'Pemberley'] }, 2)).toBe(
      'Darcy, Pemberley, layer 1, 2 children',
    );
    expect(outlineName({ id: 4, layer: 2, text: 'x', label: ['a'], title: 'The ball' }, 1)).toBe(
      'The ball (a), layer 2, 1 child',
    );
    expect(outlineName({ id: 9, layer: 0, text: 'It is a truth universally acknowledged.' }, 0)).toBe(
      'It is a truth universally acknowledged., leaf 9, layer 0',
    );
    expect(summaryName({ id: 3, label: [] })).toBe('Summary 3');
  });
});

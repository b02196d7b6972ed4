import { describe, expect, it } from 'vitest';
import { layoutTree, type LayoutNode } from '../../src/app/tree/layout';
import { dotsPath, edgesPath, pieSlicePath, polar, ringSegmentPath } from '../../src/app/tree/paths';

const NODES: LayoutNode[] = [
  { id: 0, layer: 0, children: [] },
  { id: 1, layer: 0, children: [] },
  { id: 2, layer: 1, children: [0, 1, 42] },
];
const layout = layoutTree(NODES);
const ROW_Y = [300, 100];

/** The numbers of a path string, in order. */
function numbers(d: string): number[] {
  return (d.match(/-?\d+(\.\d+)?/g) ?? []).map(Number);
}

describe('edgesPath', () => {
  it('draws one curve per in-range edge, centre to centre, with vertical tangents', () => {
    const d = edgesPath(NODES, layout, ROW_Y);
    expect(d.match(/M/g)).toHaveLength(2);
    const [px, py, c1x, c1y, c2x, c2y, cx, cy] = numbers(d.split('M')[1]);
    expect([px, py]).toEqual([layout.x[2], 100]);
    expect([cx, cy]).toEqual([layout.x[0], 300]);
    expect(c1x).toBe(px);
    expect(c2x).toBe(cx);
    expect(c1y).toBe(200);
    expect(c2y).toBe(200);
  });

  it('keeps only the edges the filter accepts', () => {
    expect(edgesPath(NODES, layout, ROW_Y, (_p, c) => c === 1).match(/M/g)).toHaveLength(1);
    expect(edgesPath(NODES, layout, ROW_Y, () => false)).toBe('');
  });
});

describe('ring and pie geometry', () => {
  it('puts angles clockwise from 12 o’clock', () => {
    const [x0, y0] = polar(10, 0);
    const [x1, y1] = polar(10, 90);
    expect(x0).toBeCloseTo(0, 12);
    expect(y0).toBeCloseTo(-10, 12);
    expect(x1).toBeCloseTo(10, 12);
    expect(y1).toBeCloseTo(0, 12);
  });

  it('draws a full circle for one segment and arcs of the ring’s radius otherwise', () => {
    expect(ringSegmentPath(10, 0, 1)).toContain('A10.0 10.0');
    const arc = numbers(ringSegmentPath(10, 1, 3));
    // M x0 y0 A r r 0 large sweep x1 y1: both ends lie on the circle.
    expect(Math.hypot(arc[0], arc[1])).toBeCloseTo(10, 1);
    expect(Math.hypot(arc[7], arc[8])).toBeCloseTo(10, 1);
    // The second of three segments runs from about 4 o'clock (right, below the centre) to 8 o'clock.
    expect(arc[0]).toBeGreaterThan(0);
    expect(arc[1]).toBeGreaterThan(0);
    expect(arc[7]).toBeLessThan(0);
  });

  it('draws pie slices from the centre', () => {
    expect(pieSlicePath(8, 0, 2).startsWith('M0 0L')).toBe(true);
    expect(pieSlicePath(8, 0, 1)).toBe(ringSegmentPath(8, 0, 1));
  });
});

describe('dotsPath', () => {
  it('puts one zero-length segment at each node’s x', () => {
    expect(dotsPath([1, 0], Float64Array.of(5, 41.25))).toBe('M41.3 0h0M5.0 0h0');
    expect(dotsPath([], Float64Array.of())).toBe('');
  });
});

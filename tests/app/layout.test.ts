import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/core/random';
import {
  layoutTree,
  NODE_PADDING,
  radiusOfLayer,
  spreadRow,
  TreeLayoutError,
  type LayoutNode,
} from '../../src/app/tree/layout';

/** A RAPTOR-shaped DAG: `leaves` leaves, then layers of runs of 2–6 nodes, some nodes with two parents. */
function randomTree(seed: number, leaves: number): LayoutNode[] {
  const random = seededRandom(seed);
  const nodes: LayoutNode[] = Array.from({ length: leaves }, (_, id) => ({ id, layer: 0, children: [] }));
  let previous = nodes.map((n) => n.id);
  for (let layer = 1; previous.length > 3; layer++) {
    const current: number[] = [];
    for (let from = 0; from < previous.length;) {
      const size = 2 + Math.floor(random() * 5);
      const children = previous.slice(from, from + size);
      from += size;
      if (from < previous.length && random() < 0.2) children.push(previous[from]);
      // Clusters are not contiguous in real trees: now and then take a far-away member too.
      if (random() < 0.1) children.push(previous[Math.floor(random() * previous.length)]);
      const id = nodes.length;
      nodes.push({ id, layer, children: [...new Set(children)] });
      current.push(id);
    }
    previous = current;
  }
  return nodes;
}

function gapOf(layer: number): number {
  return 2 * radiusOfLayer(layer) + NODE_PADDING;
}

describe('spreadRow', () => {
  it('keeps positions that are already far enough apart', () => {
    expect(Array.from(spreadRow([0, 50, 200], 30))).toEqual([0, 50, 200]);
  });

  it('spreads a crowded group symmetrically around its mean (least squares)', () => {
    const out = spreadRow([100, 100, 100], 30);
    expect(Array.from(out)).toEqual([70, 100, 130]);
  });

  it('moves only the crowded part and keeps the minimum gap everywhere', () => {
    const out = spreadRow([0, 10, 12, 300], 20);
    for (let i = 1; i < out.length; i++) expect(out[i] - out[i - 1]).toBeGreaterThanOrEqual(20 - 1e-9);
    expect(out[3]).toBe(300);
    // The mean of a merged block is preserved: (0 + 10 + 12) / 3 is the middle of three spaced nodes.
    expect(out[1]).toBeCloseTo(22 / 3, 9);
  });
});

describe('layoutTree', () => {
  it('puts leaves in id order, evenly spaced, and parents over the barycentre of their children', () => {
    const nodes: LayoutNode[] = [
      { id: 0, layer: 0, children: [] },
      { id: 1, layer: 0, children: [] },
      { id: 2, layer: 0, children: [] },
      { id: 3, layer: 0, children: [] },
      { id: 4, layer: 1, children: [0, 1] },
      { id: 5, layer: 1, children: [2, 3] },
      { id: 6, layer: 2, children: [4, 5] },
    ];
    const layout = layoutTree(nodes);
    const g = gapOf(0);
    expect(Array.from(layout.x.subarray(0, 4))).toEqual([0, g, 2 * g, 3 * g]);
    expect(layout.x[4]).toBe(g / 2);
    expect(layout.x[5]).toBe(2.5 * g);
    expect(layout.x[6]).toBe(1.5 * g);
    expect(layout.layerCount).toBe(3);
    expect(layout.rows.map((r) => Array.from(r))).toEqual([[0, 1, 2, 3], [4, 5], [6]]);
    expect(layout.column[5]).toBe(1);
    expect(layout.radius[6]).toBeGreaterThan(layout.radius[0]);
  });

  it('places a child with two parents once and lets both parents pull towards it', () => {
    const nodes: LayoutNode[] = [
      { id: 0, layer: 0, children: [] },
      { id: 1, layer: 0, children: [] },
      { id: 2, layer: 0, children: [] },
      { id: 3, layer: 1, children: [0, 1] },
      { id: 4, layer: 1, children: [1, 2] },
    ];
    const layout = layoutTree(nodes);
    const g = gapOf(0);
    expect(layout.x[3]).toBeLessThan(layout.x[4]);
    // Barycentres g/2 and 3g/2 are exactly one leaf gap apart, less than a layer-1 gap: spread around g.
    expect((layout.x[3] + layout.x[4]) / 2).toBeCloseTo(g, 9);
    expect(layout.x[4] - layout.x[3]).toBeCloseTo(gapOf(1), 9);
  });

  it('never overlaps two nodes of a row, and keeps every row sorted by x (random DAGs)', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const nodes = randomTree(seed, 60 + seed * 37);
      const layout = layoutTree(nodes);
      layout.rows.forEach((row, layer) => {
        for (let k = 1; k < row.length; k++) {
          expect(layout.x[row[k]] - layout.x[row[k - 1]]).toBeGreaterThanOrEqual(gapOf(layer) - 1e-9);
        }
        row.forEach((id, k) => expect(layout.column[id]).toBe(k));
      });
    }
  });

  it('is deterministic and independent of the order of the node array', () => {
    const nodes = randomTree(42, 300);
    const a = layoutTree(nodes);
    const shuffled = [...nodes];
    const random = seededRandom(7);
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
    }
    const b = layoutTree(shuffled);
    expect(Array.from(b.x)).toEqual(Array.from(a.x));
    expect(b.rows.map((r) => Array.from(r))).toEqual(a.rows.map((r) => Array.from(r)));
  });

  it('keeps each parent near its children on a 2,000-node tree (within a few gaps of the barycentre)', () => {
    const nodes = randomTree(9, 1650);
    expect(nodes.length).toBeGreaterThan(1900);
    const layout = layoutTree(nodes);
    let total = 0;
    let count = 0;
    for (const node of nodes) {
      if (node.layer === 0) continue;
      const mean = node.children.reduce((s, c) => s + layout.x[c], 0) / node.children.length;
      total += Math.abs(layout.x[node.id] - mean) / gapOf(node.layer);
      count++;
    }
    expect(total / count).toBeLessThan(1);
    expect(Number.isFinite(layout.bounds.minX) && Number.isFinite(layout.bounds.maxX)).toBe(true);
  });

  it('puts a summary without usable children at the right end of its row', () => {
    const nodes: LayoutNode[] = [
      { id: 0, layer: 0, children: [] },
      { id: 1, layer: 0, children: [] },
      { id: 2, layer: 1, children: [99] },
      { id: 3, layer: 1, children: [0] },
    ];
    const layout = layoutTree(nodes);
    expect(Array.from(layout.rows[1])).toEqual([3, 2]);
    expect(layout.x[2] - layout.x[3]).toBeGreaterThanOrEqual(gapOf(1));
  });

  it('reports bounds that include every circle', () => {
    const nodes = randomTree(3, 40);
    const layout = layoutTree(nodes);
    for (const node of nodes) {
      expect(layout.x[node.id] - layout.radius[node.id]).toBeGreaterThanOrEqual(layout.bounds.minX);
      expect(layout.x[node.id] + layout.radius[node.id]).toBeLessThanOrEqual(layout.bounds.maxX);
    }
  });

  it('lays out an empty tree as nothing', () => {
    const layout = layoutTree([]);
    expect(layout.layerCount).toBe(0);
    expect(layout.rows).toEqual([]);
    expect(layout.bounds).toEqual({ minX: 0, maxX: 0 });
  });

  it('rejects ids that are not 0 … n−1', () => {
    const nodes: LayoutNode[] = [
      { id: 0, layer: 0, children: [] },
      { id: 0, layer: 0, children: [] },
    ];
    expect(() => layoutTree(nodes)).toThrow(TreeLayoutError);
    expect(() => layoutTree([{ id: 5, layer: 0, children: [] }])).toThrow(
      expect.objectContaining({ code: 'INVALID_NODE_ID', details: { id: 5, nodes: 1 } }),
    );
  });
});

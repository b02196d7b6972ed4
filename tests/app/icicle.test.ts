/**
 * The icicle's geometry and frame plans (src/app/tree/icicle.ts): view arithmetic, and on a whole book — the
 * tree the app builds from Pride and Prejudice (2,143 nodes; tests/fixtures/books/*.tree-shape.json) — the
 * issue's test at Fit: nothing drawn overlaps, every summary drawn on its own is wide enough to show its
 * label or its count and every run its count, runs nest under the row above, and any leaf is opened in at
 * most four clicks. (The shape fixture holds no embeddings, so each node's first parent stands for its
 * primary parent.)
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildHierarchy, type Hierarchy, type HierarchyNode } from '../../src/app/tree/hierarchy';
import {
  CELL_MIN_PX,
  fitView,
  isDrawnAlone,
  itemAt,
  itemOf,
  layerAt,
  LABEL_MIN_PX,
  planFrame,
  revealView,
  rowsOf,
  RUN_MIN_PX,
  spanView,
  viewPath,
  type Frame,
  type Size,
  type View,
} from '../../src/app/tree/icicle';
import { targetTransform, viewOf } from '../../src/app/tree/view-transform';
import { syntheticTree } from '../support/synthetic-tree';

const shape = JSON.parse(
  readFileSync(new URL('../fixtures/books/pride-and-prejudice.tree-shape.json', import.meta.url), 'utf8'),
) as { leaves: number; summaries: { layer: number; children: number[] }[] };

function bookTree(): Hierarchy {
  const none = new Float32Array(0);
  const nodes: HierarchyNode[] = Array.from({ length: shape.leaves }, (_, id) => ({
    id,
    layer: 0,
    children: [],
    embedding: none,
  }));
  for (const s of shape.summaries) nodes.push({ id: nodes.length, ...s, embedding: none });
  return buildHierarchy(nodes);
}

/** The icicle's size in the app at 1440×900 (the centre column). */
const DESKTOP: Size = { width: 660, height: 440 };
/** …and at 390 px wide. */
const PHONE: Size = { width: 340, height: 440 };
/** Pixels a count of `n` needs at the canvas's 11 px font (digits are ~6.2 px), with a pixel each side. */
const countWidth = (n: number) => String(n).length * 6.2 + 2;

describe('view arithmetic', () => {
  it('fits the whole tree and spans a node', () => {
    expect(fitView({ leafCount: 100 })).toEqual({ x0: 0, x1: 100 });
    expect(spanView(10, 5)).toEqual({ x0: 10, x1: 15 });
  });

  it('gives the leaves a short row and every summary layer an equal share of the rest, top layer first', () => {
    const rows = rowsOf(4, 440);
    expect(rows.top[3]).toBe(0);
    expect(rows.height[1]).toBeCloseTo(rows.height[3], 9);
    expect(rows.height[0]).toBeLessThan(rows.height[1]);
    expect(rows.top[0] + rows.height[0]).toBeCloseTo(440, 9);
  });
});

function checkFrame(h: Hierarchy, frame: Frame) {
  const problems: string[] = [];
  for (let layer = 0; layer < h.layerCount; layer++) {
    const row = frame.items[layer];
    row.forEach((item, k) => {
      if (k > 0 && item.x < row[k - 1].x + row[k - 1].w - 1e-6)
        problems.push(`layer ${layer}: items overlap`);
      const what = item.id >= 0 ? `node ${item.id}` : `run of ${item.to - item.from}`;
      // Past the view's edges an item (or the item above that bounds it) is cut: only whole ones are judged.
      const above = frame.items[layer + 1] ?? [];
      const parent = above.find((a) => a.start - 1e-9 <= item.start && item.start < a.start + a.span);
      const cut = (x: number, w: number) => x < -1e-6 || x + w > frame.size.width + 1e-6;
      if (cut(item.x, item.w) || (parent !== undefined && cut(parent.x, parent.w))) return;
      if (item.id >= 0 && item.w < CELL_MIN_PX) problems.push(`${what} is ${item.w.toFixed(1)} px`);
      if (item.id >= 0 && layer > 0 && item.text === 'label' && item.w < LABEL_MIN_PX)
        problems.push(`${what} label`);
      if (item.id >= 0 && layer > 0 && item.text === 'count' && item.w < countWidth(h.kids[item.id].length)) {
        problems.push(`${what}: its count does not fit`);
      }
      if (item.id < 0 && item.w < Math.min(RUN_MIN_PX, countWidth(item.to - item.from))) {
        problems.push(`${what} in layer ${layer} is ${item.w.toFixed(1)} px: its count does not fit`);
      }
      // Nesting: every item lies within one item of the row above.
      if (parent !== undefined && item.start + item.span > parent.start + parent.span + 1e-9) {
        problems.push(`${what} in layer ${layer} crosses the edge of the item above`);
      }
    });
  }
  return problems;
}

/**
 * Clicks to open `leaf` from Fit, clicking what the user sees: the leaf's own cell when it is drawn alone,
 * otherwise the run that holds it in the leaf row (a click on a run zooms to it).
 */
/** Where a glide to `view` ends in the app: through d3-zoom's clamp (view-transform.ts). */
function zoomedTo(h: Hierarchy, view: View, size: Size): View {
  return viewOf(targetTransform(view, h.leafCount, size.width, size.height), h.leafCount, size.width);
}

/** `factor` times Fit, the point at `anchor` (0 … 1 across) kept where it is. */
function zoomedAbout(h: Hierarchy, factor: number, anchor: number, size: Size): View {
  const span = h.leafCount / factor;
  const x0 = anchor * h.leafCount - anchor * span;
  return zoomedTo(h, { x0, x1: x0 + span }, size);
}

function clicksToOpen(h: Hierarchy, leaf: number, size: Size): number {
  let view = fitView(h);
  for (let clicks = 1; clicks <= 10; clicks++) {
    const frame = planFrame(h, view, size);
    if (isDrawnAlone(frame, h, leaf)) return clicks;
    const item = itemOf(frame, h, leaf);
    if (item === undefined) throw new Error(`leaf ${leaf} is not drawn`);
    view = zoomedTo(h, spanView(item.start, item.span), size);
  }
  return Infinity;
}

describe('Pride and Prejudice at Fit (2,143 nodes, the issue’s test on a book twice its size)', () => {
  const h = bookTree();

  for (const [name, size] of [
    ['1440×900', DESKTOP],
    ['390 px', PHONE],
  ] as const) {
    it(`${name}: no overlap, every summary drawn alone shows its label or count, every run its count, runs nest`, () => {
      const frame = planFrame(h, fitView(h), size);
      expect(checkFrame(h, frame)).toEqual([]);
      // Every summary is somewhere: in a cell of its own or counted in a run.
      for (let layer = 1; layer < h.layerCount; layer++) {
        const covered = frame.items[layer].reduce((n, item) => n + item.to - item.from, 0);
        expect(covered).toBe(h.rows[layer].length);
      }
      // The top layer is drawn node by node, each with its label: across it on a desktop; at 390 px the book's
      // eight roots are ~40 px wide, so some show it up their side.
      for (const item of frame.items[h.layerCount - 1]) {
        expect(item.id).toBeGreaterThanOrEqual(0);
        expect(size === DESKTOP ? ['label'] : ['label', 'sideways']).toContain(item.text);
      }
    });

    it(`${name}: any leaf is opened in at most four clicks`, () => {
      let worst = 0;
      for (let leaf = 0; leaf < h.leafCount; leaf++) worst = Math.max(worst, clicksToOpen(h, leaf, size));
      expect(worst).toBeLessThanOrEqual(4);
    });
  }

  it('zoomed anywhere, frames keep those rules', () => {
    for (const factor of [2, 7, 30, 200]) {
      for (const anchor of [0, 0.37, 1]) {
        const view = zoomedAbout(h, factor, anchor, DESKTOP);
        expect(checkFrame(h, planFrame(h, view, DESKTOP))).toEqual([]);
      }
    }
  });

  it('plans the same frame run by run as node by node, zoomed anywhere, on the book and on a 14k-node tree', () => {
    const large = buildHierarchy(syntheticTree({ nodes: 14_000 }).nodes);
    let fast = 0;
    for (const tree of [h, large]) {
      for (const size of [DESKTOP, PHONE]) {
        for (const factor of [1, 1.7, 4, 16, 90]) {
          for (const anchor of [0, 0.21, 0.5, 0.93]) {
            const view = zoomedAbout(tree, factor, anchor, size);
            const quick = planFrame(tree, view, size);
            const slow = planFrame(tree, view, size, { nodeByNode: true });
            const shape = (f: Frame) => f.items.map((row) => row.map((i) => [i.from, i.to, i.id, i.text]));
            expect(shape(quick)).toEqual(shape(slow));
            quick.items.forEach((row, layer) =>
              row.forEach((item, k) => {
                const other = slow.items[layer][k];
                expect(Math.abs(item.x - other.x) + Math.abs(item.w - other.w)).toBeLessThan(1e-6);
                if (item.to - item.from > 1) fast++;
              }),
            );
          }
        }
      }
    }
    // Runs were found at once (the path under test), many of them.
    expect(fast).toBeGreaterThan(1000);
  });

  it('finds the item under a point, the breadcrumb of a view and the view that reveals a node', () => {
    const frame = planFrame(h, fitView(h), DESKTOP);
    const top = h.layerCount - 1;
    const first = frame.items[top][0];
    expect(layerAt(frame, frame.rows.top[top] + 1)).toBe(top);
    expect(itemAt(frame, top, first.x + 1)).toBe(first);
    expect(itemAt(frame, top, -5)).toBeUndefined();
    expect(viewPath(h, fitView(h))).toEqual([]);
    const leaf = h.rows[0][100];
    const reveal = revealView(h, leaf);
    const parent = h.primaryParent[leaf];
    expect(reveal).toEqual(spanView(h.start[parent], h.span[parent]));
    expect(viewPath(h, reveal).at(-1)).toBe(parent);
    expect(isDrawnAlone(planFrame(h, reveal, DESKTOP), h, leaf)).toBe(true);
  });
});

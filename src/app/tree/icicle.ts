/**
 * The icicle's geometry and what a frame draws, as pure functions tested in Node. One row per layer (the top
 * layer on top, the leaves at the bottom); along x, each node spans its primary subtree's leaves (hierarchy.ts).
 * The view is the range of leaf slots shown across the canvas (view-transform.ts derives it from d3-zoom's
 * transform), so zooming is horizontal only and rows keep their place. A frame's plan says what each row shows: a node wide enough is drawn on its own with its label
 * (across, or up its side in a narrow tall cell) or its child count; consecutive nodes too narrow to read
 * merge into a run that shows how many nodes it holds, never crossing the edge of an item of the row above,
 * so runs nest like the cells they stand for. Clicking a cell or a run zooms to it.
 */
import type { Hierarchy } from './hierarchy';

/** The range of leaf slots across the canvas, [x0, x1). */
export interface View {
  x0: number;
  x1: number;
}

/** Canvas size in CSS pixels. */
export interface Size {
  width: number;
  height: number;
}

/**
 * A node narrower than this (pixels) is merged into a run. Wide enough for a two-digit count at the canvas's
 * 11 px font, so a run that fills a cell above it on its own (no neighbour to merge with) still shows its count.
 */
export const CELL_MIN_PX = 16;
/** A node at least this wide shows its label across it. */
export const LABEL_MIN_PX = 44;
/** A row at least this tall lets a narrower node show its label up its side. */
export const SIDEWAYS_MIN_ROW_PX = 56;
/** A run never ends narrower than this (pixels) when neighbours can absorb it, so its count fits. */
export const RUN_MIN_PX = 24;
/** Runs close once they are this wide. */
export const RUN_TARGET_PX = 36;
/** The leaf row's share of the height, within [LEAF_ROW_MIN_PX, LEAF_ROW_MAX_PX]. */
export const LEAF_ROW_SHARE = 0.18;
export const LEAF_ROW_MIN_PX = 32;
export const LEAF_ROW_MAX_PX = 96;
/** The deepest zoom shows at least this many leaf slots. */
export const MIN_VIEW_LEAVES = 2;
/** Zoom factor of one step (buttons, + and −). */
export const ZOOM_STEP = 2;

/** The whole tree. */
export function fitView(h: Pick<Hierarchy, 'leafCount'>): View {
  return { x0: 0, x1: Math.max(1, h.leafCount) };
}

/** The view that shows exactly a node's span (or a run's); d3-zoom's extents clamp it when it is zoomed to. */
export function spanView(start: number, span: number): View {
  return { x0: start, x1: start + span };
}

/** Top and height of each layer's row in pixels (`top[layer]`, `height[layer]`), the top layer first. */
export interface Rows {
  top: Float64Array;
  height: Float64Array;
}

/** Splits the height into rows: the leaves get LEAF_ROW_SHARE, each summary layer an equal share of the rest. */
export function rowsOf(layerCount: number, height: number): Rows {
  const top = new Float64Array(layerCount);
  const rowHeight = new Float64Array(layerCount);
  if (layerCount === 0) return { top, height: rowHeight };
  const leaf =
    layerCount === 1
      ? height
      : Math.min(LEAF_ROW_MAX_PX, Math.max(LEAF_ROW_MIN_PX, height * LEAF_ROW_SHARE), height / layerCount);
  const each = layerCount === 1 ? 0 : (height - leaf) / (layerCount - 1);
  for (let layer = layerCount - 1, y = 0; layer >= 0; layer--) {
    top[layer] = y;
    rowHeight[layer] = layer === 0 ? leaf : each;
    y += rowHeight[layer];
  }
  return { top, height: rowHeight };
}

/** How a drawn cell shows what it is. */
export type CellText = 'label' | 'sideways' | 'count' | 'none';

/** One thing drawn in a row: a node on its own, or a run of consecutive narrow nodes. */
export interface Item {
  layer: number;
  /** Positions [from, to) in `rows[layer]`: one node for a cell, several for a run. */
  from: number;
  to: number;
  /** Pixels, unclipped. */
  x: number;
  w: number;
  /** Leaf slots the item spans. */
  start: number;
  span: number;
  /** A cell's node id; -1 for a run. */
  id: number;
  text: CellText;
  /**
   * Every node it holds is narrower than CELL_MIN_PX (a run not merged with a cell), so every node under it
   * is too: the row below plans its span run by run, not node by node.
   */
  narrow: boolean;
}

/** What one frame draws: per layer, its items left to right. */
export interface Frame {
  view: View;
  size: Size;
  rows: Rows;
  items: Item[][];
}

/** Index of the first position in `row` whose node ends after `x` (binary search: rows ascend in start). */
function firstVisible(h: Hierarchy, row: Int32Array, x: number): number {
  let lo = 0;
  let hi = row.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const id = row[mid];
    if (h.start[id] + h.span[id] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Per row, the running sum of its nodes' spans: `prefix[layer][k]` = spans of `rows[layer][0 … k)`. */
const spanPrefixes = new WeakMap<Hierarchy, Float64Array[]>();

function spanPrefix(h: Hierarchy): Float64Array[] {
  let prefix = spanPrefixes.get(h);
  if (prefix === undefined) {
    prefix = h.rows.map((row) => {
      const sums = new Float64Array(row.length + 1);
      for (let k = 0; k < row.length; k++) sums[k + 1] = sums[k] + h.span[row[k]];
      return sums;
    });
    spanPrefixes.set(h, prefix);
  }
  return prefix;
}

/** Index of the first position in `row` at or after `from` whose node ends at or after `x`. */
function firstEndingAt(h: Hierarchy, row: Int32Array, from: number, x: number): number {
  let lo = from;
  let hi = row.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const id = row[mid];
    if (h.start[id] + h.span[id] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the first position in `row` at or after `from` whose node starts at or after `x`. */
function firstStartingAt(h: Hierarchy, row: Int32Array, from: number, x: number): number {
  let lo = from;
  let hi = row.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (h.start[row[mid]] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Options of `planFrame`. */
export interface PlanOptions {
  /** Visit every node shown, without the run-at-once path (the reference the tests hold it to). */
  nodeByNode?: boolean;
}

/**
 * Plans a frame: which items each row draws for this view and size. A cell of LABEL_MIN_PX shows its label
 * across; a narrower one up its side when its row is SIDEWAYS_MIN_ROW_PX tall, else its child count.
 *
 * Node by node, a row's nodes join runs that close once RUN_TARGET_PX wide or at an edge of the row above.
 * Under an item of the row above whose nodes are all narrow, every node is narrow too, so a run there is
 * found with two binary searches instead of visiting its nodes: a frame costs O(items · log n), not
 * O(nodes shown), and the plan is the same (tests/app/icicle.test.ts holds it to the node-by-node plan).
 */
export function planFrame(h: Hierarchy, view: View, size: Size, options: PlanOptions = {}): Frame {
  const rows = rowsOf(h.layerCount, size.height);
  const scale = size.width / Math.max(1e-9, view.x1 - view.x0);
  const prefixes = spanPrefix(h);
  const items: Item[][] = Array.from({ length: h.layerCount }, () => []);
  // Edges (in leaf slots) of the items of the row above: a run never crosses one.
  let edges: number[] = [];
  let above: Item[] = [];
  for (let layer = h.layerCount - 1; layer >= 0; layer--) {
    const row = h.rows[layer];
    const prefix = prefixes[layer];
    const out = items[layer];
    let k = firstVisible(h, row, view.x0);
    let edge = 0;
    let up = 0;
    let open: Item | undefined;
    const close = () => {
      if (open !== undefined) out.push(open);
      open = undefined;
    };
    for (; k < row.length; k++) {
      const id = row[k];
      const start = h.start[id];
      if (start >= view.x1) break;
      const span = h.span[id];
      if (span <= 0) continue;
      const x = (start - view.x0) * scale;
      const w = span * scale;
      while (edge < edges.length && edges[edge] <= start) edge++;
      // An edge of the row above between the open run and this node closes the run.
      if (open !== undefined && edge > 0 && edges[edge - 1] > open.start && edges[edge - 1] <= start) close();
      if (w >= CELL_MIN_PX) {
        close();
        out.push({
          layer,
          from: k,
          to: k + 1,
          x,
          w,
          start,
          span,
          id,
          text: cellText(w, rows.height[layer]),
          narrow: false,
        });
        continue;
      }
      if (open !== undefined && (open.w >= RUN_TARGET_PX || open.start + open.span !== start)) close();
      if (open === undefined) {
        while (up < above.length && above[up].start + above[up].span <= start) up++;
        const over = above[up];
        if (!options.nodeByNode && over !== undefined && over.narrow && over.start <= start) {
          // A whole run at once: up to the node that makes it RUN_TARGET_PX wide, the end of the item
          // above or the view's end, if its nodes are contiguous (as they are but for nodes a build left
          // unclustered).
          const last = firstStartingAt(h, row, k, Math.min(over.start + over.span, view.x1)) - 1;
          const j = Math.min(last, firstEndingAt(h, row, k, start + RUN_TARGET_PX / scale));
          const end = h.start[row[j]] + h.span[row[j]];
          if (j > k && Math.abs(prefix[j + 1] - prefix[k] - (end - start)) < 1e-9) {
            const whole = end - start;
            open = {
              layer,
              from: k,
              to: j + 1,
              x,
              w: whole * scale,
              start,
              span: whole,
              id: -1,
              text: 'count',
              narrow: true,
            };
            k = j;
            continue;
          }
        }
        open = { layer, from: k, to: k + 1, x, w, start, span, id: -1, text: 'count', narrow: true };
      } else {
        open.to = k + 1;
        open.w += w;
        open.span += span;
      }
    }
    close();
    absorbNarrowRuns(out, edges);
    edges = out.flatMap((item) => [item.start, item.start + item.span]);
    above = out;
  }
  return { view, size, rows, items };
}

function cellText(w: number, rowHeight: number): CellText {
  if (w >= LABEL_MIN_PX) return 'label';
  if (rowHeight >= SIDEWAYS_MIN_ROW_PX) return 'sideways';
  return 'count';
}

/**
 * A run narrower than RUN_MIN_PX joins a neighbour in the same segment between the row above's edges (the
 * narrower neighbour, a run before a cell), so every item is wide enough to say something.
 */
function absorbNarrowRuns(out: Item[], edges: readonly number[]): void {
  const sameSegment = (a: Item, b: Item) => {
    const left = Math.min(a.start, b.start);
    const right = Math.max(a.start + a.span, b.start + b.span);
    return !edges.some((e) => e > left && e < right);
  };
  for (let i = 0; i < out.length; i++) {
    const run = out[i];
    if (run.id !== -1 || run.w >= RUN_MIN_PX) continue;
    const left =
      i > 0 && contiguous(out[i - 1], run) && sameSegment(out[i - 1], run) ? out[i - 1] : undefined;
    const right =
      i + 1 < out.length && contiguous(run, out[i + 1]) && sameSegment(run, out[i + 1])
        ? out[i + 1]
        : undefined;
    const into = left && right ? (score(left) <= score(right) ? left : right) : (left ?? right ?? undefined);
    if (into === undefined) continue;
    const merged: Item = {
      layer: run.layer,
      from: Math.min(into.from, run.from),
      to: Math.max(into.to, run.to),
      x: Math.min(into.x, run.x),
      w: into.w + run.w,
      start: Math.min(into.start, run.start),
      span: into.span + run.span,
      id: -1,
      text: 'count',
      narrow: into.narrow && run.narrow,
    };
    const at = into === left ? i - 1 : i;
    out.splice(at, 2, merged);
    i = at - 1;
  }
}

/** Runs are preferred over cells as a narrow run's partner, then the narrower. */
function score(item: Item): number {
  return (item.id === -1 ? 0 : 1e9) + item.w;
}

function contiguous(a: Item, b: Item): boolean {
  return Math.abs(a.start + a.span - b.start) < 1e-9;
}

/** The item of `layer` under pixel `x`, or undefined. */
export function itemAt(frame: Frame, layer: number, x: number): Item | undefined {
  const row = frame.items[layer];
  if (row === undefined) return undefined;
  let lo = 0;
  let hi = row.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const item = row[mid];
    if (x < item.x) hi = mid - 1;
    else if (x >= item.x + item.w) lo = mid + 1;
    else return item;
  }
  return undefined;
}

/** The layer whose row holds pixel `y`, or undefined. */
export function layerAt(frame: Frame, y: number): number | undefined {
  for (let layer = 0; layer < frame.rows.top.length; layer++) {
    const top = frame.rows.top[layer];
    if (y >= top && y < top + frame.rows.height[layer]) return layer;
  }
  return undefined;
}

/** The item that draws node `id` in this frame (its cell, or the run holding it), or undefined. */
export function itemOf(frame: Frame, h: Hierarchy, id: number): Item | undefined {
  const layer = h.layer[id];
  const row = frame.items[layer];
  if (row === undefined) return undefined;
  const centre =
    (h.start[id] + h.span[id] / 2 - frame.view.x0) * (frame.size.width / (frame.view.x1 - frame.view.x0));
  return itemAt(frame, layer, centre);
}

/** The view that shows node `id` readably: its own span for a summary, its parent's for a leaf. */
export function revealView(h: Hierarchy, id: number): View {
  const parent = h.primaryParent[id];
  if (h.layer[id] === 0 && parent >= 0) return spanView(h.start[parent], h.span[parent]);
  return spanView(h.start[id], h.span[id]);
}

/** Whether node `id` is drawn as a cell of its own in `frame` (so the user can see and click it). */
export function isDrawnAlone(frame: Frame, h: Hierarchy, id: number): boolean {
  return itemOf(frame, h, id)?.id === id;
}

/**
 * The breadcrumb of a view: the chain of nodes, from the top, each of whose spans holds the whole view (empty
 * when the view is wider than any top node). Clicking one zooms back out to it.
 */
export function viewPath(h: Hierarchy, view: View): number[] {
  const path: number[] = [];
  const tolerance = (view.x1 - view.x0) * 1e-6;
  let kids = h.rootKids;
  for (;;) {
    let next = -1;
    for (const id of kids) {
      if (h.start[id] - tolerance <= view.x0 && h.start[id] + h.span[id] + tolerance >= view.x1) {
        next = id;
        break;
      }
    }
    if (next < 0) return path;
    path.push(next);
    kids = h.kids[next];
  }
}

/**
 * Viewport arithmetic of the tree view (no DOM, no D3).
 *
 * Zooming is horizontal-semantic: a RAPTOR tree is tens of times wider than tall (1,600 leaves in one row,
 * a handful of layers), so a uniform zoom would show either a thin strip or one row at a time. Instead the
 * rows stay spread over the view's height at every zoom, and the zoom transform (d3-zoom's k and x) scales
 * and pans along the rows: node centres move to k·x + tx, circles are drawn k times their size (still
 * round), and edges are stretched between the rows. Parents and children thus stay on screen together at
 * any magnification.
 */
import type { TreeLayout } from './layout';
import { MAX_RADIUS } from './layout';

/** The part of a zoom transform the view uses: scale `k` and horizontal translation `x` (screen pixels). */
export interface ViewTransform {
  k: number;
  x: number;
}

/** What is drawn at a zoom scale: dots and edges only, circles without text, or everything. */
export type LevelOfDetail = 'far' | 'mid' | 'near';

/** Below this scale nodes are dots: strokes keep a constant screen width and all text is hidden. */
export const LOD_MID_SCALE = 0.3;
/** From this scale up, node ids and rank badges are drawn (their text is ≥ ~6 px high). */
export const LOD_NEAR_SCALE = 0.7;
/** Free margin left and right of the fitted tree, in screen pixels. */
export const FIT_PADDING = 24;
/** Free margin above the top row and below the bottom row, in pixels: room for rings and rank badges. */
export const ROW_PADDING = 40;
/** Rows are never further apart than this on screen (pixels), so a shallow tree does not sprawl. */
export const MAX_ROW_GAP = 170;
/** Fitting never magnifies a small tree beyond this scale. */
export const MAX_FIT_SCALE = 1.5;
/** Largest zoom scale. */
export const MAX_SCALE = 6;
/** Vertical room a node needs with its ring and badges, in layout units: caps the zoom so rows never collide. */
export const NODE_ROW_SPAN = 2 * MAX_RADIUS + 28;
/** One can zoom out to this fraction of the fitting scale (a little room around the whole tree). */
export const MIN_SCALE_OF_FIT = 0.5;

/** The level of detail drawn at scale k. */
export function levelOfDetail(k: number): LevelOfDetail {
  if (k < LOD_MID_SCALE) return 'far';
  if (k < LOD_NEAR_SCALE) return 'mid';
  return 'near';
}

/**
 * Screen y (pixels from the top of a view `height` pixels high) of each layer's row: the top layer on top,
 * rows evenly spaced, at most MAX_ROW_GAP apart, the whole centred vertically.
 */
export function rowOffsets(layerCount: number, height: number): Float64Array {
  const y = new Float64Array(layerCount);
  const gap = rowGap(layerCount, height);
  const top = (height - gap * (layerCount - 1)) / 2;
  for (let layer = 0; layer < layerCount; layer++) y[layer] = top + (layerCount - 1 - layer) * gap;
  return y;
}

/** Distance between rows in pixels (0 for fewer than two layers). */
export function rowGap(layerCount: number, height: number): number {
  if (layerCount < 2) return 0;
  return Math.max(0, Math.min(MAX_ROW_GAP, (height - 2 * ROW_PADDING) / (layerCount - 1)));
}

/** The transform that centres the tree's width in a view `width` pixels wide, at most MAX_FIT_SCALE. */
export function fitTransform(bounds: TreeLayout['bounds'], width: number): ViewTransform {
  const w = Math.max(1, bounds.maxX - bounds.minX);
  const k = Math.min(MAX_FIT_SCALE, Math.max(1, width - 2 * FIT_PADDING) / w);
  return { k, x: width / 2 - (k * (bounds.minX + bounds.maxX)) / 2 };
}

/**
 * Zoom limits [min, max] for a tree whose fitting scale is fitK, with rows `gap` pixels apart (0: one row):
 * out to half the fit, in until a node with its badges would span NODE_ROW_SPAN's share of a row gap.
 */
export function scaleLimits(fitK: number, gap: number): [number, number] {
  const rowCap = gap > 0 ? gap / NODE_ROW_SPAN : MAX_SCALE;
  const max = Math.max(fitK, Math.min(MAX_SCALE, rowCap));
  return [Math.min(fitK * MIN_SCALE_OF_FIT, max), max];
}

/** True when layout x shows at least `margin` pixels inside a view `width` pixels wide. */
export function isInView(t: ViewTransform, x: number, width: number, margin: number): boolean {
  const sx = t.k * x + t.x;
  return sx >= margin && sx <= width - margin;
}

/** The transform of scale k that puts layout x at the view's horizontal centre. */
export function centreOn(x: number, k: number, width: number): ViewTransform {
  return { k, x: width / 2 - k * x };
}

/** The layout x range [x0, x1] shown in a view `width` pixels wide. */
export function visibleRange(t: ViewTransform, width: number): [number, number] {
  return [-t.x / t.k, (width - t.x) / t.k];
}

/** A layout x range whose nodes get text (ids, rank badges). */
export interface LabelWindow {
  x0: number;
  x1: number;
}

/**
 * Which nodes should carry text after a zoom to t: none unless the level of detail is 'near'; otherwise the
 * current window while it still covers the view (so panning re-renders text only now and then), else a new
 * one three views wide centred on the view. Text is the costly part of redrawing SVG, and at 'near' zoom only
 * a few dozen nodes per row are on screen.
 */
export function nextLabelWindow(
  current: LabelWindow | null,
  t: ViewTransform,
  width: number,
): LabelWindow | null {
  if (levelOfDetail(t.k) !== 'near') return null;
  const [v0, v1] = visibleRange(t, width);
  if (current !== null && current.x0 <= v0 && current.x1 >= v1) return current;
  const span = v1 - v0;
  return { x0: v0 - span, x1: v1 + span };
}

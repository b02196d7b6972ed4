/**
 * SVG path data for the tree drawing. All edges of a kind go into ONE path element, which keeps a
 * 2,000-node tree at a few thousand DOM elements and lets the browser paint the edges in one go. Edges are in
 * (layout x, screen row y) coordinates: the view stretches them horizontally with the zoom (see viewport.ts).
 */
import type { TreeNode } from '../../core/types';
import type { TreeLayout } from './layout';

/** Decimals kept in path coordinates: sub-pixel precision at the largest zoom, a short string. */
const PATH_DECIMALS = 1;

function fmt(value: number): string {
  return value.toFixed(PATH_DECIMALS);
}

/**
 * One path with a curve from each parent's centre to each child's centre (vertical tangents at both ends;
 * the circles, drawn on top, hide the ends), the row of layer L at y = rowY[L]. `keep(parent, child)` chooses
 * the edges; out-of-range children are skipped. Empty string when none.
 */
export function edgesPath(
  nodes: readonly Pick<TreeNode, 'id' | 'layer' | 'children'>[],
  layout: TreeLayout,
  rowY: ArrayLike<number>,
  keep: (parent: number, child: number) => boolean = () => true,
): string {
  const { x } = layout;
  const parts: string[] = [];
  for (const node of nodes) {
    const p = node.id;
    for (const c of node.children) {
      if (!Number.isInteger(c) || c < 0 || c >= x.length || !keep(p, c)) continue;
      const y1 = rowY[node.layer];
      const y2 = rowY[nodes[c].layer];
      const mid = (y1 + y2) / 2;
      parts.push(
        `M${fmt(x[p])} ${fmt(y1)}C${fmt(x[p])} ${fmt(mid)} ${fmt(x[c])} ${fmt(mid)} ${fmt(x[c])} ${fmt(y2)}`,
      );
    }
  }
  return parts.join('');
}

/** Angle, in degrees clockwise from 12 o'clock, where the first ring segment starts. */
const RING_START_DEGREES = 0;
/** Gap between two ring segments, in degrees, so adjacent colours read as separate marks. */
const RING_GAP_DEGREES = 8;

/**
 * Path of ring segment `index` of `count` equal segments around the origin (a circle's outline for
 * count 1), clockwise from 12 o'clock.
 */
export function ringSegmentPath(radius: number, index: number, count: number): string {
  if (count <= 1) {
    return `M${fmt(-radius)} 0A${fmt(radius)} ${fmt(radius)} 0 1 1 ${fmt(radius)} 0A${fmt(radius)} ${fmt(radius)} 0 1 1 ${fmt(-radius)} 0Z`;
  }
  const span = 360 / count;
  const from = RING_START_DEGREES + index * span + RING_GAP_DEGREES / 2;
  const to = from + span - RING_GAP_DEGREES;
  const [x0, y0] = polar(radius, from);
  const [x1, y1] = polar(radius, to);
  const large = to - from > 180 ? 1 : 0;
  return `M${fmt(x0)} ${fmt(y0)}A${fmt(radius)} ${fmt(radius)} 0 ${large} 1 ${fmt(x1)} ${fmt(y1)}`;
}

/**
 * Path of pie slice `index` of `count` (the whole disc for count 1), matching `ringSegmentPath`'s angles
 * without the gap.
 */
export function pieSlicePath(radius: number, index: number, count: number): string {
  if (count <= 1) return ringSegmentPath(radius, 0, 1);
  const span = 360 / count;
  const from = RING_START_DEGREES + index * span;
  const [x0, y0] = polar(radius, from);
  const [x1, y1] = polar(radius, from + span);
  const large = span > 180 ? 1 : 0;
  return `M0 0L${fmt(x0)} ${fmt(y0)}A${fmt(radius)} ${fmt(radius)} 0 ${large} 1 ${fmt(x1)} ${fmt(y1)}Z`;
}

/** Point at `radius` and `degrees` clockwise from 12 o'clock (SVG's y axis points down). */
export function polar(radius: number, degrees: number): [number, number] {
  const radians = (degrees * Math.PI) / 180;
  return [radius * Math.sin(radians), -radius * Math.cos(radians)];
}

/**
 * One path with a zero-length segment at (x[id], 0) for each id: drawn with round caps and a constant-width
 * stroke it shows every node of a row as a dot, in one element, when circles would be under a pixel.
 */
export function dotsPath(ids: ArrayLike<number>, x: ArrayLike<number>): string {
  const parts: string[] = [];
  for (let i = 0; i < ids.length; i++) parts.push(`M${fmt(x[ids[i]])} 0h0`);
  return parts.join('');
}

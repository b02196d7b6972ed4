/**
 * The icicle's view as D3 keeps it: d3-zoom's transform is the one state of the view, and a d3-scale maps it to
 * the tree. The base scale maps the leaf row [0, leafCount) onto the canvas's width; `transform.rescaleX` of it
 * gives the leaf slots shown (the `View`), so zooming is horizontal only: the transform's y is pinned to 0 by
 * `constrainX` and never read. These are the pure pieces (tested in Node); useIcicleZoom.ts wires them to the
 * canvas's gestures.
 */
import { scaleLinear, type ScaleLinear } from 'd3-scale';
import { ZoomTransform, zoomIdentity } from 'd3-zoom';
import { MIN_VIEW_LEAVES, type View } from './icicle';

/** A d3-zoom extent: [[x0, y0], [x1, y1]] in CSS pixels. */
export type Extent = [[number, number], [number, number]];

/** The scale from leaf slots to CSS pixels at Fit (the identity transform). */
export function leafScale(leafCount: number, width: number): ScaleLinear<number, number> {
  return scaleLinear()
    .domain([0, Math.max(1, leafCount)])
    .range([0, Math.max(1, width)]);
}

/** The leaf slots `transform` shows across a canvas `width` pixels wide. */
export function viewOf(transform: ZoomTransform, leafCount: number, width: number): View {
  const [x0, x1] = transform.rescaleX(leafScale(leafCount, width)).domain();
  return { x0, x1 };
}

/** The transform that shows exactly `view` (the inverse of `viewOf`; y is 0). */
export function transformOf(view: View, leafCount: number, width: number): ZoomTransform {
  const span = Math.max(1e-9, view.x1 - view.x0);
  const k = Math.max(1, leafCount) / span;
  return zoomIdentity.translate((-view.x0 * Math.max(1, width)) / span, 0).scale(k);
}

/** d3-zoom's scale extent: from Fit (1) to a view of MIN_VIEW_LEAVES leaf slots. */
export function scaleExtentOf(leafCount: number): [number, number] {
  return [1, Math.max(1, leafCount / Math.min(MIN_VIEW_LEAVES, Math.max(1, leafCount)))];
}

/**
 * d3-zoom's constrain, along x only: the view is moved as little as needed to lie within `translateExtent`
 * (d3's own rule, per axis), and y is pinned to 0 so a vertical drag or pinch never moves anything.
 */
export function constrainX(transform: ZoomTransform, extent: Extent, translateExtent: Extent): ZoomTransform {
  const dx0 = transform.invertX(extent[0][0]) - translateExtent[0][0];
  const dx1 = transform.invertX(extent[1][0]) - translateExtent[1][0];
  const shift = dx1 > dx0 ? (dx0 + dx1) / 2 : Math.min(0, dx0) || Math.max(0, dx1);
  const x = transform.x + transform.k * shift;
  return x === transform.x && transform.y === 0 ? transform : new ZoomTransform(transform.k, x, 0);
}

/**
 * The transform a glide to `view` ends at: `view` itself, unless it is deeper than the scale extent allows (a
 * single leaf) or wider than the tree (then the extent's limit about the view's centre), moved within the
 * tree by `constrainX`. The same clamp d3-zoom applies to every gesture.
 */
export function targetTransform(view: View, leafCount: number, width: number, height: number): ZoomTransform {
  const w = Math.max(1, width);
  const [kMin, kMax] = scaleExtentOf(leafCount);
  let target = transformOf(view, leafCount, w);
  if (target.k < kMin || target.k > kMax) {
    const centre = target.applyX((((view.x0 + view.x1) / 2) * w) / Math.max(1, leafCount));
    const k = Math.min(kMax, Math.max(kMin, target.k));
    target = zoomIdentity.translate(centre - (centre - target.x) * (k / target.k), 0).scale(k);
  }
  const extent: Extent = [
    [0, 0],
    [w, Math.max(1, height)],
  ];
  return constrainX(target, extent, extent);
}

/** A d3-zoom view for `zoom.interpolate`: the point under the gesture's centre (x, y) and the width shown. */
type ZoomView = [number, number, number];

/**
 * d3-zoom's interpolator for glides: the width shown changes geometrically (so a zoom looks steady) and the
 * centre moves so that the point the two views share stays put (a pure zoom keeps its anchor; a pan glides
 * straight). D3's default (van Wijk and Nuij's smooth zoom) zooms out mid-way on a pan, which a fling after a
 * drag must not do.
 */
export function interpolateSteady(a: ZoomView, b: ZoomView): (t: number) => ZoomView {
  const [ax, ay, aw] = a;
  const [bx, by, bw] = b;
  return (t) => {
    const w = aw === bw ? aw : aw * Math.pow(bw / aw, t);
    const u = aw === bw ? t : (aw - w) / (aw - bw);
    return [ax + (bx - ax) * u, ay + (by - ay) * u, w];
  };
}

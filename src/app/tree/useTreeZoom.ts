/**
 * d3-zoom on the tree's <svg> (wheel, drag, pinch), applied without React: each zoom event writes one
 * transform attribute per row group and one on the edge group (a handful in all, whatever the tree's size),
 * and sets `data-lod` on the svg when the level of detail changes. Only scale and horizontal translation are
 * used; rows keep their screen height (see viewport.ts).
 */
import { select, zoom, zoomIdentity, type D3ZoomEvent, type ZoomBehavior } from 'd3';
import { useCallback, useLayoutEffect, useMemo, useRef, type RefObject } from 'react';
import type { TreeLayout } from './layout';
import {
  centreOn,
  fitTransform,
  isInView,
  levelOfDetail,
  rowGap,
  scaleLimits,
  type LevelOfDetail,
  type ViewTransform,
} from './viewport';

/** Factor of one press of "Zoom in" / "Zoom out". */
export const ZOOM_STEP = 1.5;
/** Duration of button and keyboard zoom/pan animations, in ms (0 when the user prefers reduced motion). */
const ANIMATION_MS = 250;
/** A node closer than this to the view's left or right edge (pixels) is scrolled into view when focused. */
const REVEAL_MARGIN = 48;
/** Layout units one may pan beyond either end of the tree. */
const PAN_MARGIN = 200;

/** Class of the groups holding one row each; `data-row` is the layer. */
export const ROW_CLASS = 'tree-row';
/** Class of the group holding the edges. */
export const EDGES_CLASS = 'tree-edges-layer';

/** Size of the view in CSS pixels. */
export interface ViewportSize {
  width: number;
  height: number;
}

/** What the tree view can ask of the zoom. */
export interface TreeZoomControls {
  zoomBy(factor: number): void;
  /** Fits the tree's width; animated unless `instant`. */
  fit(instant?: boolean): void;
  /** Pans (never zooms) so that layout x is comfortably inside the view. */
  reveal(x: number): void;
  /** The current transform. */
  transform(): ViewTransform;
  /** Gives row and edge groups React just created the current transform (call after each commit). */
  placeNewGroups(): void;
}

type SvgZoom = ZoomBehavior<SVGSVGElement, unknown>;

function animationMs(): number {
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 0 : ANIMATION_MS;
}

/**
 * Writes transform t to every row group (at its row's y) and to the edge group; with `onlyNew`, only to groups
 * that have no transform yet (just created by React), so that re-renders do not repaint the whole drawing.
 */
function applyView(svg: SVGSVGElement, t: ViewTransform, rowY: ArrayLike<number>, onlyNew = false): void {
  for (const group of svg.getElementsByClassName(EDGES_CLASS)) {
    if (onlyNew && group.hasAttribute('transform')) continue;
    group.setAttribute('transform', `translate(${t.x} 0) scale(${t.k} 1)`);
  }
  for (const group of svg.getElementsByClassName(ROW_CLASS)) {
    if (onlyNew && group.hasAttribute('transform')) continue;
    const y = rowY[Number(group.getAttribute('data-row'))] ?? 0;
    group.setAttribute('transform', `translate(${t.x} ${y}) scale(${t.k})`);
  }
}

/**
 * Attaches d3-zoom to `svgRef`. Fits the tree whenever `bounds` (a new layout) changes. `rowY` gives each
 * layer's screen y. `onZoom` runs on every zoom event with the new transform (keep it cheap).
 */
export function useTreeZoom(
  svgRef: RefObject<SVGSVGElement | null>,
  bounds: TreeLayout['bounds'],
  layerCount: number,
  rowY: Float64Array,
  size: ViewportSize,
  onZoom: (t: ViewTransform) => void,
): TreeZoomControls {
  const behaviourRef = useRef<SvgZoom | null>(null);
  const transformRef = useRef<ViewTransform>({ k: 1, x: 0 });
  const onZoomRef = useRef(onZoom);
  const sizeRef = useRef(size);
  const boundsRef = useRef(bounds);
  const rowYRef = useRef(rowY);
  const fittedBounds = useRef<TreeLayout['bounds'] | null>(null);
  const pendingRef = useRef<ViewTransform | null>(null);

  // Before the fit below, in the same commit: the fit's zoom event must reach the current callback.
  useLayoutEffect(() => {
    onZoomRef.current = onZoom;
  }, [onZoom]);

  // Layout effects: a new tree is fitted before the browser paints it at the old transform.
  useLayoutEffect(() => {
    const svg = svgRef.current;
    if (svg === null) return;
    let lod: LevelOfDetail | null = null;
    const behaviour: SvgZoom = zoom<SVGSVGElement, unknown>().on(
      'zoom',
      (event: D3ZoomEvent<SVGSVGElement, unknown>) => {
        const t = { k: event.transform.k, x: event.transform.x };
        transformRef.current = t;
        applyView(svg, t, rowYRef.current);
        const next = levelOfDetail(t.k);
        if (next !== lod) {
          lod = next;
          svg.setAttribute('data-lod', next);
        }
        onZoomRef.current(t);
      },
    );
    const selection = select(svg);
    // Double-click would zoom AND open the node twice; the buttons and keys cover zooming in.
    selection.call(behaviour).on('dblclick.zoom', null);
    behaviourRef.current = behaviour;
    return () => {
      selection.interrupt().on('.zoom', null);
      behaviourRef.current = null;
    };
  }, [svgRef]);

  const apply = useCallback(
    (t: ViewTransform, instant: boolean) => {
      const svg = svgRef.current;
      const behaviour = behaviourRef.current;
      if (svg === null || behaviour === null) return;
      const [minK, maxK] = behaviour.scaleExtent();
      const k = Math.min(maxK, Math.max(minK, t.k));
      // Keep the same layout point at the centre when the scale had to be clamped.
      const centre = sizeRef.current.width / 2;
      const x = centre - (k / t.k) * (centre - t.x);
      const target = zoomIdentity.translate(x, 0).scale(k);
      // Remember where an animation is heading, so that a quick second "Zoom in" builds on it.
      const pending = { k, x };
      pendingRef.current = pending;
      const settled = () => {
        if (pendingRef.current === pending) pendingRef.current = null;
      };
      const ms = instant ? 0 : animationMs();
      if (ms === 0) {
        select(svg).interrupt().call(behaviour.transform, target);
        settled();
      } else {
        select(svg).transition().duration(ms).call(behaviour.transform, target).on('end interrupt', settled);
      }
    },
    [svgRef],
  );

  const fit = useCallback(
    (instant = false) => {
      if (sizeRef.current.width === 0) return;
      apply(fitTransform(boundsRef.current, sizeRef.current.width), instant);
    },
    [apply],
  );

  useLayoutEffect(() => {
    sizeRef.current = size;
    boundsRef.current = bounds;
    rowYRef.current = rowY;
    const behaviour = behaviourRef.current;
    const svg = svgRef.current;
    if (behaviour === null || svg === null || size.width === 0) return;
    const fitK = fitTransform(bounds, size.width).k;
    behaviour
      .extent([
        [0, 0],
        [size.width, size.height],
      ])
      .scaleExtent(scaleLimits(fitK, rowGap(layerCount, size.height)))
      .translateExtent([
        [bounds.minX - PAN_MARGIN, -Infinity],
        [bounds.maxX + PAN_MARGIN, Infinity],
      ]);
    if (fittedBounds.current !== bounds) {
      fittedBounds.current = bounds;
      fit(true);
    } else {
      // Resized or new row heights: same transform, but the view (and what it shows) changed.
      applyView(svg, transformRef.current, rowY);
      onZoomRef.current(transformRef.current);
    }
  }, [bounds, layerCount, rowY, size, fit, svgRef]);

  return useMemo<TreeZoomControls>(
    () => ({
      zoomBy(factor) {
        const from = pendingRef.current ?? transformRef.current;
        const centre = sizeRef.current.width / 2;
        apply({ k: from.k * factor, x: centre - factor * (centre - from.x) }, false);
      },
      fit,
      reveal(x) {
        const t = transformRef.current;
        const { width } = sizeRef.current;
        if (!isInView(t, x, width, REVEAL_MARGIN)) apply(centreOn(x, t.k, width), false);
      },
      transform: () => transformRef.current,
      placeNewGroups() {
        const svg = svgRef.current;
        if (svg !== null) applyView(svg, transformRef.current, rowYRef.current, true);
      },
    }),
    [svgRef, apply, fit],
  );
}

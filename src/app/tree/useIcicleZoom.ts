/**
 * d3-zoom on the icicle's canvas: the one owner of the view. Its transform (read with `zoomTransform(canvas)`)
 * IS the view; `viewOf` maps it through a d3-scale to the leaf slots shown. What D3 does here: the wheel zooms
 * about the pointer, a drag pans (mouse or one finger), two fingers pinch about their midpoint, and every
 * programmatic move (the + − Fit buttons, the keyboard, Find, the breadcrumb, a click on a cell) is a
 * `zoom.transform` on a d3 transition, which the next gesture interrupts; `scaleExtent`, `translateExtent` and
 * an x-only `constrain` are the clamp. What stays ours (zoom-gestures.ts): a sideways wheel (or Shift + wheel)
 * pans through `zoom.translateBy`; a double-tap zooms 2× about the tap, and a single tap waits DOUBLE_TAP_MS to
 * be sure it is not the first of two; a fling carries a drag on (momentum.ts). Here: a new tree starts at Fit,
 * a resize keeps the leaf slots shown, and a move asked for while the canvas has no width waits for one.
 */
import { useEffect, useRef, type RefObject } from 'react';
import { select } from 'd3-selection';
import 'd3-transition';
import { zoomIdentity, zoomTransform } from 'd3-zoom';
import type { View } from './icicle';
import { easeOutCubic } from './momentum';
import { scaleExtentOf, targetTransform, transformOf, viewOf } from './view-transform';
import {
  attachTaps,
  attachWheelPan,
  createZoom,
  ZOOM_MS,
  type CanvasZoom,
  type GestureTarget,
  type LatestTarget,
} from './zoom-gestures';

/** What the canvas hears from the zoom. */
export interface IcicleZoomOptions extends GestureTarget {
  /** The tree drawn (any value; a new one resets the view to Fit). */
  tree: unknown;
}

/** The controls the buttons, the keyboard and Find use; all go through d3-zoom. */
export interface IcicleZoom {
  /** The leaf slots shown now (mid-glide: where the glide is). */
  view(): View;
  /** Glides to `factor` times the zoom, about the centre. */
  zoomBy(factor: number): void;
  /** Glides to show `view` (clamped by the scale and translate extents). */
  zoomTo(view: View): void;
  /** Glides to the whole tree. */
  fit(): void;
}

/** The refs the zoom's effects and controls share. */
interface ZoomState {
  canvasRef: RefObject<HTMLCanvasElement | null>;
  latest: LatestTarget;
  /** d3-zoom, once attached. */
  behaviour: { current: CanvasZoom | null };
  /**
   * A move asked for while the canvas has no width (its tab hidden, or before its first layout), in leaf
   * slots: a transform is in pixels, so it is applied when the canvas has a width again.
   */
  pending: { current: View | null };
  /** The last width the canvas had (the transform is in its pixels). */
  shownWidth: { current: number };
}

/** Attaches d3-zoom to the canvas; see the module comment. */
export function useIcicleZoom(
  canvasRef: RefObject<HTMLCanvasElement | null>,
  options: IcicleZoomOptions,
): IcicleZoom {
  const latest = useRef(options);
  latest.current = options;
  const behaviour = useRef<CanvasZoom | null>(null);
  const pending = useRef<View | null>(null);
  const shownWidth = useRef(0);
  const state: ZoomState = { canvasRef, latest, behaviour, pending, shownWidth };

  useEffect(() => {
    const canvas = canvasRef.current;
    if (canvas === null) return;
    const selection = select(canvas);
    const z = createZoom(selection, latest);
    behaviour.current = z;
    attachWheelPan(selection, z);
    selection.call(z);
    const detachTaps = attachTaps(selection, z, latest);
    return () => {
      detachTaps();
      selection.interrupt();
      selection.on('.zoom', null).on('.icicle', null);
      behaviour.current = null;
    };
  }, [canvasRef]);

  useFitOnNewTree(state, options.tree);
  useKeepViewOnResize(state, options.width, options.height);
  return zoomControls(state);
}

/** A new tree: its own scale extent, at Fit. */
function useFitOnNewTree({ canvasRef, latest, behaviour, pending }: ZoomState, tree: unknown): void {
  useEffect(() => {
    const canvas = canvasRef.current;
    const z = behaviour.current;
    if (canvas === null || z === null) return;
    z.scaleExtent(scaleExtentOf(latest.current.leafCount));
    pending.current = null;
    select(canvas).call(z.transform, zoomIdentity);
  }, [canvasRef, latest, behaviour, pending, tree]);
}

/**
 * A resize: the translate extent follows the canvas, and the leaf slots shown stay the same; a move that waited
 * for a width is made.
 */
function useKeepViewOnResize(state: ZoomState, width: number, height: number): void {
  const { canvasRef, latest, behaviour, pending, shownWidth } = state;
  useEffect(() => {
    const canvas = canvasRef.current;
    const z = behaviour.current;
    if (canvas === null || z === null || width === 0) return;
    z.translateExtent([
      [0, 0],
      [width, Math.max(1, height)],
    ]);
    const before = shownWidth.current;
    shownWidth.current = width;
    const waiting = pending.current;
    if (waiting !== null) {
      pending.current = null;
      select(canvas)
        .interrupt()
        .call(z.transform, targetTransform(waiting, latest.current.leafCount, width, height));
      return;
    }
    if (before === 0 || before === width) return;
    const view = viewOf(zoomTransform(canvas), latest.current.leafCount, before);
    select(canvas).call(z.transform, transformOf(view, latest.current.leafCount, width));
  }, [canvasRef, latest, behaviour, pending, shownWidth, width, height]);
}

/** The controls: each a d3 transition of the zoom's transform (or a wait for a width, on a hidden canvas). */
function zoomControls({ canvasRef, latest, behaviour, pending, shownWidth }: ZoomState): IcicleZoom {
  const glide = (to: (canvas: HTMLCanvasElement, z: CanvasZoom) => void) => {
    const canvas = canvasRef.current;
    const z = behaviour.current;
    if (canvas !== null && z !== null) to(canvas, z);
  };
  const whole = (): View => ({ x0: 0, x1: Math.max(1, latest.current.leafCount) });
  // The transform is in the pixels of the last width the canvas had: a hidden canvas (width 0) keeps its view.
  const widthNow = () => latest.current.width || shownWidth.current;
  return {
    view: () => {
      const canvas = canvasRef.current;
      const w = widthNow();
      if (pending.current !== null) return pending.current;
      return canvas === null || w === 0
        ? whole()
        : viewOf(zoomTransform(canvas), latest.current.leafCount, w);
    },
    zoomBy: (factor) =>
      glide((canvas, z) =>
        select(canvas).transition().duration(ZOOM_MS).ease(easeOutCubic).call(z.scaleBy, factor),
      ),
    zoomTo: (view) =>
      glide((canvas, z) => {
        const { leafCount: n, height: hgt } = latest.current;
        const w = widthNow();
        if (w === 0) {
          pending.current = view;
          return;
        }
        const target = targetTransform(view, n, w, hgt);
        select(canvas).transition().duration(ZOOM_MS).ease(easeOutCubic).call(z.transform, target);
      }),
    fit: () =>
      glide((canvas, z) => {
        if (widthNow() === 0) {
          pending.current = whole();
          return;
        }
        select(canvas).transition().duration(ZOOM_MS).ease(easeOutCubic).call(z.transform, zoomIdentity);
      }),
  };
}

/**
 * d3-zoom on the icicle's canvas: the one owner of the view. Its transform (read with `zoomTransform(canvas)`)
 * IS the view; `viewOf` maps it through a d3-scale to the leaf slots shown. What D3 does here: the wheel zooms
 * about the pointer, a drag pans (mouse or one finger), two fingers pinch about their midpoint, and every
 * programmatic move (the + − Fit buttons, the keyboard, Find, the breadcrumb, a click on a cell) is a
 * `zoom.transform` on a d3 transition, which the next gesture interrupts; `scaleExtent`, `translateExtent` and
 * an x-only `constrain` are the clamp. What stays ours: a sideways wheel (or Shift + wheel) pans through
 * `zoom.translateBy`; a double-tap (d3-zoom reroutes it to the `dblclick.zoom` listener) zooms 2× about the
 * tap, and a single tap waits DOUBLE_TAP_MS to be sure it is not the first of two (a mouse click acts at
 * once; a mouse double-click is two clicks, each zooming into what it hits); a fling carries a drag on
 * (momentum.ts); a resize keeps the leaf slots shown.
 */
import { useEffect, useRef, type RefObject } from 'react';
import { pointer, select, type Selection } from 'd3-selection';
import 'd3-transition';
import { zoom, zoomIdentity, zoomTransform, type D3ZoomEvent, type ZoomBehavior } from 'd3-zoom';
import type { View } from './icicle';
import { easeOutCubic, FLING_MS, PanTracker } from './momentum';
import {
  constrainX,
  interpolateSteady,
  scaleExtentOf,
  targetTransform,
  transformOf,
  viewOf,
} from './view-transform';

/** How long a zoom to a node or a button's zoom step glides, in milliseconds. */
export const ZOOM_MS = 220;
/** A touch tap acts after this long unless a second tap makes it a double-tap (ms). */
export const DOUBLE_TAP_MS = 300;
/** A pointer that moves less than this between down and up clicked (d3-zoom's clickDistance). */
const CLICK_SLOP_PX = 4;
/** Zoom factor of a double-tap. */
const DOUBLE_TAP_FACTOR = 2;
/** A wheel in lines (deltaMode 1) moves this many pixels a line. */
const LINE_PX = 16;
/** The second tap's own click follows its touchend within this long (ms); it is not a tap of its own. */
const SWALLOW_CLICK_MS = 400;

type CanvasSelection = Selection<HTMLCanvasElement, unknown, null, undefined>;
type ZoomEvent = D3ZoomEvent<HTMLCanvasElement, unknown>;

/** What the canvas hears from the zoom. */
export interface IcicleZoomOptions {
  /** The tree drawn (any value; a new one resets the view to Fit). */
  tree: unknown;
  leafCount: number;
  width: number;
  height: number;
  /** The transform changed: draw at the next frame. */
  onChange(): void;
  /** A gesture or glide ended (the view rests, for the breadcrumb). */
  onEnd(): void;
  /** A click or a tap that was not the start of a double-tap, at these client coordinates. */
  onClick(clientX: number, clientY: number): void;
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

/** Attaches d3-zoom to the canvas; see the module comment. */
// eslint-disable-next-line max-lines-per-function -- not yet cut along its seams into hooks or components (issue 46; docs/architecture.md lists the long functions)
export function useIcicleZoom(
  canvasRef: RefObject<HTMLCanvasElement | null>,
  options: IcicleZoomOptions,
): IcicleZoom {
  const latest = useRef(options);
  latest.current = options;
  const behaviour = useRef<ZoomBehavior<HTMLCanvasElement, unknown> | null>(null);
  // A move asked for while the canvas has no width (its tab hidden, or before its first layout), in leaf slots:
  // a transform is in pixels, so it is applied when the canvas has a width again.
  const pending = useRef<View | null>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (canvas === null) return;
    const selection: CanvasSelection = select(canvas);
    const pan = new PanTracker();
    let pinched = false;
    let pendingTap: ReturnType<typeof setTimeout> | undefined;
    let swallowClicksUntil = 0;

    const z = zoom<HTMLCanvasElement, unknown>()
      .extent(() => [
        [0, 0],
        [Math.max(1, latest.current.width), Math.max(1, latest.current.height)],
      ])
      .scaleExtent(scaleExtentOf(latest.current.leafCount))
      .constrain(constrainX)
      .interpolate(interpolateSteady)
      .clickDistance(CLICK_SLOP_PX)
      // Sideways wheels are ours (a pan); the rest is d3-zoom's default filter.
      .filter((event: Event) => {
        if (event.type === 'wheel') return !isSideways(event as WheelEvent);
        const e = event as MouseEvent;
        return !e.ctrlKey && !e.button;
      })
      .on('start', (e: ZoomEvent) => {
        if (isDragStart(e.sourceEvent)) {
          pan.reset();
          pinched = false;
        }
      })
      .on('zoom', (e: ZoomEvent) => {
        const source = e.sourceEvent as Event | null;
        if (source !== null && (source.type === 'mousemove' || source.type === 'touchmove')) {
          if ((source as TouchEvent).touches?.length > 1) pinched = true;
          pan.add(performance.now(), e.transform.x);
        }
        latest.current.onChange();
      })
      .on('end', (e: ZoomEvent) => {
        const source = e.sourceEvent as Event | null;
        const fling = pinched ? 0 : pan.flingDistance(performance.now());
        pan.reset();
        if (source !== null && (source.type === 'mouseup' || source.type === 'touchend') && fling !== 0) {
          const k = e.transform.k;
          selection
            .transition()
            .duration(FLING_MS)
            .ease(easeOutCubic)
            .call(z.translateBy, fling / k, 0);
          return;
        }
        latest.current.onEnd();
      });
    behaviour.current = z;

    // Ours, registered before d3-zoom's: the page never scrolls under the tree, and a sideways wheel pans.
    selection.on(
      'wheel.icicle',
      (event: WheelEvent) => {
        event.preventDefault();
        if (!isSideways(event)) return;
        const unit = event.deltaMode === WheelEvent.DOM_DELTA_LINE ? LINE_PX : 1;
        const dx = -(Math.abs(event.deltaX) > Math.abs(event.deltaY) ? event.deltaX : event.deltaY) * unit;
        selection.call(z.translateBy, dx / zoomTransform(canvas).k, 0);
      },
      { passive: false },
    );
    selection.call(z);

    // A double-tap (d3-zoom's touchend reroute) zooms in about the tap; a mouse double-click is two clicks.
    selection.on('dblclick.zoom', function (this: HTMLCanvasElement, event: Event) {
      event.preventDefault();
      if (event.type !== 'touchend') return;
      if (pendingTap === undefined) return; // the first tap already acted
      clearTimeout(pendingTap);
      pendingTap = undefined;
      swallowClicksUntil = performance.now() + SWALLOW_CLICK_MS;
      const touch = (event as TouchEvent).changedTouches[0];
      selection
        .transition()
        .duration(ZOOM_MS)
        .ease(easeOutCubic)
        .call(z.scaleBy, DOUBLE_TAP_FACTOR, pointer(touch, this));
    });
    selection.on('click.icicle', (event: MouseEvent) => {
      const { clientX, clientY } = event;
      if ((event as PointerEvent).pointerType !== 'touch') {
        latest.current.onClick(clientX, clientY);
        return;
      }
      if (performance.now() < swallowClicksUntil) return;
      clearTimeout(pendingTap);
      pendingTap = setTimeout(() => {
        pendingTap = undefined;
        latest.current.onClick(clientX, clientY);
      }, DOUBLE_TAP_MS);
    });

    return () => {
      clearTimeout(pendingTap);
      selection.interrupt();
      selection.on('.zoom', null).on('.icicle', null);
      behaviour.current = null;
    };
  }, [canvasRef]);

  // A new tree: its own scale extent, at Fit.
  const { tree, width, height } = options;
  useEffect(() => {
    const canvas = canvasRef.current;
    const z = behaviour.current;
    if (canvas === null || z === null) return;
    z.scaleExtent(scaleExtentOf(latest.current.leafCount));
    pending.current = null;
    select(canvas).call(z.transform, zoomIdentity);
  }, [canvasRef, tree]);

  // A resize: the translate extent follows the canvas, and the leaf slots shown stay the same.
  const shownWidth = useRef(0);
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
  }, [canvasRef, width, height]);

  const glide = (to: (canvas: HTMLCanvasElement, z: ZoomBehavior<HTMLCanvasElement, unknown>) => void) => {
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

/** A wheel that pans: sideways, or with Shift held. */
function isSideways(event: WheelEvent): boolean {
  return event.shiftKey || Math.abs(event.deltaX) > Math.abs(event.deltaY);
}

/** A gesture that may become a drag (a fling is measured from its moves). */
function isDragStart(source: unknown): boolean {
  const type = (source as Event | null)?.type;
  return type === 'mousedown' || type === 'touchstart';
}

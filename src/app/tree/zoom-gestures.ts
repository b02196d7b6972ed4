/**
 * The icicle's gestures, wired to d3-zoom on its canvas (useIcicleZoom.ts owns them). d3-zoom does the wheel
 * about the pointer, the drag, the pinch and every clamp; ours are a fling that carries a drag on
 * (momentum.ts), a sideways wheel (or Shift + wheel) that pans, a double-tap that zooms 2× about the tap, and a
 * tap that waits DOUBLE_TAP_MS to be sure it is not the first of two (a mouse click acts at once; a mouse
 * double-click is two clicks, each zooming into what it hits).
 */
import { pointer, type Selection } from 'd3-selection';
import 'd3-transition';
import { zoom, zoomTransform, type D3ZoomEvent, type ZoomBehavior } from 'd3-zoom';
import { easeOutCubic, FLING_MS, PanTracker } from './momentum';
import { constrainX, interpolateSteady, scaleExtentOf } from './view-transform';

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

/** The canvas as d3-selection holds it. */
export type CanvasSelection = Selection<HTMLCanvasElement, unknown, null, undefined>;
/** d3-zoom on the canvas. */
export type CanvasZoom = ZoomBehavior<HTMLCanvasElement, unknown>;
type ZoomEvent = D3ZoomEvent<HTMLCanvasElement, unknown>;

/** What the gestures read at the moment they happen (the canvas's latest props), and whom they tell. */
export interface GestureTarget {
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

/** A ref to the latest target (read at each event, so the handlers are attached once). */
export type LatestTarget = { readonly current: GestureTarget };

/**
 * d3-zoom for the canvas: its extent (the canvas's size), the scale extent of the tree's leaves, the x-only
 * clamp, steady glides, and a fling when a drag (not a pinch) lets go while moving.
 */
export function createZoom(selection: CanvasSelection, latest: LatestTarget): CanvasZoom {
  const pan = new PanTracker();
  let pinched = false;
  const z: CanvasZoom = zoom<HTMLCanvasElement, unknown>()
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
  return z;
}

/**
 * Ours, registered before d3-zoom's: the page never scrolls under the tree, and a sideways wheel (or Shift +
 * wheel) pans.
 */
export function attachWheelPan(selection: CanvasSelection, z: CanvasZoom): void {
  const canvas = selection.node() as HTMLCanvasElement;
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
}

/**
 * Clicks and taps, attached after d3-zoom (whose `dblclick.zoom` they replace): a double-tap (d3-zoom's
 * touchend reroute) zooms in about the tap; a tap waits to be sure it is not the first of two; a mouse click
 * acts at once. Returns what the cleanup calls (a tap still waiting is dropped).
 */
export function attachTaps(selection: CanvasSelection, z: CanvasZoom, latest: LatestTarget): () => void {
  let pendingTap: ReturnType<typeof setTimeout> | undefined;
  let swallowClicksUntil = 0;
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
  return () => clearTimeout(pendingTap);
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

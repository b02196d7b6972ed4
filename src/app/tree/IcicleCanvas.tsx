/**
 * The icicle on a <canvas>: one row per layer, each node over its primary subtree's leaves (icicle.ts plans a
 * frame, draw.ts paints it). The wheel zooms about the pointer, a drag pans, a click on a run or a summary
 * zooms to it (a summary also opens), a click on a leaf opens it. Zooms glide over ZOOM_MS; every change is
 * drawn at the next animation frame, never synchronously, so a burst of wheel events costs one frame. The
 * canvas is not a tab stop: the outline below is the keyboard's and screen reader's way through the same
 * hierarchy, and the canvas follows it.
 *
 * Contract relied on by end-to-end tests and the view bench: the canvas has aria-label="Tree view",
 * data-view="x0 x1" (the leaf slots shown, after each drawn frame) and data-frames (frames drawn).
 */
import { useCallback, useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import { readPalette, drawFrame, type DrawInput, type Palette } from './draw';
import type { Hierarchy } from './hierarchy';
import {
  clampView,
  fitView,
  interpolateView,
  itemAt,
  layerAt,
  panView,
  planFrame,
  spanView,
  zoomView,
  type Frame,
  type Item,
  type View,
} from './icicle';
import { useElementSize } from './useElementSize';

/** How long a zoom to a node or a button's zoom step glides, in milliseconds. */
export const ZOOM_MS = 220;
/** Wheel zoom per pixel of wheel delta (exponential: equal scrolls give equal factors). */
const WHEEL_ZOOM_PER_PIXEL = 0.0022;
/** A pointer that moves less than this between down and up clicked. */
const CLICK_SLOP_PX = 4;

/** What the canvas is asked to draw, besides the geometry. */
export type CanvasMarks = Omit<DrawInput, 'frame' | 'h' | 'palette' | 'hover'>;

/** What a frame cost, for the view bench. */
export interface FrameInfo {
  /** Milliseconds spent planning and painting. */
  drawMs: number;
  view: View;
  /** Milliseconds from the request that caused this frame to its paint. */
  latencyMs: number;
}

/** Imperative controls (zoom buttons, keyboard, Find). */
export interface IcicleHandle {
  zoomBy(factor: number): void;
  fit(): void;
  /** Glides to a view (a node's span, a run's). */
  zoomTo(view: View): void;
  view(): View;
  /** The frame this canvas would draw at `view` (to ask whether a node would be drawn on its own). */
  plan(view: View): Frame;
}

interface IcicleCanvasProps {
  h: Hierarchy;
  marks: CanvasMarks;
  height: number;
  /** A node was clicked (after any zoom it causes). */
  onOpen(id: number): void;
  /** The view settled somewhere else (after a glide, a drag or a wheel burst). */
  onViewChange?(view: View): void;
  /** The node or run under the pointer, for the tooltip; null when none. */
  onHover?(item: Item | null, clientX: number, frame: Frame): void;
  /** Each drawn frame's cost (the view bench). */
  onFrame?(info: FrameInfo): void;
  /** Accessible description (the canvas is an image of the outline's hierarchy). */
  describedBy?: string;
  ref?: Ref<IcicleHandle>;
}

/** The icicle canvas; see the module comment. */
export function IcicleCanvas({
  h,
  marks,
  height,
  onOpen,
  onViewChange,
  onHover,
  onFrame,
  describedBy,
  ref,
}: IcicleCanvasProps) {
  const wrapRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const size = useElementSize(wrapRef);
  const view = useRef<View>(fitView(h));
  const frame = useRef<Frame | null>(null);
  const pending = useRef<number | null>(null);
  const requestedAt = useRef(0);
  const frames = useRef(0);
  const glide = useRef<{ from: View; to: View; start: number } | null>(null);
  const hover = useRef<Item | null>(null);
  const palette = useRef<{ key: string; value: Palette } | null>(null);
  const settleTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef({ h, marks, size, onFrame, onViewChange });
  latest.current = { h, marks, size, onFrame, onViewChange };
  const [, setDrawn] = useState(0);

  const paint = useCallback((now: number) => {
    pending.current = null;
    const canvas = canvasRef.current;
    const { h: tree, marks: m, size: s } = latest.current;
    if (canvas === null || s.width === 0 || s.height === 0) return;
    const started = performance.now();
    if (glide.current !== null) {
      const g = glide.current;
      const t = Math.min(1, (now - g.start) / ZOOM_MS);
      view.current = interpolateView(g.from, g.to, easeOut(t));
      if (t >= 1) {
        glide.current = null;
        view.current = g.to;
        settle();
      } else {
        schedule();
      }
    }
    const ratio = window.devicePixelRatio || 1;
    const pixelWidth = Math.round(s.width * ratio);
    const pixelHeight = Math.round(s.height * ratio);
    if (canvas.width !== pixelWidth || canvas.height !== pixelHeight) {
      canvas.width = pixelWidth;
      canvas.height = pixelHeight;
    }
    const ctx = canvas.getContext('2d');
    if (ctx === null) return;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    const planned = planFrame(tree, view.current, s);
    frame.current = planned;
    drawFrame(ctx, { ...m, frame: planned, h: tree, palette: currentPalette(canvas), hover: hover.current });
    frames.current++;
    canvas.dataset.view = `${view.current.x0} ${view.current.x1}`;
    canvas.dataset.frames = String(frames.current);
    const ended = performance.now();
    latest.current.onFrame?.({
      drawMs: ended - started,
      view: view.current,
      latencyMs: ended - requestedAt.current,
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- schedule/settle/currentPalette only read refs
  }, []);

  function currentPalette(canvas: HTMLCanvasElement): Palette {
    const key = `${document.documentElement.dataset.theme ?? ''}:${matchMedia('(prefers-color-scheme: dark)').matches}`;
    if (palette.current?.key !== key) palette.current = { key, value: readPalette(canvas) };
    return palette.current.value;
  }

  function schedule() {
    if (pending.current === null) {
      requestedAt.current = performance.now();
      pending.current = requestAnimationFrame(paint);
    }
  }

  function settle() {
    clearTimeout(settleTimer.current);
    settleTimer.current = setTimeout(() => latest.current.onViewChange?.(view.current), 60);
  }

  function jump(next: View) {
    glide.current = null;
    view.current = clampView(next, latest.current.h);
    schedule();
    settle();
  }

  function glideTo(next: View) {
    glide.current = { from: view.current, to: clampView(next, latest.current.h), start: performance.now() };
    schedule();
  }

  useImperativeHandle(ref, () => ({
    zoomBy: (factor) => glideTo(zoomView(glide.current?.to ?? view.current, factor, 0.5, latest.current.h)),
    fit: () => glideTo(fitView(latest.current.h)),
    zoomTo: (next) => glideTo(next),
    view: () => view.current,
    plan: (at) => planFrame(latest.current.h, at, latest.current.size),
  }));

  // A new tree starts at Fit; anything else that changes the picture is drawn at the next frame.
  useEffect(() => {
    glide.current = null;
    view.current = fitView(h);
    settle();
  }, [h]);
  useEffect(() => schedule());
  useEffect(
    () => () => {
      if (pending.current !== null) cancelAnimationFrame(pending.current);
      pending.current = null;
      clearTimeout(settleTimer.current);
    },
    [],
  );
  // Theme changes repaint with the new colours.
  useEffect(() => {
    const media = matchMedia('(prefers-color-scheme: dark)');
    const repaint = () => setDrawn((n) => n + 1);
    const observer = new MutationObserver(repaint);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    media.addEventListener('change', repaint);
    return () => {
      observer.disconnect();
      media.removeEventListener('change', repaint);
    };
  }, []);

  // Wheel: a non-passive listener, so the page does not scroll while the tree zooms.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (canvas === null) return;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const rect = canvas.getBoundingClientRect();
      const base = glide.current?.to ?? view.current;
      const pixels = e.deltaMode === WheelEvent.DOM_DELTA_LINE ? 16 : 1;
      if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
        jump(panView(base, -(e.deltaX || e.deltaY) * pixels, rect.width, latest.current.h));
      } else {
        const factor = Math.exp(-e.deltaY * pixels * WHEEL_ZOOM_PER_PIXEL);
        jump(zoomView(base, factor, (e.clientX - rect.left) / Math.max(1, rect.width), latest.current.h));
      }
    };
    canvas.addEventListener('wheel', onWheel, { passive: false });
    return () => canvas.removeEventListener('wheel', onWheel);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- jump reads refs only
  }, []);

  const drag = useRef<{ x: number; startX: number; moved: boolean } | null>(null);
  const hitAt = (clientX: number, clientY: number): Item | undefined => {
    const canvas = canvasRef.current;
    const f = frame.current;
    if (canvas === null || f === null) return undefined;
    const rect = canvas.getBoundingClientRect();
    const layer = layerAt(f, clientY - rect.top);
    return layer === undefined ? undefined : itemAt(f, layer, clientX - rect.left);
  };

  return (
    <div className="tree-canvas" ref={wrapRef} style={{ height }}>
      <canvas
        ref={canvasRef}
        className="tree-icicle"
        role="img"
        aria-label="Tree view"
        aria-describedby={describedBy}
        onPointerDown={(e) => {
          if (e.button !== 0) return;
          e.currentTarget.setPointerCapture(e.pointerId);
          drag.current = { x: e.clientX, startX: e.clientX, moved: false };
          if (frame.current !== null) onHover?.(null, 0, frame.current);
        }}
        onPointerMove={(e) => {
          const d = drag.current;
          if (d !== null) {
            if (Math.abs(e.clientX - d.startX) > CLICK_SLOP_PX) d.moved = true;
            if (d.moved) {
              jump(panView(view.current, e.clientX - d.x, latest.current.size.width, latest.current.h));
              d.x = e.clientX;
            }
            return;
          }
          const item = hitAt(e.clientX, e.clientY) ?? null;
          if (item?.from !== hover.current?.from || item?.layer !== hover.current?.layer) {
            hover.current = item;
            schedule();
          }
          if (frame.current !== null) onHover?.(item, e.clientX, frame.current);
        }}
        onPointerUp={(e) => {
          const d = drag.current;
          drag.current = null;
          if (d === null || d.moved) return;
          const item = hitAt(e.clientX, e.clientY);
          if (item === undefined) return;
          if (item.id === -1 || item.layer > 0) {
            const target = spanView(item.start, item.span, latest.current.h);
            const now = view.current;
            if (Math.abs(target.x0 - now.x0) > 1e-6 || Math.abs(target.x1 - now.x1) > 1e-6) glideTo(target);
          }
          if (item.id !== -1) onOpen(item.id);
        }}
        onPointerLeave={() => {
          hover.current = null;
          schedule();
          if (frame.current !== null) onHover?.(null, 0, frame.current);
        }}
      />
    </div>
  );
}

function easeOut(t: number): number {
  return 1 - (1 - t) * (1 - t) * (1 - t);
}

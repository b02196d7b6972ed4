/**
 * The icicle on a <canvas>: one row per layer, each node over its primary subtree's leaves (icicle.ts plans a
 * frame, draw.ts paints it). d3-zoom owns the view (useIcicleZoom.ts): the wheel zooms about the pointer, a
 * drag or one finger pans, two fingers pinch, a double-tap zooms in; a click or tap on a run or a summary zooms
 * to it (a summary also opens), on a leaf opens it. Every change is drawn at the next animation frame through
 * d3-timer (the clock d3's transitions tick on, so a glide's step and its paint share a frame), never
 * synchronously, so a burst of wheel or touch events costs one frame. The canvas is not a tab stop: the
 * outline below is the keyboard's and screen reader's way through the same hierarchy, and the canvas follows it.
 *
 * Contract relied on by end-to-end tests and the view bench: the canvas has aria-label="Tree view",
 * data-view="x0 x1" (the leaf slots shown, after each drawn frame) and data-frames (frames drawn).
 */
import { useCallback, useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import { timeout, type Timer } from 'd3-timer';
import { readPalette, drawFrame, type DrawInput, type Palette } from './draw';
import type { Hierarchy } from './hierarchy';
import { itemAt, layerAt, planFrame, spanView, type Frame, type Item, type View } from './icicle';
import { useElementSize } from './useElementSize';
import { useIcicleZoom } from './useIcicleZoom';

export { ZOOM_MS } from './useIcicleZoom';

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
// eslint-disable-next-line max-lines-per-function -- not yet cut along its seams into hooks or components (issue 46; docs/architecture.md lists the long functions)
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
  const frame = useRef<Frame | null>(null);
  const pending = useRef<Timer | null>(null);
  const requestedAt = useRef(0);
  const frames = useRef(0);
  const hover = useRef<Item | null>(null);
  const palette = useRef<{ key: string; value: Palette } | null>(null);
  const settleTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef({ h, marks, size, onFrame, onViewChange, onOpen });
  latest.current = { h, marks, size, onFrame, onViewChange, onOpen };
  const [, setDrawn] = useState(0);

  const paint = useCallback(() => {
    pending.current = null;
    const canvas = canvasRef.current;
    const { h: tree, marks: m, size: s } = latest.current;
    if (canvas === null || s.width === 0 || s.height === 0) return;
    const started = performance.now();
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
    const view = zoomer.current.view();
    const planned = planFrame(tree, view, s);
    frame.current = planned;
    drawFrame(ctx, { ...m, frame: planned, h: tree, palette: currentPalette(canvas), hover: hover.current });
    frames.current++;
    canvas.dataset.view = `${view.x0} ${view.x1}`;
    canvas.dataset.frames = String(frames.current);
    const ended = performance.now();
    latest.current.onFrame?.({ drawMs: ended - started, view, latencyMs: ended - requestedAt.current });
  }, []);

  function currentPalette(canvas: HTMLCanvasElement): Palette {
    const key = `${document.documentElement.dataset.theme ?? ''}:${matchMedia('(prefers-color-scheme: dark)').matches}`;
    if (palette.current?.key !== key) palette.current = { key, value: readPalette(canvas) };
    return palette.current.value;
  }

  /** Draws at the next animation frame (d3-timer's: inside a glide's tick, the same frame). */
  function schedule() {
    if (pending.current === null) {
      requestedAt.current = performance.now();
      pending.current = timeout(paint);
    }
  }

  function settle() {
    clearTimeout(settleTimer.current);
    settleTimer.current = setTimeout(() => latest.current.onViewChange?.(zoomer.current.view()), 60);
  }

  const hitAt = (clientX: number, clientY: number): Item | undefined => {
    const canvas = canvasRef.current;
    const f = frame.current;
    if (canvas === null || f === null) return undefined;
    const rect = canvas.getBoundingClientRect();
    const layer = layerAt(f, clientY - rect.top);
    return layer === undefined ? undefined : itemAt(f, layer, clientX - rect.left);
  };

  const zoom = useIcicleZoom(canvasRef, {
    tree: h,
    leafCount: h.leafCount,
    width: size.width,
    height: size.height,
    onChange: schedule,
    onEnd: settle,
    onClick: (clientX, clientY) => {
      const item = hitAt(clientX, clientY);
      if (item === undefined) return;
      if (item.id === -1 || item.layer > 0) {
        const target = spanView(item.start, item.span);
        const now = zoomer.current.view();
        if (Math.abs(target.x0 - now.x0) > 1e-6 || Math.abs(target.x1 - now.x1) > 1e-6) {
          zoomer.current.zoomTo(target);
        }
      }
      if (item.id !== -1) latest.current.onOpen(item.id);
    },
  });
  const zoomer = useRef(zoom);
  zoomer.current = zoom;

  useImperativeHandle(ref, () => ({
    zoomBy: (factor) => zoomer.current.zoomBy(factor),
    fit: () => zoomer.current.fit(),
    zoomTo: (next) => zoomer.current.zoomTo(next),
    view: () => zoomer.current.view(),
    plan: (at) => planFrame(latest.current.h, at, latest.current.size),
  }));

  // Anything else that changes the picture is drawn at the next frame.
  useEffect(() => schedule());
  useEffect(
    () => () => {
      pending.current?.stop();
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

  const showHover = (item: Item | null, clientX: number) => {
    if (item?.from !== hover.current?.from || item?.layer !== hover.current?.layer) {
      hover.current = item;
      schedule();
    }
    if (frame.current !== null) onHover?.(item, clientX, frame.current);
  };

  return (
    <div className="tree-canvas" ref={wrapRef} style={{ height }}>
      <canvas
        ref={canvasRef}
        className="tree-icicle"
        role="img"
        aria-label="Tree view"
        aria-describedby={describedBy}
        // Hover is the mouse's and the pen's (a finger has none); no tooltip while a button drags the view.
        onPointerDown={() => showHover(null, 0)}
        onPointerMove={(e) => {
          if (e.pointerType === 'touch' || e.buttons !== 0) return;
          showHover(hitAt(e.clientX, e.clientY) ?? null, e.clientX);
        }}
        onPointerLeave={() => showHover(null, 0)}
      />
    </div>
  );
}

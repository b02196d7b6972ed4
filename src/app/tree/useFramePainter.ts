/**
 * Paints the icicle's frames on its canvas: every change is drawn at the next animation frame through d3-timer
 * (the clock d3's transitions tick on, so a glide's step and its paint share a frame), never synchronously, so
 * a burst of wheel or touch events costs one frame. icicle.ts plans the frame, draw.ts paints it in the
 * theme's colours; a change of theme repaints.
 *
 * Contract relied on by end-to-end tests and the view bench: after each drawn frame the canvas has
 * data-view="x0 x1" (the leaf slots shown) and data-frames (frames drawn).
 */
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { timeout, type Timer } from 'd3-timer';
import { readPalette, drawFrame, type DrawInput, type Palette } from './draw';
import type { Hierarchy } from './hierarchy';
import { planFrame, type Frame, type Item, type View } from './icicle';
import type { ElementSize } from './useElementSize';

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

/** What a frame is drawn from, read when it is drawn (the canvas's latest props). */
export interface PaintSource {
  h: Hierarchy;
  marks: CanvasMarks;
  size: ElementSize;
  onFrame?(info: FrameInfo): void;
}

/** What `useFramePainter` paints on, and where it reads the view (the zoom, once attached). */
export interface FramePainterOptions {
  canvasRef: RefObject<HTMLCanvasElement | null>;
  latest: { readonly current: PaintSource };
  zoom: { readonly current: { view(): View } | null };
}

/** The painter: `schedule` a frame, the last `frame` drawn (for hit tests), and the `hover` to draw. */
export function useFramePainter({ canvasRef, latest, zoom }: FramePainterOptions) {
  const frame = useRef<Frame | null>(null);
  const pending = useRef<Timer | null>(null);
  const requestedAt = useRef(0);
  const frames = useRef(0);
  const hover = useRef<Item | null>(null);
  const palette = useRef<{ key: string; value: Palette } | null>(null);

  const paint = useCallback(() => {
    pending.current = null;
    const canvas = canvasRef.current;
    const { h: tree, marks: m, size: s } = latest.current;
    if (canvas === null || zoom.current === null || s.width === 0 || s.height === 0) return;
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
    const view = zoom.current.view();
    const planned = planFrame(tree, view, s);
    frame.current = planned;
    const colours = paletteOf(canvas, palette);
    drawFrame(ctx, { ...m, frame: planned, h: tree, palette: colours, hover: hover.current });
    frames.current++;
    canvas.dataset.view = `${view.x0} ${view.x1}`;
    canvas.dataset.frames = String(frames.current);
    const ended = performance.now();
    latest.current.onFrame?.({ drawMs: ended - started, view, latencyMs: ended - requestedAt.current });
  }, [canvasRef, latest, zoom]);

  /** Draws at the next animation frame (d3-timer's: inside a glide's tick, the same frame). */
  const schedule = useCallback(() => {
    if (pending.current === null) {
      requestedAt.current = performance.now();
      pending.current = timeout(paint);
    }
  }, [paint]);

  /** The node or run under the pointer, drawn highlighted (a new one is drawn at the next frame). */
  const setHover = useCallback(
    (item: Item | null) => {
      if (item?.from === hover.current?.from && item?.layer === hover.current?.layer) return;
      hover.current = item;
      schedule();
    },
    [schedule],
  );

  // Anything else that changes the picture is drawn at the next frame.
  useEffect(() => schedule());
  useEffect(
    () => () => {
      pending.current?.stop();
      pending.current = null;
    },
    [],
  );
  useRepaintOnTheme();

  return { frame, schedule, setHover };
}

/** The theme's colours, read from the canvas's styles again only when the theme changes. */
function paletteOf(
  canvas: HTMLCanvasElement,
  cache: { current: { key: string; value: Palette } | null },
): Palette {
  const key = `${document.documentElement.dataset.theme ?? ''}:${matchMedia('(prefers-color-scheme: dark)').matches}`;
  if (cache.current?.key !== key) cache.current = { key, value: readPalette(canvas) };
  return cache.current.value;
}

/** Theme changes (the app's setting or the system's) re-render, so the frame is repainted in the new colours. */
function useRepaintOnTheme(): void {
  const [, setDrawn] = useState(0);
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
}

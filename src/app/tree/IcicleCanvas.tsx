/**
 * The icicle on a <canvas>: one row per layer, each node over its primary subtree's leaves (icicle.ts plans a
 * frame, draw.ts paints it). d3-zoom owns the view (useIcicleZoom.ts): the wheel zooms about the pointer, a
 * drag or one finger pans, two fingers pinch, a double-tap zooms in; a click or tap on a run or a summary zooms
 * to it (a summary also opens), on a leaf opens it. Every change is drawn at the next animation frame
 * (useFramePainter.ts), so a burst of wheel or touch events costs one frame. The canvas is not a tab stop: the
 * outline below is the keyboard's and screen reader's way through the same hierarchy, and the canvas follows it.
 *
 * Contract relied on by end-to-end tests and the view bench: the canvas has aria-label="Tree view",
 * data-view="x0 x1" (the leaf slots shown, after each drawn frame) and data-frames (frames drawn).
 */
import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';
import type { Hierarchy } from './hierarchy';
import { itemAt, layerAt, planFrame, spanView, type Frame, type Item, type View } from './icicle';
import { useElementSize } from './useElementSize';
import { useFramePainter, type CanvasMarks, type FrameInfo } from './useFramePainter';
import { useIcicleZoom, type IcicleZoom } from './useIcicleZoom';

/** The view settles this long after the last zoom event before the breadcrumb hears of it (ms). */
const SETTLE_MS = 60;

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
  const latest = useRef({ h, marks, size, onFrame, onViewChange, onOpen });
  latest.current = { h, marks, size, onFrame, onViewChange, onOpen };
  const zoomer = useRef<IcicleZoom | null>(null);
  const { frame, schedule, setHover } = useFramePainter({ canvasRef, latest, zoom: zoomer });
  const settle = useSettle(() => latest.current.onViewChange?.(zoom.view()));
  const hitAt = (clientX: number, clientY: number) =>
    hitTest(canvasRef.current, frame.current, clientX, clientY);

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
      if (item.id === -1 || item.layer > 0) zoomInto(zoom, item);
      if (item.id !== -1) latest.current.onOpen(item.id);
    },
  });
  zoomer.current = zoom;

  useImperativeHandle(ref, () => ({
    zoomBy: (factor) => zoom.zoomBy(factor),
    fit: () => zoom.fit(),
    zoomTo: (next) => zoom.zoomTo(next),
    view: () => zoom.view(),
    plan: (at) => planFrame(latest.current.h, at, latest.current.size),
  }));

  const showHover = (item: Item | null, clientX: number) => {
    setHover(item);
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

/** The node or run under a client point in the last frame drawn, if any. */
function hitTest(
  canvas: HTMLCanvasElement | null,
  frame: Frame | null,
  clientX: number,
  clientY: number,
): Item | undefined {
  if (canvas === null || frame === null) return undefined;
  const rect = canvas.getBoundingClientRect();
  const layer = layerAt(frame, clientY - rect.top);
  return layer === undefined ? undefined : itemAt(frame, layer, clientX - rect.left);
}

/** A click on a run or a summary glides to its span (unless the view is there already). */
function zoomInto(zoom: IcicleZoom, item: Item): void {
  const target = spanView(item.start, item.span);
  const now = zoom.view();
  if (Math.abs(target.x0 - now.x0) > 1e-6 || Math.abs(target.x1 - now.x1) > 1e-6) zoom.zoomTo(target);
}

/** `settle()` calls `onSettled` once the zoom events stop for SETTLE_MS (a glide, a drag or a wheel burst). */
function useSettle(onSettled: () => void): () => void {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef(onSettled);
  latest.current = onSettled;
  useEffect(() => () => clearTimeout(timer.current), []);
  return () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => latest.current(), SETTLE_MS);
  };
}

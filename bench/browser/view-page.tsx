/**
 * The tree view benchmark page: bench/view.bench.ts drives it with Playwright through `window.aerieViewBench`.
 * `prepare(nodes)` generates a RAPTOR-shaped tree (tests/support/synthetic-tree.ts) and labels it, outside
 * any timing; `mount()` renders the app's TreeView and resolves when its first frame is painted (first draw);
 * `zoomSteps()`, `pinch()`, `pan()` and `drag()` drive the canvas as a user does (wheel events, two touch
 * points moving apart and together, a sideways wheel, a mouse drag) one animation frame apart and report each
 * frame's drawing time and how many animation frames each step took to be answered. (Pages of revisions from
 * before d3-zoom have no `pinch` or `drag`: they could not pinch, and panned with the sideways wheel only.)
 * Touch needs a page made with `hasTouch`.
 */
import { createRoot, type Root } from 'react-dom/client';
import { flushSync } from 'react-dom';
import { fillMissingLabels } from '../../src/core/labels';
import type { RaptorTree } from '../../src/core/types';
import type { FrameInfo } from '../../src/app/tree/useFramePainter';
import { TreeView } from '../../src/app/tree/TreeView';
import { syntheticTree } from '../../tests/support/synthetic-tree';

/** What a mount measured. */
export interface MountResult {
  nodes: number;
  layers: number;
  /** Milliseconds from rendering the view to the end of its first painted frame. */
  firstDrawMs: number;
  /** JS heap growth from the view (after a GC on both sides), in bytes; undefined without `gc`. */
  heapBytes?: number;
}

/** What a run of interactions measured. */
export interface FramesResult {
  /** Milliseconds each frame spent planning and painting. */
  drawMs: number[];
  /** For each wheel step: animation frames from the event to the frame that showed the new view. */
  answeredInFrames: number[];
}

declare global {
  interface Window {
    aerieViewBench: {
      prepare(nodes: number): { nodes: number };
      mount(): Promise<MountResult>;
      zoomSteps(steps: number): Promise<FramesResult>;
      pan(steps: number): Promise<FramesResult>;
      pinch?(steps: number): Promise<FramesResult>;
      drag?(steps: number): Promise<FramesResult>;
      unmount(): void;
    };
    gc?: () => void;
  }
}

let tree: RaptorTree | undefined;
let root: Root | undefined;
/** Each drawn frame, with when its painting ended. */
const frames: (FrameInfo & { at: number })[] = [];

const nextFrame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));
const heap = () => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize;

function canvas(): HTMLCanvasElement {
  const el = document.querySelector<HTMLCanvasElement>('canvas[aria-label="Tree view"]');
  if (el === null) throw new Error('The tree view is not mounted.');
  return el;
}

/** Counts animation frames until a frame with a different view is drawn (or `limit` frames pass). */
async function framesUntilNewView(before: string, limit = 30): Promise<number> {
  for (let n = 1; n <= limit; n++) {
    await nextFrame();
    if (canvas().dataset.view !== before) return n;
  }
  return Infinity;
}

/** Zooms in 16× about the centre with the wheel, so there is room to pan. */
async function zoomIn(el: HTMLCanvasElement) {
  const box = el.getBoundingClientRect();
  for (let i = 0; i < 4; i++) {
    el.dispatchEvent(
      new WheelEvent('wheel', {
        deltaY: -500,
        clientX: box.left + box.width / 2,
        clientY: box.top + 40,
        bubbles: true,
        cancelable: true,
      }),
    );
    await nextFrame();
  }
  // Past the wheel gesture's end (d3-zoom ends it 150 ms after the last event).
  await new Promise((resolve) => setTimeout(resolve, 200));
}

/** A touch event of `type` on `el` with fingers at client x positions `xs` (all at height `y`). */
function touchEvent(el: HTMLCanvasElement, type: string, xs: number[], y: number, changed = xs): TouchEvent {
  const touch = (x: number, identifier: number) =>
    new Touch({ identifier, target: el, clientX: x, clientY: y, radiusX: 4, radiusY: 4, force: 1 });
  const touches = type === 'touchend' ? [] : xs.map(touch);
  return new TouchEvent(type, {
    touches,
    targetTouches: touches,
    changedTouches: changed.map(touch),
    bubbles: true,
    cancelable: true,
  });
}

window.aerieViewBench = {
  prepare(nodes) {
    tree = syntheticTree({ nodes });
    fillMissingLabels(tree.nodes);
    return { nodes: tree.nodes.length };
  },
  async mount() {
    if (tree === undefined) throw new Error('prepare() first');
    const t = tree;
    window.gc?.();
    const before = heap();
    frames.length = 0;
    const container = document.getElementById('root')!;
    const started = performance.now();
    root = createRoot(container);
    flushSync(() =>
      root!.render(
        <TreeView
          tree={t}
          selections={{}}
          onOpenNode={() => undefined}
          onFrame={(f) => frames.push({ ...f, at: performance.now() })}
        />,
      ),
    );
    while (frames.length === 0) await nextFrame();
    const firstDrawMs = frames[0].at - started;
    await nextFrame();
    window.gc?.();
    const after = heap();
    const layers = Math.max(...t.nodes.map((n) => n.layer)) + 1;
    return {
      nodes: t.nodes.length,
      layers,
      firstDrawMs,
      heapBytes: before !== undefined && after !== undefined && window.gc ? after - before : undefined,
    };
  },
  async zoomSteps(steps) {
    const el = canvas();
    const box = el.getBoundingClientRect();
    frames.length = 0;
    const answered: number[] = [];
    for (let i = 0; i < steps; i++) {
      const before = el.dataset.view ?? '';
      // In for the first half, back out for the second, about different points.
      const deltaY = i < steps / 2 ? -120 : 120;
      const x = box.left + box.width * (0.2 + (0.6 * i) / steps);
      el.dispatchEvent(
        new WheelEvent('wheel', {
          deltaY,
          clientX: x,
          clientY: box.top + 40,
          bubbles: true,
          cancelable: true,
        }),
      );
      answered.push(await framesUntilNewView(before));
    }
    return { drawMs: frames.map((f) => f.drawMs), answeredInFrames: answered };
  },
  async pan(steps) {
    const el = canvas();
    const box = el.getBoundingClientRect();
    await zoomIn(el);
    frames.length = 0;
    const answered: number[] = [];
    for (let i = 0; i < steps; i++) {
      const before = el.dataset.view ?? '';
      el.dispatchEvent(
        new WheelEvent('wheel', {
          deltaX: i < steps / 2 ? 40 : -40,
          clientX: box.left + 100,
          clientY: box.top + 40,
          bubbles: true,
          cancelable: true,
        }),
      );
      answered.push(await framesUntilNewView(before));
    }
    return { drawMs: frames.map((f) => f.drawMs), answeredInFrames: answered };
  },
  async pinch(steps) {
    const el = canvas();
    const box = el.getBoundingClientRect();
    const centre = box.left + box.width * 0.45;
    const y = box.top + box.height / 2;
    frames.length = 0;
    const answered: number[] = [];
    // Two fingers 40 px apart spread to 40 + 8·steps/2 px (zooming in), then close again (zooming out).
    let gap = 40;
    el.dispatchEvent(touchEvent(el, 'touchstart', [centre - gap / 2, centre + gap / 2], y));
    await nextFrame();
    for (let i = 0; i < steps; i++) {
      const before = el.dataset.view ?? '';
      gap += i < steps / 2 ? 8 : -8;
      el.dispatchEvent(touchEvent(el, 'touchmove', [centre - gap / 2, centre + gap / 2], y));
      answered.push(await framesUntilNewView(before));
    }
    el.dispatchEvent(touchEvent(el, 'touchend', [], y, [centre - gap / 2, centre + gap / 2]));
    await nextFrame();
    return { drawMs: frames.map((f) => f.drawMs), answeredInFrames: answered };
  },
  async drag(steps) {
    const el = canvas();
    const box = el.getBoundingClientRect();
    await zoomIn(el);
    const y = box.top + 40;
    let x = box.left + box.width / 2;
    const mouse = (type: string) =>
      new MouseEvent(type, { clientX: x, clientY: y, view: window, bubbles: true, cancelable: true });
    el.dispatchEvent(mouse('mousedown'));
    frames.length = 0;
    const answered: number[] = [];
    for (let i = 0; i < steps; i++) {
      const before = el.dataset.view ?? '';
      x += i < steps / 2 ? 12 : -12;
      el.dispatchEvent(mouse('mousemove'));
      answered.push(await framesUntilNewView(before));
    }
    const drawMs = frames.map((f) => f.drawMs);
    el.dispatchEvent(mouse('mouseup'));
    return { drawMs, answeredInFrames: answered };
  },
  unmount() {
    root?.unmount();
    root = undefined;
  },
};

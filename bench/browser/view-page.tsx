/**
 * The tree view benchmark page: bench/view.bench.ts drives it with Playwright through `window.aerieViewBench`.
 * `prepare(nodes)` generates a RAPTOR-shaped tree (tests/support/synthetic-tree.ts) and labels it, outside
 * any timing; `mount()` renders the app's TreeView and resolves when its first frame is painted (first draw);
 * `zoomSteps()` and `pan()` drive the canvas as a user does (wheel events, a drag) one animation frame apart
 * and report each frame's drawing time and how many animation frames each wheel step took to be answered.
 */
import { createRoot, type Root } from 'react-dom/client';
import { flushSync } from 'react-dom';
import { fillMissingLabels } from '../../src/core/labels/labels';
import type { RaptorTree } from '../../src/core/types';
import type { FrameInfo } from '../../src/app/tree/IcicleCanvas';
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
    // Zoomed in 16× first, so there is room to pan.
    for (let i = 0; i < 4; i++) {
      el.dispatchEvent(
        new WheelEvent('wheel', {
          deltaY: -300,
          clientX: box.left + box.width / 2,
          clientY: box.top + 40,
          bubbles: true,
          cancelable: true,
        }),
      );
      await nextFrame();
    }
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
  unmount() {
    root?.unmount();
    root = undefined;
  },
};

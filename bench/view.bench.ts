/**
 * `npm run bench view`: the tree view at 1k, 14k, 50k and 100k nodes (14k is a 1M-token tree: the KJV built
 * here has 14,210 nodes) in headless Chromium, as the app draws it (TreeView at its size in the centre column at
 * 1440×900, 660 px wide), from a production build of the bench page, in a page with touch (`hasTouch`). Trees
 * are generated (tests/support/synthetic-tree.ts) and labelled before any timing. Figures: first draw (render to
 * the first painted frame: the hierarchy, the outline's first items and the first frame), each frame's drawing
 * time while zooming with the wheel, pinching (two touch points), panning with a sideways wheel and dragging
 * with the mouse (median and p95), the animation frames each step takes to be answered, and the JS heap the
 * view adds. There is no native reference for a view: each figure is printed beside the goal at 100k
 * nodes (first draw ≤ 400 ms, p95 frame ≤ 8 ms, every step answered within one animation frame).
 * `AERIE_BENCH_VS=<revision>` also builds that revision's bench page and mounts it alternately with this one
 * (A B A B …), printing its lines beside ours ("before" and "after" in one run, as the machine's load drifts).
 * `AERIE_VIEW_SIZES=100000,…` picks sizes. The layout line times d3-hierarchy's partition against ours
 * (bench/view-layout.ts).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { build as viteBuild } from 'vite';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/chromium';
import type { FramesResult, MountResult } from './browser/view-page';
import { checkout } from './build/paired';
import { notMeasured, type BenchLine, type BenchRow } from './lines';
import { ROOT, startPreviewServer } from './support';
import { layoutRows } from './view-layout';

const PAGE_PATH = '/bench/browser/view.html';
/** The production build of the bench page: React's production build, as the app ships. */
const OUT_DIR = join(ROOT, '.bench-cache', 'view-dist');
const SIZES = [1_000, 14_000, 50_000, 100_000];
/** Mounts per size (fresh page each); the median counts. */
const MOUNTS = 5;
const STEPS = 40;
/** The goals at 100k nodes, on 2 cores. */
const GOAL_FIRST_DRAW_MS = 400;
const GOAL_FRAME_MS = 8;
const GOAL_ANSWER_FRAMES = 1;
const GOAL_LABEL = 'goal at 100k nodes';
const MB = 1e6;

/** The gestures, by the page's method. */
const GESTURES = [
  ['zoomSteps', 'zoom (wheel)'],
  ['pinch', 'pinch (two fingers)'],
  ['pan', 'pan (sideways wheel)'],
  ['drag', 'drag (mouse)'],
] as const;
type Gesture = (typeof GESTURES)[number][0];

/** One revision's bench page. */
interface Page {
  label: string;
  origin: string;
  close(): Promise<void>;
}

/** What one revision measured at one size. */
interface Measured {
  mounts: MountResult[];
  gestures: Partial<Record<Gesture, FramesResult>>;
}

/** The q-quantile of `values` (nearest rank); NaN for none. */
export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

async function buildPage(root: string, outDir: string): Promise<void> {
  await viteBuild({
    configFile: join(root, 'vite.config.ts'),
    root,
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, rolldownOptions: { input: join(root, PAGE_PATH) } },
  });
}

async function servePage(label: string, root: string, outDir: string): Promise<Page> {
  await buildPage(root, outDir);
  const { server, origin } = await startPreviewServer(outDir);
  return { label, origin, close: () => server.close() };
}

/** Mounts the view once in a fresh page; on the first run also drives every gesture the page has. */
async function measureOnce(browser: Browser, page: Page, size: number, into: Measured, first: boolean) {
  const tab = await browser.newPage({ viewport: { width: 1440, height: 900 }, hasTouch: true });
  try {
    await tab.goto(`${page.origin}${PAGE_PATH}`);
    await tab.waitForFunction(() => window.aerieViewBench !== undefined);
    await tab.evaluate((n) => window.aerieViewBench.prepare(n), size);
    into.mounts.push(await tab.evaluate(() => window.aerieViewBench.mount()));
    if (!first) return;
    for (const [method] of GESTURES) {
      // A fresh mount per gesture, so each starts at Fit.
      if (method !== 'zoomSteps') {
        await tab.evaluate(() => window.aerieViewBench.unmount());
        await tab.evaluate(() => window.aerieViewBench.mount());
      }
      const result = await tab.evaluate(
        ([m, steps]) => {
          const bench = window.aerieViewBench as unknown as Record<
            string,
            ((n: number) => Promise<FramesResult>) | undefined
          >;
          return bench[m]?.(steps) ?? null;
        },
        [method, STEPS] as const,
      );
      if (result !== null) into.gestures[method] = result;
    }
  } finally {
    await tab.close();
  }
}

/** The lines of one revision at one size, each beside the goal. */
function linesOf(measured: Measured, label: string): BenchRow[] {
  const { mounts, gestures } = measured;
  const tag = `${mounts[0].nodes.toLocaleString('en')} nodes, ${mounts[0].layers} layers${label}`;
  const goal = (name: string, value: number, unit: string, reference: number, note?: string): BenchRow => ({
    name: `view ${name} (${tag})`,
    value,
    unit,
    reference,
    referenceLabel: GOAL_LABEL,
    higherIsBetter: false,
    target: 1,
    note,
  });
  const first = mounts.map((m) => m.firstDrawMs);
  const rows = [
    goal(
      'first draw, median',
      quantile(first, 0.5),
      'ms',
      GOAL_FIRST_DRAW_MS,
      `of ${mounts.length}: ${first.map((x) => x.toFixed(0)).join(', ')}`,
    ),
  ];
  const missing: string[] = [];
  for (const [method, what] of GESTURES) {
    const result = gestures[method];
    if (result === undefined) {
      missing.push(what);
      continue;
    }
    rows.push(
      goal(
        `${what} frame, p95`,
        quantile(result.drawMs, 0.95),
        'ms',
        GOAL_FRAME_MS,
        `median ${quantile(result.drawMs, 0.5).toFixed(2)} ms over ${result.drawMs.length} frames`,
      ),
      goal(
        `${what} step answered, worst`,
        Math.max(...result.answeredInFrames.map((n) => (Number.isFinite(n) ? n : 999))),
        'frames',
        GOAL_ANSWER_FRAMES,
        `median ${quantile(result.answeredInFrames, 0.5)} over ${result.answeredInFrames.length} steps` +
          (result.answeredInFrames.some((n) => !Number.isFinite(n)) ? '; 999 = never answered' : ''),
      ),
    );
  }
  const heaps = mounts.map((m) => m.heapBytes).filter((b): b is number => b !== undefined);
  rows.push({
    name: `view JS heap added (${tag})`,
    value: quantile(heaps, 0.5) / MB,
    unit: 'MB',
    higherIsBetter: false,
    noReference: 'no goal in the issue; what the view itself holds',
    note:
      'median of the mounts; the tree itself is in memory before and after' +
      (missing.length > 0 ? `; this page has no ${missing.join(' or ')}` : ''),
  });
  return rows;
}

/** Runs the view bench; see the module comment. */
export async function benchView(): Promise<BenchLine[]> {
  const sizes = (process.env.AERIE_VIEW_SIZES ?? '')
    .split(',')
    .map(Number)
    .filter((n) => n > 0);
  const picked = sizes.length > 0 ? sizes : SIZES;
  const lines: BenchLine[] = layoutRows(Math.max(...picked));
  if (!existsSync(CHROMIUM_PATH)) {
    return [
      ...lines,
      notMeasured(
        'view at 1k, 14k, 50k and 100k nodes',
        `no Chromium at ${CHROMIUM_PATH} (set AERIE_CHROMIUM)`,
      ),
    ];
  }
  const pages = [await servePage('', ROOT, OUT_DIR)];
  const versus = process.env.AERIE_BENCH_VS;
  if (versus) {
    const { dir, commit } = checkout(versus);
    const short = commit.slice(0, 12);
    console.log(`Building ${versus} (${short})'s view bench page…`);
    pages.push(
      await servePage(` — ${versus} ${short}`, dir, join(ROOT, '.bench-cache', 'vs-view-dist', short)),
    );
  }
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, '--enable-precise-memory-info', '--js-flags=--expose-gc'],
  });
  try {
    for (const size of picked) {
      const measured = pages.map((): Measured => ({ mounts: [], gestures: {} }));
      // Alternating A B A B…, so the pages see the same load.
      for (let run = 0; run < MOUNTS; run++) {
        for (let p = 0; p < pages.length; p++)
          await measureOnce(browser, pages[p], size, measured[p], run === 0);
      }
      pages.forEach((page, p) => lines.push(...linesOf(measured[p], page.label)));
      console.log(`  view at ${size} nodes measured`);
    }
  } finally {
    await browser.close();
    for (const page of pages) await page.close();
  }
  return lines;
}

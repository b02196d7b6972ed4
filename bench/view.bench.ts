/**
 * `npm run bench view`: the tree view at 1k, 14k and 50k nodes (14k is a 1M-token tree: the KJV built here
 * has 14,210 nodes) in headless Chromium, as the app draws it (TreeView at its size in the centre column at
 * 1440×900, 660 px wide), from a production build of the bench page. Trees are generated (tests/support/synthetic-tree.ts) and labelled before any
 * timing. Figures: first draw (render to the first painted frame: the hierarchy, the outline's first items
 * and the first frame), each frame's drawing time while zooming with the wheel and while panning (median and
 * p95), the animation frames a wheel step takes to be answered, and the JS heap the view adds. There is no
 * native reference for a view: each figure is printed beside the goal at 14k nodes (first draw
 * ≤ 250 ms, p95 frame ≤ 16 ms, a zoom step answered within two animation frames), which the ratio compares.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { build as viteBuild } from 'vite';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/chromium';
import type { FramesResult, MountResult } from './browser/view-page';
import { notMeasured, type BenchLine, type BenchRow } from './lines';
import { ROOT, startPreviewServer } from './support';

const PAGE_PATH = '/bench/browser/view.html';
/** The production build of the bench page: React's production build, as the app ships. */
const OUT_DIR = join(ROOT, '.bench-cache', 'view-dist');
const SIZES = [1_000, 14_000, 50_000];
/** Mounts per size (fresh page each); the median counts. */
const MOUNTS = 5;
const WHEEL_STEPS = 40;
const PAN_STEPS = 40;
/** The goals at 14k nodes. */
const GOAL_FIRST_DRAW_MS = 250;
const GOAL_FRAME_MS = 16;
const GOAL_ANSWER_FRAMES = 2;
const MB = 1e6;

/** The q-quantile of `values` (nearest rank); NaN for none. */
export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** Runs the view bench; see the module comment. */
export async function benchView(): Promise<BenchLine[]> {
  if (!existsSync(CHROMIUM_PATH)) {
    return [
      notMeasured('view at 1k, 14k and 50k nodes', `no Chromium at ${CHROMIUM_PATH} (set AERIE_CHROMIUM)`),
    ];
  }
  await viteBuild({
    configFile: join(ROOT, 'vite.config.ts'),
    root: ROOT,
    logLevel: 'warn',
    build: { outDir: OUT_DIR, emptyOutDir: true, rolldownOptions: { input: join(ROOT, PAGE_PATH) } },
  });
  const { server, origin } = await startPreviewServer(OUT_DIR);
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, '--enable-precise-memory-info', '--js-flags=--expose-gc'],
  });
  const rows: BenchRow[] = [];
  try {
    for (const size of SIZES) {
      const mounts: MountResult[] = [];
      let zoom: FramesResult | undefined;
      let pan: FramesResult | undefined;
      for (let run = 0; run < MOUNTS; run++) {
        const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
        await page.goto(`${origin}${PAGE_PATH}`);
        await page.waitForFunction(() => window.aerieViewBench !== undefined);
        await page.evaluate((n) => window.aerieViewBench.prepare(n), size);
        mounts.push(await page.evaluate(() => window.aerieViewBench.mount()));
        if (run === 0) {
          zoom = await page.evaluate((n) => window.aerieViewBench.zoomSteps(n), WHEEL_STEPS);
          pan = await page.evaluate((n) => window.aerieViewBench.pan(n), PAN_STEPS);
        }
        await page.close();
      }
      const nodes = mounts[0].nodes;
      const tag = `${nodes.toLocaleString('en')} nodes, ${mounts[0].layers} layers`;
      const goal = (
        name: string,
        value: number,
        unit: string,
        reference: number,
        note?: string,
      ): BenchRow => ({
        name: `view ${name} (${tag})`,
        value,
        unit,
        reference,
        referenceLabel: 'goal at 14k nodes',
        higherIsBetter: false,
        target: 1,
        note,
      });
      const first = mounts.map((m) => m.firstDrawMs);
      rows.push(
        goal(
          'first draw, median',
          quantile(first, 0.5),
          'ms',
          GOAL_FIRST_DRAW_MS,
          `of ${MOUNTS}: ${first.map((x) => x.toFixed(0)).join(', ')}`,
        ),
      );
      for (const [what, result] of [
        ['zoom (wheel)', zoom!],
        ['pan', pan!],
      ] as const) {
        rows.push(
          goal(
            `${what} frame, p95`,
            quantile(result.drawMs, 0.95),
            'ms',
            GOAL_FRAME_MS,
            `median ${quantile(result.drawMs, 0.5).toFixed(2)} ms over ${result.drawMs.length} frames`,
          ),
        );
        rows.push(
          goal(
            `${what} step answered, worst`,
            Math.max(...result.answeredInFrames),
            'frames',
            GOAL_ANSWER_FRAMES,
            `median ${quantile(result.answeredInFrames, 0.5)} over ${result.answeredInFrames.length} steps`,
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
        note: 'median of the mounts; the tree itself is in memory before and after',
      });
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return rows;
}

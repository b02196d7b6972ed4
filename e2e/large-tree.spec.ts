/**
 * A 1M-token tree's size in the app: a generated 14,000-node tree (tests/support/synthetic-tree.ts, written as
 * a tree file and imported as a user imports one; it has no labels, like a tree saved before them, so the
 * app labels it on opening, in a worker, while the page stays responsive) draws, answers a zoom, opens the
 * outline, and finds a term. The view bench (`npm run bench view`) times the same sizes; this test only checks
 * that it all works at this size.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serializeTree } from '../src/core/tree-format';
import { syntheticTree } from '../tests/support/synthetic-tree';
import { treeCanvas } from './support/app';
import { expect, test } from './support/fixtures';

const NODES = 14_000;
/**
 * While the labels worker runs, the page's thread has nothing to do but hand it the nodes and take the labels
 * back; a task longer than this then means labelling (~1 s of CPU for this tree) ran on the page's thread.
 */
const LONG_TASK_LIMIT_MS = 250;

declare global {
  interface Window {
    __longTasks?: { start: number; duration: number }[];
  }
}

test('a 14,000-node tree opens, draws, answers a zoom and finds a term', async ({ page }) => {
  test.setTimeout(120_000);
  const folder = mkdtempSync(join(tmpdir(), 'aerie-large-'));
  const file = join(folder, 'large.raptor.json');
  const tree = syntheticTree({ nodes: NODES });
  writeFileSync(file, serializeTree(tree));
  try {
    await page.setViewportSize({ width: 1440, height: 900 });
    // Every task of the page's thread longer than 50 ms (the Long Tasks API), in epoch milliseconds.
    await page.addInitScript(() => {
      const tasks: { start: number; duration: number }[] = (window.__longTasks = []);
      new PerformanceObserver((list) => {
        for (const e of list.getEntries())
          tasks.push({ start: performance.timeOrigin + e.startTime, duration: e.duration });
      }).observe({ type: 'longtask', buffered: true });
    });
    // When the labels worker starts and ends.
    const labelling: { start?: number; end?: number } = {};
    page.on('worker', (worker) => {
      if (!worker.url().includes('labels.worker')) return;
      labelling.start = Date.now();
      worker.on('close', () => (labelling.end = Date.now()));
    });
    await page.goto('/');
    await page.getByRole('region', { name: 'Library' }).getByLabel('Tree file to import').setInputFiles(file);
    const canvas = treeCanvas(page);
    await expect(canvas).toBeAttached({ timeout: 60_000 });
    // Labelled in a worker, which has ended; no long task of the page's thread while it worked.
    expect(labelling.start, 'a labels worker started').toBeDefined();
    await expect.poll(() => labelling.end, { message: 'the labels worker ended' }).toBeDefined();
    const during = (await page.evaluate(() => window.__longTasks ?? [])).filter(
      (t) => t.start < labelling.end! && t.start + t.duration > labelling.start!,
    );
    expect(Math.max(0, ...during.map((t) => t.duration))).toBeLessThan(LONG_TASK_LIMIT_MS);
    await expect(page.locator('.tree-legend-size')).toHaveText(
      `${tree.nodes.length} nodes · ${Math.max(...tree.nodes.map((n) => n.layer)) + 1} layers`,
    );
    // Labelled on opening: the root line and the outline's items carry topic terms.
    await expect(page.locator('.root-line')).not.toBeEmpty();
    const top = page.getByRole('tree', { name: 'Tree outline' }).locator(':scope > [role="treeitem"]');
    await expect(top.first()).toHaveAttribute('aria-label', /^[^,]+(, [^,]+)+, layer \d+, \d+ children$/);
    // Drawn: the canvas has pixels other than its background.
    const colours = await canvas.evaluate((el) => {
      const c = el as HTMLCanvasElement;
      const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      const seen = new Set<number>();
      for (let i = 0; i < data.length; i += 4 * 97)
        seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
      return seen.size;
    });
    expect(colours).toBeGreaterThan(3);
    const view = async () => ((await canvas.getAttribute('data-view')) ?? '').split(' ').map(Number);
    const [x0, x1] = await view();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await expect.poll(async () => ((await view())[1] - (await view())[0]) / (x1 - x0)).toBeCloseTo(0.5, 3);
    // Opening the first top node zooms to it and opens its branch: only its children join the page.
    await top.first().locator('.tree-outline-row').click();
    await expect(top.first()).toHaveAttribute('aria-expanded', 'true');
    await expect(
      page.getByRole('region', { name: 'Outline' }).getByRole('button', { name: 'Expand all' }),
    ).toBeDisabled();
    await page.getByRole('searchbox', { name: 'Find in the tree' }).fill('Rosalind');
    await expect(page.locator('.tree-find-count')).toHaveText(/^\d+ matches$/);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

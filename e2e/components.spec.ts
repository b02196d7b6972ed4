/**
 * The tree and document components on their harness page (dev/components.html, served by the Vite dev
 * server): the data-* contract other end-to-end tests rely on, keyboard use, and text shown as text.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';

const HARNESS = '/dev/components.html';
const MODES = ['collapsed', 'traversal', 'leaves'];

async function open(page: Page, query: string) {
  await page.goto(`${HARNESS}?${query}`);
  // data-lod appears once the first fit has been applied.
  await expect(page.locator('svg[aria-label="Tree view"]')).toHaveAttribute('data-lod', /far|mid|near/);
}

test('every node carries data-node-id, data-layer and data-selected', async ({ page }) => {
  await open(page, 'tree=small&theme=light');
  const nodes = page.locator('svg[aria-label="Tree view"] [data-node-id]');
  const count = await nodes.count();
  expect(count).toBeGreaterThan(30);
  const attrs = await nodes.evaluateAll((els) =>
    els.map((el) => ({
      id: Number(el.getAttribute('data-node-id')),
      layer: Number(el.getAttribute('data-layer')),
      selected: el.getAttribute('data-selected'),
    })),
  );
  expect(new Set(attrs.map((a) => a.id)).size).toBe(count);
  expect(attrs.map((a) => a.id).sort((a, b) => a - b)).toEqual(Array.from({ length: count }, (_, i) => i));
  for (const a of attrs) {
    expect(Number.isInteger(a.layer) && a.layer >= 0).toBe(true);
    expect(a.selected).not.toBeNull();
    for (const mode of (a.selected ?? '').split(' ').filter(Boolean)) expect(MODES).toContain(mode);
  }
  // Fitted, the small tree is drawn in full detail: every node has its id written on it.
  await expect(page.locator('svg[aria-label="Tree view"]')).toHaveAttribute('data-lod', 'near');
  await expect(page.locator('.tree-node-label')).toHaveCount(count);
  // The legend's count per mode matches the nodes marked with it.
  for (const [mode, label] of [
    ['collapsed', 'Collapsed tree'],
    ['traversal', 'Tree traversal'],
    ['leaves', 'Leaves only'],
  ]) {
    const legend = await page.locator('.tree-legend-mode', { hasText: label }).textContent();
    const marked = attrs.filter((a) => (a.selected ?? '').split(' ').includes(mode)).length;
    expect(legend).toContain(`(${marked})`);
  }
});

test('data-selected is empty everywhere without a selection', async ({ page }) => {
  await open(page, 'tree=small&modes=none');
  const selected = await page
    .locator('svg[aria-label="Tree view"] [data-node-id]')
    .evaluateAll((els) => els.map((el) => el.getAttribute('data-selected')));
  expect(selected.length).toBeGreaterThan(0);
  expect(selected.every((s) => s === '')).toBe(true);
});

test('keyboard: one tab stop, arrows move, Enter opens the inspector, Escape closes it', async ({ page }) => {
  await open(page, 'tree=small&modes=none');
  await page.getByRole('button', { name: 'Fit' }).focus();
  await page.keyboard.press('Tab');
  const svg = page.locator('svg[aria-label="Tree view"]');
  await expect(svg).toBeFocused();
  const status = page.locator('.tree-view [role="status"]');
  // Without a selection the roving focus starts on the top row's first node.
  const start = (await status.textContent()) ?? '';
  expect(start).toMatch(/^Node \d+\. Summary, layer \d+\./);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  const moved = (await status.textContent()) ?? '';
  expect(moved).not.toBe(start);
  const id = /^Node (\d+)\./.exec(moved)?.[1];
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { level: 2 })).toHaveText(`Node ${id}`);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(svg).toBeFocused();
});

test('node text is shown as text, never as markup', async ({ page }) => {
  await open(page, 'tree=small&open=2');
  const dialog = page.getByRole('dialog');
  await expect(dialog.locator('.tree-inspector-text')).toContainText('<b>not bold</b>');
  await expect(dialog.locator('b, img, script')).toHaveCount(0);
  await expect(page.locator('.document-view img, .document-view script, .document-view b')).toHaveCount(0);
});

test('the document marks every leaf and opens a leaf when its passage is clicked', async ({ page }) => {
  await open(page, 'tree=small');
  const leaves = page.locator('.document-view [data-leaf-id]');
  expect(await leaves.count()).toBeGreaterThan(20);
  const highlighted = page.locator('.document-view mark[data-leaf-id]').first();
  const id = await highlighted.getAttribute('data-leaf-id');
  await highlighted.click();
  await expect(page.getByRole('dialog').getByRole('heading', { level: 2 })).toHaveText(`Node ${id}`);
});

test('a 2,000-node tree renders every node and zooms through the levels of detail', async ({ page }) => {
  await open(page, 'tree=large');
  const label = (await page.locator('option[value="large"]').textContent()) ?? '';
  const total = Number(/\((\d+) nodes\)/.exec(label)?.[1]);
  expect(total).toBeGreaterThanOrEqual(2000);
  await expect(page.locator('svg[aria-label="Tree view"] [data-node-id]')).toHaveCount(total);
  const svg = page.locator('svg[aria-label="Tree view"]');
  await expect(svg).toHaveAttribute('data-lod', 'far');
  // Zoomed far out, rows are drawn as dots and node elements are hidden; a click on a node's dot opens it.
  const selected = page.locator('[data-node-id][data-layer="1"]:not([data-selected=""])').first();
  const id = await selected.getAttribute('data-node-id');
  const box = await selected.locator('circle').evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  });
  await page.mouse.click(box.x, box.y);
  await expect(page.getByRole('dialog').getByRole('heading', { level: 2 })).toHaveText(`Node ${id}`);
  await page.keyboard.press('Escape');
  for (let i = 0; i < 10; i++) await page.getByRole('button', { name: 'Zoom in' }).click();
  await expect(svg).toHaveAttribute('data-lod', 'near');
  await page.getByRole('button', { name: 'Fit' }).click();
  await expect(svg).toHaveAttribute('data-lod', 'far');
});

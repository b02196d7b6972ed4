/**
 * The tree and document components on their harness page (dev/components.html, served by the Vite dev
 * server): the outline's ARIA tree contract other end-to-end tests and screen readers rely on, keyboard use,
 * the icicle's zoom, retrieval marks, Find and "Next selected", and text shown as text.
 */
import type { Page } from '@playwright/test';
import { screenshotPath, shoot } from './support/app';
import { expect, test } from './support/fixtures';
import { pair, restingView as restingOf, slotAt as slotOn, touchscreen } from './support/touch';

const HARNESS = '/dev/components.html';
const MODES = ['collapsed', 'traversal', 'leaves'];

async function open(page: Page, query: string) {
  await page.goto(`${HARNESS}?${query}`);
  await expect(page.locator('canvas[aria-label="Tree view"][data-frames]')).toBeAttached();
}

const outline = (page: Page) => page.getByRole('tree', { name: 'Tree outline' });
const items = (page: Page) => outline(page).locator('[role="treeitem"]');
const canvas = (page: Page) => page.locator('canvas[aria-label="Tree view"]');
const viewOf = async (page: Page) =>
  ((await canvas(page).getAttribute('data-view')) ?? '').split(' ').map(Number) as [number, number];

type Rgb = [number, number, number];

/** Canvas pixels within 12 of one of `colours` in every channel (marks are drawn opaque in a mode's colour). */
async function pixelsOf(page: Page, ...colours: Rgb[]): Promise<number> {
  return canvas(page).evaluate((el, list) => {
    const c = el as HTMLCanvasElement;
    const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < data.length; i += 4) {
      const near = ([r, g, b]: Rgb) =>
        Math.abs(data[i] - r) < 12 && Math.abs(data[i + 1] - g) < 12 && Math.abs(data[i + 2] - b) < 12;
      if (list.some(near)) n++;
    }
    return n;
  }, colours);
}
/** The light theme's mode colours (theme.css): collapsed tree, tree traversal, leaves only. */
const COLLAPSED_LIGHT: Rgb = [0, 0x72, 0xb2];
const MODE_COLOURS_LIGHT: Rgb[] = [COLLAPSED_LIGHT, [0xa3, 0x61, 0x00], [0x00, 0x7f, 0x64]];

test('the outline is an ARIA tree of every node once, named by label, layer and children', async ({
  page,
}) => {
  await open(page, 'tree=small&theme=light');
  await expect(outline(page)).toHaveAttribute('aria-multiselectable', 'true');
  // Closed at first: only the top of the hierarchy is in the page.
  const top = await items(page).count();
  expect(top).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Expand all' }).click();
  const attrs = await items(page).evaluateAll((els) =>
    els.map((el) => ({
      id: Number(el.getAttribute('data-node-id')),
      layer: Number(el.getAttribute('data-layer')),
      level: Number(el.getAttribute('aria-level')),
      expanded: el.getAttribute('aria-expanded'),
      ariaSelected: el.getAttribute('aria-selected'),
      selected: el.getAttribute('data-selected') ?? '',
      name: el.getAttribute('aria-label') ?? '',
      groups: el.querySelectorAll(':scope > [role="group"] > [role="treeitem"]').length,
    })),
  );
  const count = attrs.length;
  expect(count).toBeGreaterThan(30);
  expect(attrs.map((a) => a.id).sort((a, b) => a - b)).toEqual(Array.from({ length: count }, (_, i) => i));
  const maxLayer = Math.max(...attrs.map((a) => a.layer));
  for (const a of attrs) {
    // Levels count down from the top layer; parents say whether they are open, leaves do not.
    expect(a.level).toBe(maxLayer - a.layer + 1);
    if (a.layer > 0) {
      expect(a.expanded).toBe('true');
      expect(a.name).toMatch(new RegExp(`^.+, layer ${a.layer}, ${a.groups} child(ren)?$`));
    } else {
      expect(a.expanded).toBeNull();
      expect(a.name).toMatch(/, leaf \d+, layer 0$/);
    }
    expect(a.ariaSelected).toBe(a.selected === '' ? 'false' : 'true');
    for (const mode of a.selected.split(' ').filter(Boolean)) expect(MODES).toContain(mode);
  }
  // The legend's count per mode matches the items marked with it.
  for (const [mode, label] of [
    ['collapsed', 'Collapsed tree'],
    ['traversal', 'Tree traversal'],
    ['leaves', 'Leaves only'],
  ]) {
    const legend = await page.locator('.tree-legend-mode', { hasText: label }).textContent();
    const marked = attrs.filter((a) => a.selected.split(' ').includes(mode)).length;
    expect(legend).toContain(`(${marked})`);
  }
});

test('nothing is marked without a selection, in the outline or on the canvas', async ({ page }) => {
  await open(page, 'tree=small&modes=none&theme=light');
  await page.getByRole('button', { name: 'Expand all' }).click();
  const selected = await items(page).evaluateAll((els) => els.map((el) => el.getAttribute('data-selected')));
  expect(selected.length).toBeGreaterThan(0);
  expect(selected.every((s) => s === '')).toBe(true);
  expect(await pixelsOf(page, COLLAPSED_LIGHT)).toBe(0);
  await expect(page.getByRole('button', { name: /^Next selected/ })).toBeDisabled();
});

test('keyboard: one tab stop, the tree pattern’s keys, Enter opens the inspector, Escape closes it', async ({
  page,
}) => {
  await open(page, 'tree=large&modes=none');
  await page.getByRole('button', { name: 'Collapse all' }).focus();
  await page.keyboard.press('Tab');
  const first = items(page).first();
  await expect(first).toBeFocused();
  const topCount = await items(page).count();
  // → opens, → again goes to the first child, ← to the parent, ← closes.
  await page.keyboard.press('ArrowRight');
  await expect(first).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('ArrowRight');
  const child = first.locator('[role="group"] [role="treeitem"]').first();
  await expect(child).toBeFocused();
  await expect(child).toHaveAttribute('aria-level', '2');
  await page.keyboard.press('ArrowLeft');
  await expect(first).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(first).toHaveAttribute('aria-expanded', 'false');
  // End and Home; * opens every sibling.
  await page.keyboard.press('End');
  await expect(items(page).last()).toBeFocused();
  await page.keyboard.press('Home');
  await expect(first).toBeFocused();
  await page.keyboard.press('*');
  await expect(outline(page).locator(':scope > [role="treeitem"][aria-expanded="true"]')).toHaveCount(
    topCount,
  );
  // ↓ moves into the first open branch; Enter opens the node in the inspector and zooms to it.
  await page.keyboard.press('ArrowDown');
  const focused = page.locator('[role="treeitem"]:focus');
  const id = await focused.getAttribute('data-node-id');
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { level: 2 })).toHaveText(`Node ${id}`);
  await expect(
    page.getByRole('navigation', { name: 'Zoomed into' }).locator('[aria-current]'),
  ).not.toHaveText('Whole tree');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(page.locator(`[role="treeitem"][data-node-id="${id}"]`)).toBeFocused();
});

test('node text is shown as text, never as markup', async ({ page }) => {
  await open(page, 'tree=small&open=2');
  const dialog = page.getByRole('dialog');
  await expect(dialog.locator('.tree-inspector-text')).toContainText('<b>not bold</b>');
  await expect(dialog.locator('b, img, script')).toHaveCount(0);
  await expect(page.locator('.document-view img, .document-view script, .document-view b')).toHaveCount(0);
  await page.getByRole('button', { name: 'Expand all' }).click();
  await expect(outline(page).locator('b, img, script')).toHaveCount(0);
});

test('the document marks every leaf, the selected ones and, lightly, those under a selected summary', async ({
  page,
}) => {
  await open(page, 'tree=small');
  const leaves = page.locator('.document-view [data-leaf-id]');
  expect(await leaves.count()).toBeGreaterThan(20);
  const under = page.locator('.document-view .doc-leaf.is-under');
  expect(await under.count()).toBeGreaterThan(0);
  // A leaf a mode picked itself is a mark, not the lighter line.
  await expect(page.locator('.document-view mark.is-under')).toHaveCount(0);
  const highlighted = page.locator('.document-view mark[data-leaf-id]').first();
  const id = await highlighted.getAttribute('data-leaf-id');
  await highlighted.click();
  await expect(page.getByRole('dialog').getByRole('heading', { level: 2 })).toHaveText(`Node ${id}`);
});

test('a 2,000-node tree draws at Fit, zooms by button, by click on a summary and back by the breadcrumb', async ({
  page,
}) => {
  await open(page, 'tree=large&theme=light');
  const label = (await page.locator('option[value="large"]').textContent()) ?? '';
  const total = Number(/\((\d+) nodes\)/.exec(label)?.[1]);
  expect(total).toBeGreaterThanOrEqual(2000);
  await expect(page.locator('.tree-legend-size')).toContainText(`${total} nodes`);
  const [x0, x1] = await viewOf(page);
  expect(x0).toBe(0);
  // Retrieval marks are drawn at Fit.
  expect(await pixelsOf(page, COLLAPSED_LIGHT)).toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Zoom in' }).click();
  await expect
    .poll(async () => (await viewOf(page))[1] - (await viewOf(page))[0])
    .toBeCloseTo((x1 - x0) / 2, 3);
  await page.getByRole('button', { name: 'Fit' }).click();
  await expect.poll(() => viewOf(page)).toEqual([x0, x1]);
  // A click on the top row's first summary zooms to it and opens it.
  const box = (await canvas(page).boundingBox())!;
  await page.mouse.click(box.x + 5, box.y + 10);
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { level: 2 })).toHaveText(/^Node \d+$/);
  await expect.poll(async () => (await viewOf(page))[1]).toBeLessThan(x1);
  const crumbs = page.getByRole('navigation', { name: 'Zoomed into' });
  await expect(crumbs.getByRole('button')).toHaveCount(2);
  await crumbs.getByRole('button', { name: 'Whole tree' }).click();
  await expect.poll(() => viewOf(page)).toEqual([x0, x1]);
});

test('Find highlights matching labels and text; Enter goes from match to match', async ({ page }) => {
  await open(page, 'tree=large');
  const find = page.getByRole('searchbox', { name: 'Find in the tree' });
  await find.fill('slipper');
  await expect(page.locator('.tree-find-count')).toHaveText(/^\d+ match(es)?$/);
  const n = Number(/^(\d+)/.exec((await page.locator('.tree-find-count').textContent()) ?? '')?.[1]);
  expect(n).toBeGreaterThan(1);
  await find.press('Enter');
  await expect(page.locator('.tree-find-count')).toHaveText(`1 of ${n}`);
  const firstMatch = outline(page).locator('[role="treeitem"].is-active');
  await expect(firstMatch).toHaveAttribute('data-match', '');
  const firstId = await firstMatch.getAttribute('data-node-id');
  await find.press('Enter');
  await expect(page.locator('.tree-find-count')).toHaveText(`2 of ${n}`);
  await expect(outline(page).locator('[role="treeitem"].is-active')).not.toHaveAttribute(
    'data-node-id',
    firstId!,
  );
  await find.press('Shift+Enter');
  await expect(page.locator('.tree-find-count')).toHaveText(`1 of ${n}`);
  await find.fill('zzzz-not-there');
  await expect(page.locator('.tree-find-count')).toHaveText('No match');
});

test('“Next selected” visits every selected node, best rank first, and shows each', async ({ page }) => {
  await open(page, 'tree=large&theme=light');
  const next = page.getByRole('button', { name: /^Next selected/ });
  await next.click();
  const active = outline(page).locator('[role="treeitem"].is-active');
  await expect(active).toHaveAttribute('aria-selected', 'true');
  await expect(next).toHaveText(/\(1\/\d+\)/);
  const seen = new Set<string>();
  const total = Number(/\(1\/(\d+)\)/.exec((await next.textContent()) ?? '')?.[1]);
  for (let i = 0; i < total; i++) {
    seen.add((await active.getAttribute('data-node-id'))!);
    await expect(active).toHaveAttribute('aria-selected', 'true');
    // The node is in view, and so are its marks.
    expect(await pixelsOf(page, ...MODE_COLOURS_LIGHT)).toBeGreaterThan(0);
    await next.click();
  }
  expect(seen.size).toBe(total);
});

const slotAt = (page: Page, clientX: number) => slotOn(canvas(page), clientX);
/**
 * How far the page's clock jumps ahead when it is paused for a double-tap (ms): past the page's clock however
 * long the calls between reading it and pausing it take on a loaded machine (else Playwright refuses to go back
 * in time); the view rests, so no timer is waiting on the jump.
 */
const CLOCK_JUMP_MS = 5_000;
const restingView = (page: Page) => restingOf(canvas(page));

for (const [name, viewport] of [
  ['390 px', { width: 390, height: 844 }],
  ['1440 px', { width: 1440, height: 900 }],
] as const) {
  test.describe(`touch at ${name}`, () => {
    test.use({ hasTouch: true, viewport });

    test('pinch zooms out and in about its midpoint, one finger pans, a double-tap zooms, a tap opens', async ({
      page,
    }) => {
      // The page's clock (timers, animation frames, performance.now) runs as the real one, except while the
      // double-tap below is sent.
      await page.clock.install();
      await open(page, 'tree=large&theme=light');
      const screen = await touchscreen(page);
      await canvas(page).scrollIntoViewIfNeeded();
      const box = (await canvas(page).boundingBox())!;
      const [x0, x1] = await viewOf(page);
      const width = x1 - x0;
      // Pinch out: fingers 60 → 180 px apart about a point left of the centre, in the middle of the rows.
      const mid = { x: box.x + box.width * 0.4, y: box.y + box.height * 0.5 };
      const under = await slotAt(page, mid.x);
      await screen.pinch(pair(mid, 60), pair(mid, 180));
      let [a, b] = await restingView(page);
      expect((b - a) / width).toBeCloseTo(1 / 3, 2);
      expect(await slotAt(page, mid.x)).toBeCloseTo(under, 0);
      await shoot(page, `tree-pinch-${viewport.width}`);
      // Pinch in: 150 → 100 px, about another point; the slot under it stays there.
      const mid2 = { x: box.x + box.width * 0.55, y: box.y + box.height * 0.6 };
      const under2 = await slotAt(page, mid2.x);
      await screen.pinch(pair(mid2, 150), pair(mid2, 100));
      [a, b] = await restingView(page);
      expect((b - a) / width).toBeCloseTo(1 / 2, 2);
      expect(await slotAt(page, mid2.x)).toBeCloseTo(under2, 0);
      // One finger drags the content right: the view moves left, as wide as it was (a fling may carry it on).
      const [p0, p1] = [a, b];
      await screen.drag({ x: mid.x - 60, y: mid.y }, { x: mid.x + 60, y: mid.y + 10 });
      [a, b] = await restingView(page);
      expect(b - a).toBeCloseTo(p1 - p0, 6);
      expect(p0 - a).toBeGreaterThanOrEqual((120 / box.width) * (p1 - p0) * 0.99);
      // A double-tap zooms in 2× about the tap, and opens nothing.
      const tapAt = { x: box.x + box.width * 0.3, y: mid.y };
      const underTap = await slotAt(page, tapAt.x);
      const before = b - a;
      // A finger's two taps are within DOUBLE_TAP_MS; the test's four messages to the browser are not on a
      // loaded machine (under load the first tap once acted and zoomed to its node, 1/40 of the width). So the
      // page's clock stands still while they are sent and runs on after: no page timer can fire between the
      // taps, and the taps' events and handlers run for real.
      await page.clock.pauseAt((await page.evaluate(() => Date.now())) + CLOCK_JUMP_MS);
      await screen.tap(tapAt, 2);
      await page.clock.resume();
      [a, b] = await restingView(page);
      expect((b - a) / before).toBeCloseTo(1 / 2, 3);
      expect(await slotAt(page, tapAt.x)).toBeCloseTo(underTap, 0);
      // Nothing opens (a tap acts DOUBLE_TAP_MS after it unless a second follows): waited out twice over.
      await page.waitForTimeout(600);
      await expect(page.getByRole('dialog')).toHaveCount(0);
      // A tap on the top row's first cell at Fit opens it and zooms to it.
      await page.getByRole('button', { name: 'Fit' }).click();
      await expect.poll(() => viewOf(page)).toEqual([x0, x1]);
      await screen.tap({ x: box.x + 5, y: box.y + 10 });
      await expect(page.getByRole('dialog').getByRole('heading', { level: 2 })).toHaveText(/^Node \d+$/);
      await expect.poll(async () => (await viewOf(page))[1]).toBeLessThan(x1);
    });
  });
}

test('mouse: the wheel zooms about the pointer, a drag pans without opening, hover names the node', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await open(page, 'tree=large&theme=light');
  await canvas(page).scrollIntoViewIfNeeded();
  const box = (await canvas(page).boundingBox())!;
  const [x0, x1] = await viewOf(page);
  // Whole pixels: the mouse's events carry integer coordinates.
  const at = { x: Math.round(box.x + box.width * 0.7), y: Math.round(box.y + box.height / 2) };
  const under = await slotAt(page, at.x);
  await page.mouse.move(at.x, at.y);
  await page.mouse.wheel(0, -500);
  let [a, b] = await restingView(page);
  expect(b - a).toBeLessThan((x1 - x0) / 1.5);
  expect(await slotAt(page, at.x)).toBeCloseTo(under, 0);
  // A drag to the left shows what is right of the view; no click, so nothing opens.
  await page.mouse.down();
  for (let s = 1; s <= 8; s++) await page.mouse.move(at.x - 20 * s, at.y);
  await page.mouse.up();
  const [c, d] = await restingView(page);
  expect(d - c).toBeCloseTo(b - a, 6);
  expect(c).toBeGreaterThan(a);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // Shift + wheel pans, as wide as it was: to the left (the drag's fling may have carried the view to the right
  // edge, where a pan to the right has nowhere to go), by the wheel's 300 pixels.
  await page.keyboard.down('Shift');
  await page.mouse.wheel(0, -300);
  await page.keyboard.up('Shift');
  [a, b] = await restingView(page);
  expect(b - a).toBeCloseTo(d - c, 6);
  expect((c - a) / (d - c)).toBeCloseTo(300 / box.width, 3);
  // Hovering a cell shows its tooltip; a click opens it.
  await page.mouse.move(box.x + 30, box.y + 10);
  await expect(page.locator('.tree-tooltip')).toBeVisible();
  await page.mouse.click(box.x + 30, box.y + 10);
  await expect(page.getByRole('dialog').getByRole('heading', { level: 2 })).toHaveText(/^Node \d+$/);
});

/** Makes a panel of the app on the dev server throw while it renders (src/app/panel-faults.ts). */
async function breakPanel(page: Page, panel: string): Promise<void> {
  await page.evaluate((name) => {
    const hook = (window as { __aerieBreakPanel?: (panel: string) => void }).__aerieBreakPanel;
    if (!hook) throw new Error('this page has no panel fault hook (the dev server has one)');
    hook(name);
  }, panel);
}

test('a panel that throws shows a sentence and “Reload this panel”; the rest of the app and the user’s work stay', async ({
  page,
}) => {
  // The app itself on the dev server: only there can a test break a panel (src/app/panel-faults.ts).
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto('/');
  const library = page.getByRole('region', { name: 'Library' });
  await library
    .getByLabel('Tree file to import')
    .setInputFiles('tests/fixtures/official-cinderella-tree.json');
  await expect(canvas(page)).toBeVisible({ timeout: 60_000 });
  // Work in progress: a document waiting to be built.
  await page.getByRole('button', { name: 'Paste text' }).click();
  const paste = page.getByRole('dialog', { name: 'Paste text' });
  await paste.getByLabel('Text').fill('Notes on the glass slipper, kept for the next build.');
  await paste.getByLabel('Name').fill('notes.txt');
  await paste.getByRole('button', { name: 'Add' }).click();
  const documents = page.getByRole('list', { name: 'Added documents' });
  await expect(documents).toContainText('notes.txt');

  await breakPanel(page, 'tree view');
  const broken = page
    .getByRole('alert')
    .filter({ hasText: 'The tree view stopped because of a bug in Aerie' });
  await expect(broken).toContainText('a test broke the tree view on purpose');
  await expect(canvas(page)).toHaveCount(0);
  // Everything else is as it was: the header, the documents waiting, the library, the Ask panel, the other tabs.
  await expect(page.getByRole('heading', { name: 'Aerie', exact: true })).toBeVisible();
  await expect(documents).toContainText('notes.txt');
  await expect(library.getByRole('listitem')).toHaveCount(1);
  await expect(page.getByRole('complementary', { name: 'Ask panel' })).toContainText('Ask');
  await page.getByRole('tab', { name: 'Statistics' }).click();
  await expect(page.locator('#panel-stats')).toContainText(/40/);
  await page.getByRole('tab', { name: 'Tree' }).click();
  await page.screenshot({ path: screenshotPath('panel-boundary') });
  await broken.getByRole('button', { name: 'Reload this panel' }).click();
  await expect(canvas(page)).toBeVisible();
  await expect(broken).toHaveCount(0);

  // Another panel, the same way; the tree view stays drawn.
  await breakPanel(page, 'Ask panel');
  const askBroken = page.getByRole('alert').filter({ hasText: 'The Ask panel stopped' });
  await expect(askBroken).toBeVisible();
  await expect(canvas(page)).toBeVisible();
  await askBroken.getByRole('button', { name: 'Reload this panel' }).click();
  await expect(
    page.getByRole('complementary', { name: 'Ask panel' }).getByLabel('Question', { exact: true }),
  ).toBeVisible();
  // The faults were the only errors, and React caught them: the page never went blank.
  expect(errors).toEqual([]);
});

/**
 * A thematic question on a whole book, in seconds: Genesis as the app builds it with the offline model and
 * extractive summaries (tests/fixtures/books/genesis.raptor.json, made by scripts/fixtures/make-book-tree.ts) is
 * imported, not built, and asked "What happens at wells and springs through Genesis?" (gold question ge-43). The
 * passages are listed in the book's order, each with where it sits ("Genesis 24 · 45%") and the order it was
 * chosen in; the tree view's strip says how far across the book they reach; traversal says through how many
 * summaries it went. Screenshots of the strip and the list are saved for review.
 */
import { ask, expectOnlyLocalRequests, recordRequests, screenshotPath, treeItems } from './support/app';
import { expect, test } from './support/fixtures';

const TREE = 'tests/fixtures/books/genesis.raptor.json';
const QUESTION = 'What happens at wells and springs through Genesis?';

test('a thematic question’s passages: in the book’s order with their places, and how far across it they reach', async ({
  page,
  context,
}) => {
  const urls = recordRequests(context);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/');
  await page.getByRole('region', { name: 'Library' }).getByLabel('Tree file to import').setInputFiles(TREE);
  await expect(page.getByText(/^Imported/)).toBeVisible({ timeout: 60_000 });
  await expect(await treeItems(page)).not.toHaveCount(0);

  await ask(page, QUESTION, 'Collapsed tree');
  const list = page.getByRole('list', { name: 'Collapsed tree passages' });
  await expect(list.locator('li.passage').first()).toBeVisible({ timeout: 60_000 });
  // In the book's order: where each passage begins (a summary: "0–50%", where its first leaf is) is at or after
  // where the one before it begins.
  const where = await list.locator('.passage-where').allInnerTexts();
  expect(where.length).toBeGreaterThan(10);
  expect(where[0]).toMatch(/Genesis \d+ · \d+%$/);
  const shares = where.map((w) => Number(/(\d+)(?:–\d+)?%$/.exec(w)![1]));
  expect(shares).toEqual([...shares].sort((a, b) => a - b));
  // Not in the order chosen: the best passage is not the first in the book.
  await expect(list.getByText('chosen 1st')).toHaveCount(1);
  await expect(list.locator('li.passage').first().getByText('chosen 1st')).toHaveCount(0);

  // The strip: the passages reach across the book, and the words say how far.
  const reach = page.locator('.reach-row[data-mode="collapsed"]');
  await expect(reach).toContainText(/\d+ passages from \d+% to \d+% of the text, in \d+ of its 10 tenths/);
  expect(Number(await reach.getAttribute('data-parts'))).toBeGreaterThanOrEqual(8);
  await page.locator('.reach').screenshot({ path: screenshotPath('reach-theme') });
  await list.locator('li.passage').first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('passages-in-book-order') });

  // Traversal by keywords walks to the same passages and says through how many summaries.
  await ask(page, QUESTION, 'Tree traversal');
  await expect(page.locator('.mode-totals')).toContainText(/reached through \d+ summaries/, {
    timeout: 60_000,
  });
  await expect(page.locator('.reach-row[data-mode="traversal"]')).toBeVisible();
  expectOnlyLocalRequests(urls);
});

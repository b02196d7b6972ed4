/**
 * The official RAPTOR implementation's Cinderella tree (OpenAI ada-002 embeddings) imports (issue #4); the app
 * says its embedding model cannot run in the browser and offers retrieval by an existing node, whose results
 * the tree view highlights exactly.
 */
import { expect, test } from './support/fixtures';
import {
  expectOnlyLocalRequests,
  highlighted,
  listedPassages,
  recordRequests,
  shoot,
  treeItems,
} from './support/app';
import { holdAerieDb, releaseAerieDb } from './support/hold-db';

test('import the official Cinderella tree and retrieve by an existing node', async ({ page, context }) => {
  const urls = recordRequests(context);
  await page.goto('/');
  const library = page.getByRole('region', { name: 'Library' });
  await library
    .getByLabel('Tree file to import')
    .setInputFiles('tests/fixtures/official-cinderella-tree.json');
  await expect(page.getByText(/^Imported/)).toBeVisible();
  const nodes = await treeItems(page);
  await expect(nodes).toHaveCount(40);
  await expect(nodes.and(page.locator('[data-layer="1"]'))).toHaveCount(7);

  // Questions cannot be embedded with ada-002 here: the Ask panel says so and what to do instead.
  await expect(page.getByText(/openai\/text-embedding-ada-002/).first()).toBeVisible();
  await expect(page.getByText(/Find similar/).first()).toBeVisible();
  await shoot(page, 'official-tree-imported');

  // Retrieval by an existing node: open node 3 from the keyboard, then "Find similar".
  await nodes.first().focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: /^Find similar to node \d+/ }).click();
  // All three modes ran; each tab lists its passages and the tree view marks exactly those.
  for (const label of ['Collapsed tree', 'Tree traversal', 'Leaves only']) {
    const tab = page.getByRole('tab', { name: new RegExp(label) });
    await tab.click();
    const mode = (await tab.getAttribute('data-mode'))!;
    await expect.poll(() => listedPassages(page, mode).then((l) => l.length)).toBeGreaterThan(0);
    const listed = await listedPassages(page, mode);
    expect((await highlighted(page, mode)).sort((a, b) => a - b)).toEqual([...listed].sort((a, b) => a - b));
  }
  await shoot(page, 'official-tree-find-similar');
  expectOnlyLocalRequests(urls);
});

test('a tree file chosen before the database has opened is imported once it opens, never dropped', async ({
  page,
}) => {
  await holdAerieDb(page);
  await page.goto('/');
  const library = page.getByRole('region', { name: 'Library' });
  await library
    .getByLabel('Tree file to import')
    .setInputFiles('tests/fixtures/official-cinderella-tree.json');
  await expect(library.getByText('No trees yet')).toBeVisible();
  await releaseAerieDb(page);
  await expect(page.getByText(/^Imported/)).toBeVisible();
  await expect(library.getByRole('listitem')).toHaveCount(1);
  await expect(await treeItems(page)).toHaveCount(40);
});

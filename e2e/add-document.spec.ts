/**
 * Several documents in one tree (issue #4): adding a document to a built tree re-clusters with the cached
 * embeddings and summaries, so only clusters that changed cost LLM calls, and rebuilding the same documents
 * with the same settings costs none.
 */
import { expect, test } from './support/fixtures';
import { addSample, buildAndWait, configure, fakeLlmForFile, treeCanvas } from './support/app';

const llm = fakeLlmForFile();

const summaryBodies = () =>
  llm.modelRequests.filter((r) => r.path.endsWith('/chat/completions')).map((r) => JSON.stringify(r.body));

test('adding a document to a tree pays only for new clusters; the same build again costs no LLM call', async ({
  page,
}) => {
  await page.goto('/');
  await configure(page, llm);
  await addSample(page);
  await buildAndWait(page);
  const nodes = treeCanvas(page);
  const first = summaryBodies();
  expect(first.length).toBeGreaterThan(0);

  // The same document and settings again: every summary comes from the cache.
  llm.reset();
  await addSample(page);
  await page.getByRole('button', { name: 'Build tree' }).click();
  await expect(page.getByRole('region', { name: 'Library' }).getByRole('listitem')).toHaveCount(2);
  await expect(nodes).toBeAttached({ timeout: 120_000 });
  expect(summaryBodies()).toEqual([]);

  // Add a second document to the open tree.
  llm.reset();
  await page.getByRole('button', { name: 'Paste text' }).click();
  const dialog = page.getByRole('dialog', { name: 'Paste text' });
  await dialog
    .getByLabel('Text')
    .fill(
      Array.from(
        { length: 30 },
        (_, i) =>
          `Snow White ate apple number ${i} in the forest with the seven dwarfs, far from the palace.`,
      ).join(' '),
    );
  await dialog.getByLabel('Name').fill('snow-white.txt');
  await dialog.getByRole('button', { name: 'Add' }).click();
  await page.getByRole('button', { name: /^Add to “cinderella”/ }).click();
  await expect(page.getByRole('region', { name: 'Documents' }).getByText('snow-white.txt')).toBeHidden({
    timeout: 120_000,
  });
  await expect(nodes).toBeAttached({ timeout: 120_000 });
  // The rebuilt tree replaced the one it grew from, and holds both documents.
  const library = page.getByRole('region', { name: 'Library' });
  await expect(library.getByText('2 documents', { exact: true })).toBeVisible();
  await expect(library.getByRole('listitem')).toHaveCount(2);
  const added = summaryBodies();
  // Only new or changed clusters were summarised: no cluster the first build already paid for.
  for (const body of added) expect(first).not.toContain(body);
  expect(new Set(added).size).toBe(added.length);
});

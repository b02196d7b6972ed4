/**
 * Several documents in one tree (issue #4): adding a document to a built tree re-clusters with the cached
 * embeddings and summaries, so only clusters that changed cost LLM calls, and rebuilding the same documents
 * with the same settings costs none. A conversation on the tree moves to the rebuilt one (issue 25): its
 * earlier turns say they were asked of the earlier build, and a follow-up still runs on the new one.
 */
import { expect, test } from './support/fixtures';
import {
  addSample,
  ask,
  buildAndWait,
  configure,
  fakeLlmForFile,
  pasteDocument,
  shoot,
  snowWhiteText,
  treeCanvas,
} from './support/app';

const llm = fakeLlmForFile();

/** The conversation's first question (as in conversation.spec.ts). */
const FIRST = 'Who helped Cinderella go to the ball?';

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
  // A question typed while the tree builds survives the new tree opening (the Ask panel is not rendered afresh
  // for a working panel: src/app/PanelBoundary.tsx): the same field, still holding the words.
  const question = page.getByLabel('Question', { exact: true });
  await question.evaluate((field) => field.setAttribute('data-first-tree', ''));
  const library = page.getByRole('region', { name: 'Library' });
  await library.locator('[aria-current]').evaluate((row) => row.setAttribute('data-first-tree', ''));
  await page.getByRole('button', { name: 'Build tree' }).click();
  await question.fill(FIRST);
  await expect(page.getByRole('region', { name: 'Library' }).getByRole('listitem')).toHaveCount(2);
  await expect(
    page.getByRole('region', { name: 'Build progress' }).getByText(/^Reused \d+ of \d+ embeddings/),
  ).toBeVisible({ timeout: 120_000 });
  await expect(
    page.getByRole('region', { name: 'Build progress' }).getByText(/stages, all done$/),
  ).toBeVisible({ timeout: 120_000 });
  // The rebuilt tree is open once the library's current row is not the first tree's.
  await expect(library.locator('[aria-current]:not([data-first-tree])')).toHaveCount(1, { timeout: 120_000 });
  await expect(nodes).toBeAttached({ timeout: 120_000 });
  expect(summaryBodies()).toEqual([]);
  await expect(question).toHaveAttribute('data-first-tree', '');
  await expect(question).toHaveValue(FIRST);

  // A conversation with the open tree, before it grows.
  const select = page.getByRole('region', { name: 'Ask' }).getByLabel('Conversation', { exact: true });
  await ask(page, FIRST);
  await expect(select).toContainText(`${FIRST} (1 question)`, { timeout: 60_000 });

  // Add a second document to the open tree.
  llm.reset();
  await pasteDocument(page, 'snow-white.txt', snowWhiteText(30));
  await page.getByRole('button', { name: /^Add to “cinderella”/ }).click();
  await expect(page.getByRole('region', { name: 'Documents' }).getByText('snow-white.txt')).toBeHidden({
    timeout: 120_000,
  });
  await expect(nodes).toBeAttached({ timeout: 120_000 });
  // The rebuilt tree replaced the one it grew from, and holds both documents.
  await expect(library.getByText('2 documents', { exact: true })).toBeVisible();
  await expect(library.getByRole('listitem')).toHaveCount(2);
  await expect(
    page.getByRole('region', { name: 'Build progress' }).getByText(/stages, all done$/),
  ).toBeVisible({ timeout: 180_000 });
  // Read once the build has ended (every summary it asked for): only new or changed clusters were summarised,
  // none the first build already paid for, none twice.
  const added = summaryBodies();
  expect(added.length).toBeGreaterThan(0);
  for (const body of added) expect(first).not.toContain(body);
  expect(new Set(added).size).toBe(added.length);

  // The rebuilt tree opens with the conversation, whose earlier turn says it was asked of the earlier build;
  // a follow-up still runs on the new tree.
  await expect(select).toContainText(`${FIRST} (1 question)`, { timeout: 120_000 });
  await select.selectOption({ index: 1 });
  await expect(page.getByText(/Asked before the tree was rebuilt/).first()).toBeVisible();
  llm.reset();
  llm.enqueue({ kind: 'reply', text: 'Who searched for Cinderella with the slipper?' });
  const panel = page.getByRole('region', { name: 'Ask' });
  await panel.getByLabel('Question', { exact: true }).fill('Who looked for her?');
  await panel.getByRole('button', { name: 'Ask', exact: true }).click();
  await panel
    .getByRole('form', { name: 'Standalone search for the follow-up' })
    .getByRole('button', { name: 'Search' })
    .click();
  await expect(panel.getByText('Searched for: Who searched for Cinderella with the slipper?')).toBeVisible({
    timeout: 60_000,
  });
  await expect(select).toContainText(`${FIRST} (2 questions)`);
  await shoot(page, 'conversation-after-rebuild');
});

/**
 * Nothing blanks the app when the open tree changes (issue 41, point 1). A whole novel's tree (Northanger Abbey,
 * 1,369 nodes: tests/fixtures/books/northanger-abbey.raptor.json, imported in seconds instead of built, then
 * given its text in storage as a build would have stored it), a question answered by the FAKE LLM server
 * citing [1] and [2], each citation opened (the tree view zooms to its node) and "Back to the answer" each time;
 * then another tree opens — from a file, then from the library. Before the fix React unmounted the whole page
 * within a second and a half: the "Zoomed into" breadcrumb still held the novel's node ids, which the smaller
 * tree does not have. The production page carries no way to break a panel (src/app/panel-faults.ts).
 */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { ask, configure, fakeLlmForFile, importTreeFile, libraryRow, treeCanvas } from './support/app';
import { expect, test } from './support/fixtures';

const NOVEL = 'tests/fixtures/books/northanger-abbey.raptor.json';
const NOVEL_TEXT = 'tests/fixtures/books/northanger-abbey.txt';
const NOVEL_TITLE = 'Northanger Abbey';
const OTHER = 'tests/fixtures/official-cinderella-tree.json';
const OTHER_TITLE = 'Cinderella (official RAPTOR demo tree)';

const llm = fakeLlmForFile().configure({ answerCites: [1, 2] });

/**
 * Stores `text` as the text of the only document of the tree titled `title`, as a build stores it (a tree file
 * carries no text): the document record keyed by the text's SHA-256, and the tree's entry pointing at it.
 */
async function storeDocumentText(page: Page, title: string, text: string): Promise<void> {
  await page.evaluate(
    async ([treeTitle, docText]) => {
      const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(docText));
      const id = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open('aerie');
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(new Error(String(open.error)));
      });
      const tx = db.transaction(['trees', 'documents'], 'readwrite');
      const trees = tx.objectStore('trees');
      const all = await new Promise<{ title: string; documents: { name: string }[] }[]>((resolve) => {
        const request = trees.getAll();
        request.onsuccess = () => resolve(request.result);
      });
      const tree = all.find((t) => t.title === treeTitle)!;
      const name = tree.documents[0].name;
      tx.objectStore('documents').put({
        id,
        name,
        type: 'text/plain',
        size: docText.length,
        sha256: id,
        text: docText,
        addedAt: Date.now(),
      });
      trees.put({ ...tree, documentIds: [id], documents: [{ ...tree.documents[0], documentId: id }] });
      await new Promise((resolve) => (tx.oncomplete = resolve));
      db.close();
    },
    [title, text] as const,
  );
}

/** The page still shows the app: its header, the library and the tree now open. */
async function expectAppShown(page: Page, title: string): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Aerie', exact: true })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Library' })).toBeVisible();
  await expect(page.locator('.open-title')).toHaveText(title);
  await expect(treeCanvas(page)).toBeVisible();
}

test('citations opened in a novel, then another tree opened: the app stays, nothing blanks', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto('/');
  expect(await page.evaluate(() => '__aerieBreakPanel' in window), 'a fault hook in production').toBe(false);
  await configure(page, llm);
  await importTreeFile(page, NOVEL, NOVEL_TITLE);
  await storeDocumentText(page, NOVEL_TITLE, readFileSync(NOVEL_TEXT, 'utf8'));
  await page.reload();
  await libraryRow(page, NOVEL_TITLE)
    .getByRole('button', { name: `Open ${NOVEL_TITLE}` })
    .click();
  await expectAppShown(page, NOVEL_TITLE);

  await ask(page, 'What did Catherine find in the chest at Northanger Abbey?', 'Leaves only');
  const answer = page.getByRole('region', { name: /^Answer/ });
  const breadcrumb = page.getByRole('navigation', { name: 'Zoomed into' }).getByRole('button');
  for (const n of [1, 2]) {
    const citation = answer.locator(`button[data-citation="${n}"]`).first();
    await expect(citation).toBeVisible({ timeout: 60_000 });
    await citation.click();
    await expect(page.locator('mark.doc-cited.is-current').first()).toBeVisible();
    await page.getByRole('button', { name: '← Back to the answer' }).click();
    await expect(citation).toBeFocused();
    // The tree view went to the cited passage: the breadcrumb names the summaries it zoomed into.
    await expect.poll(() => breadcrumb.count()).toBeGreaterThan(1);
  }

  await importTreeFile(page, OTHER, OTHER_TITLE);
  await expectAppShown(page, OTHER_TITLE);
  await expect(breadcrumb).toHaveCount(1);
  await libraryRow(page, NOVEL_TITLE)
    .getByRole('button', { name: `Open ${NOVEL_TITLE}` })
    .click();
  await expectAppShown(page, NOVEL_TITLE);
  expect(errors).toEqual([]);
});

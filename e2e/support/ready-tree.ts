/**
 * A built tree in seconds, for browser tests whose subject is not the build (asking, conversations,
 * evaluation, the view): `openReadyTree(page, 'sample')` imports the committed tree file of the sample
 * (tests/support/ready-trees.ts; made by scripts/fixtures/make-ready-trees.ts with the app's own build pipeline)
 * through the Library's "Tree file to import", as a user imports one, so the tree format and the import stay
 * checked, and waits until the tree is open and drawn. The sample is what `configure(page, llm)`, "Try the
 * sample" and "Build tree" make: the offline GloVe model and the FAKE LLM server's summaries; 'novel' is Pride
 * and Prejudice with extractive summaries. Either opens without topic labels, which the app computes on opening.
 *
 * Specs whose subject is the build, the import, the first run or a model load keep doing those for real.
 */
import { basename } from 'node:path';
import type { Page } from '@playwright/test';
import { READY_TREES, type ReadyTreeName } from '../../tests/support/ready-trees';
import { treeCanvas } from './app';
import { expect } from './fixtures';

export type { ReadyTreeName };

/** What `openReadyTree` opened. */
export interface OpenedTree {
  /** Its title in the Library (`cinderella`, `pride-and-prejudice`), as "Open <title>" names its button. */
  title: string;
}

/**
 * Imports the ready tree `name` into the page's app (opening the app first if the page has not) and waits
 * until it is open: its title shown and the tree view drawn. Call `configure(page, llm)` before or after, as
 * for a built tree: the settings do not change the tree.
 */
export async function openReadyTree(page: Page, name: ReadyTreeName = 'sample'): Promise<OpenedTree> {
  const tree = READY_TREES[name];
  if (page.url() === 'about:blank') await page.goto('/');
  await page
    .getByRole('region', { name: 'Library' })
    .getByLabel('Tree file to import')
    .setInputFiles(tree.file);
  await expect(
    page.getByRole('region', { name: 'Notifications' }).getByText(`Imported “${basename(tree.file)}”`),
  ).toBeVisible({ timeout: 60_000 });
  await expect(page.locator('.open-title')).toHaveText(tree.title);
  await expect(treeCanvas(page)).toBeAttached({ timeout: 60_000 });
  return { title: tree.title };
}

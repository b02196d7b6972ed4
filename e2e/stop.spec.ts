/**
 * Stop means stop (issue 24): deleting a tree while it builds — in its own tab or in another — cancels the build
 * at once. The FAKE LLM server (replying after 2 s, like a slow endpoint) counts every request: none arrives
 * after the delete has settled. Nothing of the tree is left in IndexedDB (the cache keeps only entries other
 * trees use, and there are none here), and nothing offers to resume it, also after a reload. The page tells
 * its embedding worker to forget the texts it tokenised (none of the tree's passages stay in a worker's memory).
 */
import type { BrowserContext, Page } from '@playwright/test';
import type { FakeLlmServer } from '../tests/support/llm-server';
import {
  addSample,
  configure,
  deleteFromLibrary,
  libraryRow,
  setParams,
  startLlm,
  storedRecords,
} from './support/app';
import { expect, test } from './support/fixtures';

/** How long the FAKE endpoint takes to answer each request. */
const LLM_LATENCY_MS = 2000;
/** How long to keep listening for stray requests after the delete settled (several replies' worth). */
const LISTEN_AFTER_MS = 3 * LLM_LATENCY_MS;

let llm: FakeLlmServer;
test.beforeEach(async () => {
  llm = await startLlm();
  llm.configure({ latencyMs: LLM_LATENCY_MS });
});
test.afterEach(async () => {
  await llm.close();
});

/**
 * Counts, in every page of the context, the page's calls of `forget` on its workers (comlink messages whose path
 * is `forget`: only the embedding service has one).
 */
async function countForgets(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const scope = window as unknown as { __forgets: number };
    scope.__forgets = 0;
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (
      this: Worker,
      message: unknown,
      ...rest: [StructuredSerializeOptions?]
    ) {
      const path = (message as { path?: unknown } | null)?.path;
      if (Array.isArray(path) && path[0] === 'forget') scope.__forgets += 1;
      return post.call(this, message, ...rest);
    } as Worker['postMessage'];
  });
}

/** How many times the page has told a worker to forget. */
const forgets = (page: Page) => page.evaluate(() => (window as unknown as { __forgets: number }).__forgets);

/** Starts a build of the sample with small chunks (dozens of summaries) and waits until it pays for some. */
async function startPayingBuild(page: Page): Promise<void> {
  await page.goto('/');
  await configure(page, llm);
  await setParams(page, { 'Chunk tokens': '40' });
  await addSample(page);
  await page.getByRole('button', { name: 'Build tree' }).click();
  await expect
    .poll(() => llm.modelRequests.filter((r) => r.path.endsWith('/chat/completions')).length, {
      timeout: 120_000,
    })
    .toBeGreaterThan(0);
}

/** Every record of the deleted tree is gone: no tree, node, checkpoint, document, cache entry or pending text. */
async function expectNothingStored(page: Page): Promise<void> {
  const counts = await storedRecords(page);
  expect(counts).toMatchObject({ trees: 0, nodes: 0, checkpoints: 0, documents: 0, cache: 0, pending: 0 });
}

/** No request reached the FAKE server after `settledAt` (ms since the epoch), listening a while longer. */
async function expectNoRequestAfter(page: Page, settledAt: number): Promise<void> {
  await page.waitForTimeout(LISTEN_AFTER_MS);
  const late = llm.requests.filter((r) => r.time > settledAt).map((r) => `${r.method} ${r.path}`);
  expect(late, 'requests after the delete settled').toEqual([]);
}

test('deleting a tree while it builds stops the build at once: no request after, nothing stored, no Resume', async ({
  page,
  context,
}) => {
  await countForgets(context);
  await startPayingBuild(page);
  expect(await forgets(page)).toBe(0);
  await deleteFromLibrary(page, 'cinderella');
  await expect(libraryRow(page, 'cinderella')).toHaveCount(0);
  const settledAt = Date.now();
  await expect(page.getByRole('region', { name: 'Library' }).getByText('No trees yet')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Build progress' })).toHaveCount(0);
  // The embedding worker was told to forget the texts it tokenised.
  await expect.poll(() => forgets(page)).toBeGreaterThan(0);

  await expectNoRequestAfter(page, settledAt);
  await expect(page.getByRole('button', { name: /Resume/ })).toHaveCount(0);
  await expectNothingStored(page);

  await page.reload();
  await expect(page.getByRole('region', { name: 'Library' }).getByText('No trees yet')).toBeVisible();
  await expect(page.getByRole('button', { name: /Resume/ })).toHaveCount(0);
  await expectNothingStored(page);
});

test('deleting a tree in another tab stops its build in the tab that runs it', async ({ page, context }) => {
  await countForgets(context);
  await startPayingBuild(page);
  expect(await forgets(page)).toBe(0);
  const other = await context.newPage();
  await other.goto('/');
  await deleteFromLibrary(other, 'cinderella');
  await expect(libraryRow(other, 'cinderella')).toHaveCount(0);
  const settledAt = Date.now();

  // The building tab says what happened, drops its progress card and offers nothing to resume.
  await expect(page.getByText('“cinderella” was deleted')).toBeVisible();
  await expect(page.getByText(/deleted in another Aerie tab, so its build stopped/)).toBeVisible();
  await expect(page.getByRole('region', { name: 'Build progress' })).toHaveCount(0);
  await expect(libraryRow(page, 'cinderella')).toHaveCount(0);
  // This tab's embedding worker, which tokenised the tree's passages, was told to forget them too.
  await expect.poll(() => forgets(page)).toBeGreaterThan(0);

  await expectNoRequestAfter(page, settledAt);
  await expect(page.getByRole('button', { name: /Resume/ })).toHaveCount(0);
  await expectNothingStored(page);
});

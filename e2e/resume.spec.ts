/**
 * Builds that stop half-way (issue #4): a tab closed mid-build resumes after reopening, and an LLM endpoint
 * that goes down mid-build gives a clear error, then the build resumes when it is back. In both cases the FAKE
 * LLM server's request log shows that no finished summary is requested again.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import type { FakeLlmServer } from '../tests/support/llm-server';
import {
  addSample,
  cachedSummaries,
  configure,
  expectOnlyLocalRequests,
  recordRequests,
  shoot,
  startLlm,
} from './support/app';

let llm: FakeLlmServer;
test.beforeEach(async () => {
  llm = await startLlm();
});
test.afterEach(async () => {
  await llm.close();
});

/** Summary requests (chat completions) in the fake server's log. */
function summaryRequests() {
  return llm.modelRequests.filter((r) => r.path.endsWith('/chat/completions'));
}

/** Smaller chunks make more clusters, so a build has more summaries to stop in the middle of. */
async function useSmallChunks(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await dialog.getByLabel('Chunk tokens').fill('40');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
}

test('a build killed mid-way (tab closed) resumes after reopening without repeating a finished summary', async ({
  page,
  context,
}) => {
  const urls = recordRequests(context);
  await page.goto('/');
  await configure(page, llm);
  await useSmallChunks(page);
  await addSample(page);

  // Two summaries come back; every later one hangs, so the tab is closed with the build mid-way.
  const finished = 2;
  llm.enqueue(
    { kind: 'reply', text: 'Summary one: the mother dies and the hazel tree grows.' },
    { kind: 'reply', text: 'Summary two: the ball and the golden slipper.' },
    ...Array.from({ length: 100 }, () => ({ kind: 'hang' as const })),
  );
  await page.getByRole('button', { name: 'Build tree' }).click();
  await expect
    .poll(() => summaryRequests().filter((r) => r.status === 200).length, { timeout: 120_000 })
    .toBe(finished);
  await expect.poll(() => summaryRequests().length).toBeGreaterThan(finished);
  // The finished summaries reach storage before the tab closes (a fixed wait lost them on a busy machine).
  await expect.poll(() => cachedSummaries(page), { timeout: 60_000 }).toBe(finished);
  await shoot(page, 'resume-1-mid-build');
  const done = summaryRequests()
    .filter((r) => r.status === 200)
    .map((r) => JSON.stringify(r.body));
  await page.close();

  // Reopen: the library offers to resume the interrupted build.
  llm.reset();
  const again = await context.newPage();
  await again.goto('/');
  const library = again.getByRole('region', { name: 'Library' });
  await expect(library.getByText('Interrupted')).toBeVisible();
  await shoot(again, 'resume-2-interrupted');
  await library.getByRole('button', { name: /^Resume cinderella/ }).click();
  await expect(again.locator('canvas[aria-label="Tree view"][data-frames]')).toBeAttached({
    timeout: 180_000,
  });
  await expect(library.getByText('Ready')).toBeVisible();

  const after = summaryRequests().map((r) => JSON.stringify(r.body));
  expect(after.length).toBeGreaterThan(0);
  for (const body of done) expect(after).not.toContain(body); // no finished summary requested again
  expect(new Set(after).size).toBe(after.length); // and none twice during the resumed run
  expectOnlyLocalRequests(urls);
});

test('the LLM endpoint going down mid-build gives a clear error; the build resumes when it is back', async ({
  page,
}) => {
  await page.goto('/');
  await configure(page, llm);
  await useSmallChunks(page);
  await addSample(page);

  // One summary succeeds, then the server answers 503 to every attempt (Retry-After: 0 keeps retries quick).
  llm.enqueue(
    { kind: 'reply', text: 'A summary that was paid for.' },
    ...Array.from({ length: 40 }, () => ({ kind: 'error' as const, status: 503, retryAfter: '0' })),
  );
  await page.getByRole('button', { name: 'Build tree' }).click();
  const progress = page.getByRole('region', { name: 'Build progress' });
  await expect(progress.getByText(/503|unavailable|server/i).first()).toBeVisible({ timeout: 120_000 });
  await expect(progress.getByRole('button', { name: 'Resume' })).toBeVisible();
  await shoot(page, 'resume-3-endpoint-down');
  const paid = summaryRequests()
    .filter((r) => r.status === 200)
    .map((r) => JSON.stringify(r.body));
  expect(paid.length).toBe(1);

  // The endpoint is back.
  llm.reset();
  await progress.getByRole('button', { name: 'Resume' }).click();
  await expect(page.locator('canvas[aria-label="Tree view"][data-frames]')).toBeAttached({
    timeout: 180_000,
  });
  const after = summaryRequests().map((r) => JSON.stringify(r.body));
  expect(after).not.toContain(paid[0]);
  expect(new Set(after).size).toBe(after.length);
});

test('Cancel pauses the build, keeping what is finished; Resume completes it', async ({ page }) => {
  await page.goto('/');
  await configure(page, llm);
  await useSmallChunks(page);
  await addSample(page);
  llm.configure({ latencyMs: 4000 }); // slow replies leave time to press Cancel mid-build
  await page.getByRole('button', { name: 'Build tree' }).click();
  const progress = page.getByRole('region', { name: 'Build progress' });
  await expect
    .poll(() => summaryRequests().filter((r) => r.status === 200).length, { timeout: 120_000 })
    .toBeGreaterThan(0);
  await progress.getByRole('button', { name: 'Cancel' }).click();
  await expect(progress.getByText(/Build paused/)).toBeVisible({ timeout: 30_000 });
  const paid = summaryRequests()
    .filter((r) => r.status === 200)
    .map((r) => JSON.stringify(r.body));
  llm.reset();
  llm.configure({ latencyMs: 0 });
  await progress.getByRole('button', { name: 'Resume' }).click();
  await expect(page.locator('canvas[aria-label="Tree view"][data-frames]')).toBeAttached({
    timeout: 180_000,
  });
  const after = summaryRequests().map((r) => JSON.stringify(r.body));
  for (const body of paid) expect(after).not.toContain(body);
});

/**
 * A full disk (issue 24), with Chromium's real quota: the DevTools protocol's `Storage.overrideQuotaForOrigin`
 * shrinks this origin's quota, so IndexedDB refuses writes with a real QuotaExceededError. A build that could
 * not be recorded never offers Resume (it says what to do and offers to build again); a Settings save that
 * fails keeps the dialog and the edits; a quota that runs out mid-build keeps what was finished, and Resume
 * completes the tree without paying for a finished summary twice (the FAKE LLM server's log shows it).
 */
import type { BrowserContext, Page } from '@playwright/test';
import type { FakeLlmServer } from '../tests/support/llm-server';
import {
  addSample,
  cachedSummaries,
  configure,
  libraryRow,
  setParams,
  startLlm,
  treeCanvas,
} from './support/app';
import { expect, test } from './support/fixtures';

let llm: FakeLlmServer;
test.beforeEach(async () => {
  llm = await startLlm();
});
test.afterEach(async () => {
  await llm.close();
});

/** Whether a 4 kB write to a scratch database of this origin succeeds now. */
function probeWrite(page: Page): Promise<boolean> {
  return page.evaluate(
    () =>
      new Promise<boolean>((resolve) => {
        const open = indexedDB.open('aerie-quota-probe');
        open.onupgradeneeded = () => open.result.createObjectStore('probe');
        open.onerror = () => resolve(false);
        open.onsuccess = () => {
          const db = open.result;
          const tx = db.transaction('probe', 'readwrite');
          tx.objectStore('probe').put('x'.repeat(4096), Math.random());
          tx.oncomplete = () => (db.close(), resolve(true));
          tx.onabort = () => (db.close(), resolve(false));
        };
      }),
  );
}

/** The origin's storage as the browser's quota sees it: `full` (no write fits) or back to normal. */
/**
 * Chromium lets each context (a page, a worker) write against the free space it last asked the quota manager
 * for, for up to 30 s; only then does a changed quota reach it. Measured here: a worker writing every 5 s was
 * refused from 30.1 s after the override on.
 */
const QUOTA_CACHE_MS = 30_000;

/**
 * Sets the origin's storage as the browser's quota sees it — `full` (no write fits) or back to normal — and
 * waits until this page's own writes see it.
 */
async function setStorage(context: BrowserContext, page: Page, state: 'full' | 'normal'): Promise<void> {
  const cdp = await context.newCDPSession(page);
  const origin = new URL(page.url()).origin;
  await cdp.send('Storage.overrideQuotaForOrigin', state === 'full' ? { origin, quotaSize: 1 } : { origin });
  await expect.poll(() => probeWrite(page), { timeout: QUOTA_CACHE_MS + 15_000 }).toBe(state === 'normal');
}

/** Bodies of the summary requests the FAKE server answered, as comparable strings. */
function answeredSummaries(): string[] {
  return llm.modelRequests
    .filter((r) => r.path.endsWith('/chat/completions') && r.status === 200)
    .map((r) => JSON.stringify(r.body));
}

test('a build that cannot be recorded never offers Resume: it says what to do, then builds again', async ({
  page,
  context,
}) => {
  await page.goto('/');
  await configure(page, llm);
  await addSample(page);
  await setStorage(context, page, 'full');
  await page.getByRole('button', { name: 'Build tree' }).click();

  const progress = page.getByRole('region', { name: 'Build progress' });
  await expect(progress.getByText(/This build could not be saved: the browser’s storage/)).toBeVisible();
  await expect(progress.getByText(/let the browser keep this site’s data on this device/)).toBeVisible();
  await expect(page.getByRole('button', { name: /Resume/ })).toHaveCount(0);
  await expect(progress.getByRole('button', { name: 'Keep data on this device' })).toBeVisible();
  // Nothing was recorded or paid for; the document still waits.
  await expect(page.getByRole('region', { name: 'Library' }).getByText('No trees yet')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Documents' }).getByText('cinderella.txt')).toBeVisible();
  expect(llm.modelRequests).toEqual([]);

  await setStorage(context, page, 'normal');
  await progress.getByRole('button', { name: 'Build again' }).click();
  await expect(treeCanvas(page)).toBeAttached({ timeout: 180_000 });
  await expect(libraryRow(page, 'cinderella').getByText('Ready')).toBeVisible();
});

test('a Settings save that storage refuses keeps the dialog open with the edits', async ({
  page,
  context,
}) => {
  await page.goto('/');
  await setStorage(context, page, 'full');
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await dialog.getByLabel('Chunk tokens').fill('77');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(
    dialog.getByText(/The settings could not be saved\. The browser refused to store more/),
  ).toBeVisible();
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Chunk tokens')).toHaveValue('77');

  await setStorage(context, page, 'normal');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await page.reload();
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Settings' }).getByLabel('Chunk tokens')).toHaveValue('77');
});

test('storage running out mid-build keeps what was finished; Resume completes it without paying twice', async ({
  page,
  context,
}) => {
  await page.goto('/');
  await configure(page, llm);
  await setParams(page, { 'Chunk tokens': '40' });
  await addSample(page);
  // Two summaries come back at once; the next ones take long enough for the full disk to reach the build
  // worker (whose view of the free space Chromium refreshes only every 30 s).
  const held = QUOTA_CACHE_MS + 5000;
  llm.enqueue(
    { kind: 'reply', text: 'Summary one: the mother dies and the hazel tree grows.' },
    { kind: 'reply', text: 'Summary two: the ball and the golden slipper.' },
    ...Array.from({ length: 8 }, () => ({ kind: 'reply' as const, text: 'A late summary.', delayMs: held })),
  );
  await page.getByRole('button', { name: 'Build tree' }).click();
  await expect.poll(() => cachedSummaries(page), { timeout: 120_000 }).toBe(2);
  const paid = answeredSummaries();
  await setStorage(context, page, 'full');

  const progress = page.getByRole('region', { name: 'Build progress' });
  await expect(progress.getByText(/storage for this site is full, so the build stopped/)).toBeVisible({
    timeout: held + 30_000,
  });
  await expect(progress.getByText(/Everything finished so far is kept/)).toBeVisible();
  await expect(progress.getByRole('button', { name: 'Resume' })).toBeVisible();
  expect(await cachedSummaries(page)).toBe(2);

  await setStorage(context, page, 'normal');
  llm.reset();
  await progress.getByRole('button', { name: 'Resume' }).click();
  await expect(treeCanvas(page)).toBeAttached({ timeout: 180_000 });
  const after = answeredSummaries();
  expect(after.length).toBeGreaterThan(0);
  for (const body of paid) expect(after).not.toContain(body);
});

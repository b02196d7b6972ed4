/**
 * Offline after the first visit (issue 36), on the production build: a first visit online saves the offline copy
 * (the service worker's precache) and builds a tree; the built-in test model answers once, so transformers.js
 * keeps it. Then the network goes (`context.setOffline`) and the page reloads: the app starts from the offline
 * copy, says it is offline and what needs the network, the library opens, a question is answered (retrieved
 * passages and the built-in model's answer), PDF.js reads a PDF that needs its CMaps, and a new document is
 * built with the offline model. Every request, the service worker's included, stays on this machine. Last, the
 * site's storage is evicted as Chromium evicts it, and the trees are named. While offline, a worker's CSP
 * report cannot reach the server; the page's own violations are still caught by the guard.
 */
import type { Page } from '@playwright/test';
import { OFFLINE_MODEL_ID } from '../src/models/embed/embedding-presets';
import { TEST_GENERATOR_ID } from '../src/models/generate/generator-presets';
import { SERVICE_WORKER_PATH } from '../src/offline/names';
import { buildLockName } from '../src/pipeline/locks';
import {
  addSample,
  ask,
  buildAndWait,
  expectOnlyLocalRequests,
  libraryRow,
  pasteDocument,
  recordRequests,
  shoot,
  treeCanvas,
} from './support/app';
import { expect, test } from './support/fixtures';
import { untilOfflineReady } from './support/offline';

test.use({ serviceWorkers: 'allow' });

const SECOND_DOCUMENT =
  'The lighthouse keeper climbed the stairs every evening to light the great lamp. Ships far out at sea ' +
  'watched for its beam and steered clear of the rocks below the cliff. One winter night a storm broke the ' +
  'glass, and the keeper held a lantern in the window until dawn so that no ship was lost. In the spring the ' +
  'village came together to mend the tower, and the keeper taught his daughter to tend the lamp herself. ' +
  'Years later she kept the light as her father had, and sailors still told the story of the winter storm.';

/** Settings: the offline embedding model; answers by the built-in test model, summaries extractive. */
async function offlineModels(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await dialog.getByLabel('Embedding model').selectOption(OFFLINE_MODEL_ID);
  const answering = dialog.getByRole('group', { name: 'Answering' });
  await answering.getByRole('checkbox', { name: 'Same endpoint as summarization' }).uncheck();
  await answering.getByLabel('LLM for answers').selectOption('builtin');
  const builtin = dialog.getByRole('group', { name: 'Built-in model (runs in this browser)' });
  await builtin.getByLabel('Built-in model', { exact: true }).selectOption(TEST_GENERATOR_ID);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
}

/** Asks and waits for the built-in model's streamed answer. */
async function askAndWait(page: Page, question: string): Promise<void> {
  await ask(page, question);
  const answer = page.locator('section.answer');
  await expect(answer.locator('.answer-text')).toHaveAttribute('aria-busy', 'false', { timeout: 180_000 });
  await expect(answer.locator('.answer-usage')).toContainText(
    'written in this browser by Aerie tiny test model',
  );
}

test('first visit online, then offline: the app starts, the library opens, a question is answered, a new document is built', async ({
  page,
  context,
}) => {
  test.setTimeout(900_000);
  const urls = recordRequests(context);
  const fromWorker: string[] = [];
  context.on('request', (r) => r.serviceWorker() && fromWorker.push(r.url()));

  // Counts the page's requests for persistent storage (asked at the first build of a visit).
  await context.addInitScript(() => {
    const storage = navigator.storage;
    const persist = storage.persist.bind(storage);
    (window as { persistAsked?: number }).persistAsked = 0;
    storage.persist = () => {
      (window as { persistAsked?: number }).persistAsked! += 1;
      return persist();
    };
  });

  // First visit, online.
  await page.goto('/');
  await untilOfflineReady(page);
  await offlineModels(page);
  await addSample(page);
  await buildAndWait(page);
  expect(await page.evaluate(() => (window as { persistAsked?: number }).persistAsked)).toBe(1);
  await askAndWait(page, 'Who helped Cinderella go to the ball?');

  // The network goes; the page reloads from the offline copy.
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Aerie', exact: true })).toBeVisible();
  const notices = page.getByRole('region', { name: 'Notifications' });
  await expect(notices.getByText('You are offline')).toBeVisible();
  await expect(notices.getByText(/Everything Aerie is set up to use is in this browser\.$/)).toBeVisible();

  // The library opens; a question is answered from the tree by the cached built-in model.
  await libraryRow(page, 'cinderella')
    .getByRole('button', { name: /^Open cinderella/ })
    .click();
  await expect(treeCanvas(page)).toBeAttached();
  await askAndWait(page, 'What did the prince find on the stairs?');
  await expect(page.locator('[data-node-id][data-mode="collapsed"]').first()).toBeVisible();

  // PDF.js reads a PDF from the offline copy: its worker, and the CMaps this CJK text cannot be read without.
  const documents = page.getByRole('region', { name: 'Documents' });
  await documents.getByLabel('Add documents').setInputFiles('tests/fixtures/ingest/cjk-cmap.pdf');
  const pdf = documents.getByRole('listitem').filter({ hasText: 'cjk-cmap.pdf' });
  await expect(pdf).toContainText('Ready', { timeout: 120_000 });
  await pdf.getByRole('button', { name: 'Remove cjk-cmap.pdf' }).click();
  await expect(pdf).toHaveCount(0);

  // A new document is built with the offline model.
  await pasteDocument(page, 'lighthouse.txt', SECOND_DOCUMENT);
  await page.getByRole('button', { name: 'Build tree' }).click();
  // The new tree opens once built (the one open before has a tree view already: wait for the title).
  await expect(page.locator('.open-title')).toHaveText('lighthouse', { timeout: 180_000 });
  await expect(treeCanvas(page)).toBeAttached();
  await expect(libraryRow(page, 'lighthouse').getByText('Ready')).toBeVisible();

  for (const [name, viewport] of [
    ['offline-1440', { width: 1440, height: 900 }],
    ['offline-390', { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(viewport);
    await shoot(page, name);
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  // Settings lists what is stored: each tree and each model kept in this browser, with its last use.
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  const storage = dialog.getByRole('group', { name: 'Storage and offline' });
  await expect(storage.getByRole('heading', { name: 'Trees (2)' })).toBeVisible();
  const models = storage.getByRole('list', { name: 'Models kept in this browser' }).getByRole('listitem');
  await expect(models.filter({ hasText: 'local:aerie-glove-100d' })).toContainText(
    /served by Aerie · last used/,
  );
  const tiny = models.filter({ hasText: 'local:aerie-tiny-qwen2' });
  await expect(tiny).toContainText(/served by Aerie · last used/);
  await expect(storage.getByText(/^\d[\d.]* MB in \d+ files: Aerie starts/)).toBeVisible();
  await storage.scrollIntoViewIfNeeded();
  for (const [name, viewport] of [
    ['settings-storage-1440', { width: 1440, height: 900 }],
    ['settings-storage-390', { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(viewport);
    await storage.getByRole('heading', { name: /^Models kept in this browser/ }).scrollIntoViewIfNeeded();
    await shoot(page, name);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  // Deleting a model deletes its cached files (it is read again from Aerie when next used).
  await tiny.getByRole('button', { name: /^Delete local:aerie-tiny-qwen2/ }).click();
  await expect(tiny).toHaveCount(0);
  expect(
    await page.evaluate(async () =>
      (await (await caches.open('transformers-cache')).keys())
        .map((r) => r.url)
        .filter((url) => url.includes('aerie-tiny-qwen2')),
    ),
  ).toEqual([]);

  // What needs the network is said in a sentence: an endpoint on another machine.
  const answering = dialog.getByRole('group', { name: 'Answering' });
  await answering.getByLabel('LLM for answers').selectOption('endpoint');
  await answering.getByLabel('Endpoint URL').fill('https://api.example.com/v1');
  await answering.getByLabel('Model').fill('remote-model');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(
    notices.getByText(/Needs the network: answers by remote-model at api\.example\.com\.$/),
  ).toBeVisible();

  // Back online, the notice goes.
  await context.setOffline(false);
  await expect(notices.getByText('You are offline')).toHaveCount(0);

  // The browser evicts the site's storage as Chromium does under storage pressure (IndexedDB, Cache Storage and
  // the service worker at once; localStorage stays): the trees are named, not silently gone.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Storage.clearDataForOrigin', {
    origin: new URL(page.url()).origin,
    storageTypes: 'indexeddb,cache_storage,service_workers',
  });
  await page.reload();
  await expect(notices.getByText('The browser removed 2 trees: “lighthouse”, “cinderella”')).toBeVisible();
  await expect(page.getByText('No trees yet')).toBeVisible();

  expect(fromWorker.length).toBeGreaterThan(100);
  expectOnlyLocalRequests(urls);
});

test('a first visit’s offline copy waits while a build holds its lock, and completes once it is released', async ({
  page,
  context,
}) => {
  // The service worker's own fetches (the install's files; not its script); Chromium tells which a worker made.
  const fromWorker: string[] = [];
  context.on('request', (request) => {
    const url = request.url();
    if (request.serviceWorker() && !url.endsWith(`/${SERVICE_WORKER_PATH}`)) fromWorker.push(url);
  });
  // A build's Web Lock, held from before the page's own scripts run (so before the service worker installs),
  // as a build in this or another tab holds it (src/pipeline/locks.ts).
  await page.addInitScript((name) => {
    const held = new Promise<void>((resolve) => {
      (window as unknown as { releaseBuild: () => void }).releaseBuild = resolve;
    });
    void navigator.locks.request(name, () => held);
  }, buildLockName('held-by-the-test'));
  await page.goto('/');
  await expect
    .poll(() =>
      page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.installing != null),
    )
    .toBe(true);
  // Installing, and waiting: no file of the copy is fetched while the lock is held (it polls every 0.5 s).
  await page.waitForTimeout(3_000);
  expect(fromWorker).toEqual([]);
  expect(await page.evaluate(() => navigator.serviceWorker.controller)).toBeNull();

  await page.evaluate(() => (window as unknown as { releaseBuild: () => void }).releaseBuild());
  await untilOfflineReady(page);
  expect(fromWorker.length).toBeGreaterThan(100);
});

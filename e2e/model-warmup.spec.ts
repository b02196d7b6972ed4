/**
 * The embedding model loads while the user is still getting ready (src/models/embed/warmup.ts): adding a document
 * starts loading the build's model (and starts the build worker), so "Build tree" and the first question find it loaded; a hub model that is
 * not in this browser's cache is not downloaded until the user builds, and the offline model it falls back to loads instead;
 * a build clicked while that load runs falls back to it (the two loads in one worker do not steer each other's files).
 */
import type { Page, Route } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { addSample, buildAndWait, configure, recordRequests, treeCanvas } from './support/app';

/** The offline model's files, as the embedding worker requests them. */
const OFFLINE_FILES = '**/models/aerie-glove-100d/**';
const OFFLINE_WEIGHTS = /\/models\/aerie-glove-100d\/onnx\/[^/]+\.onnx$/;

/** Whether transformers.js's model cache holds the offline model's weights (stored once they are downloaded). */
function weightsCached(page: Page): Promise<boolean> {
  return page.evaluate(async () => {
    if (!(await caches.has('transformers-cache'))) return false;
    const keys = await (await caches.open('transformers-cache')).keys();
    return keys.some((r) => /\/models\/aerie-glove-100d\/onnx\/[^/]+\.onnx$/.test(r.url));
  });
}

test('adding a document loads the offline model before "Build tree"; the build and the question reuse it', async ({
  page,
  context,
}) => {
  const urls = recordRequests(context);
  await page.goto('/');
  await configure(page);
  await page.waitForTimeout(1_000);
  // Nothing to build and no tree open: no model is loaded.
  expect(urls.filter((u) => OFFLINE_WEIGHTS.test(u))).toEqual([]);

  await addSample(page);
  // The weights are downloaded without "Build tree" being clicked.
  await expect.poll(() => weightsCached(page), { timeout: 30_000 }).toBe(true);
  // The build worker is started too, and where there are two cores or more the embedding helper worker
  // (src/models/embed/embed-pool.ts) loads the model alongside the embedding worker.
  await expect.poll(() => urls.some((u) => /build\.worker/.test(u)), { timeout: 30_000 }).toBe(true);
  if ((await page.evaluate(() => navigator.hardwareConcurrency)) >= 2) {
    expect(urls.some((u) => /embed-helper\.worker/.test(u))).toBe(true);
  }
  // From now on the model's files cannot be had, from the network or the cache: the build and the question
  // work only if they use the model the warm-up loaded.
  await context.route(OFFLINE_FILES, (route) => route.abort());
  await page.evaluate(() => caches.delete('transformers-cache'));
  await buildAndWait(page);
  await expect(page.getByText(/could not be loaded|was not found/)).toHaveCount(0);

  await page.getByLabel('Question', { exact: true }).fill('Who helped Cinderella?');
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
  await expect(page.locator('[data-node-id][data-mode]').first()).toBeVisible({ timeout: 60_000 });
});

test('a hub model that was never downloaded is not fetched when a document is added: the offline model, its fallback, loads instead; a build clicked during that load falls back to it', async ({
  page,
  context,
}) => {
  const urls = recordRequests(context);
  // The offline model's configuration is held back until the build has started, so the warm-up's load is still
  // running when the build asks for the hub model (both loads in the embedding worker: source-gate.ts).
  const held: Route[] = [];
  let release = false;
  await context.route('**/models/aerie-glove-100d/config.json', (route) =>
    release ? route.continue() : void held.push(route),
  );
  await page.goto('/'); // default settings: the hub model multi-qa-MiniLM-L6-cos-v1, not in this new profile's cache
  await addSample(page);
  // The offline model (the app's own files) is what a build without the hub falls back to: it is loaded ahead.
  await expect.poll(() => held.length, { timeout: 30_000 }).toBeGreaterThan(0);
  expect(urls.filter((u) => new URL(u).hostname === 'huggingface.co')).toEqual([]);
  expect(urls.filter((u) => /\/models\//.test(u) && !/\/models\/aerie-glove-100d\//.test(u))).toEqual([]);

  await page.getByRole('button', { name: 'Build tree' }).click();
  await expect(page.getByRole('region', { name: 'Build progress' })).toContainText('Loading model');
  release = true;
  for (const route of held.splice(0)) await route.continue();
  await expect(page.getByText('Using the built-in offline model')).toBeVisible({ timeout: 60_000 });
  await expect(treeCanvas(page)).toBeAttached({ timeout: 180_000 });
  await expect(page.getByText(/could not be loaded|was not found/)).toHaveCount(0);
  expect(await weightsCached(page)).toBe(true);
});

/**
 * `npm run dev` never keeps a service worker: the dev server's `/sw.js` (build/pwa.ts) is a worker that takes
 * over from any service worker left on its origin (a production build once served on the same port) and
 * unregisters itself, so the dev server's pages are never answered from a stale offline copy.
 */
import { expect, test } from './support/fixtures';

test.use({ serviceWorkers: 'allow' });

test('the dev server’s /sw.js unregisters itself as soon as it is active', async ({ page }) => {
  await page.goto('/dev/components.html');
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.register('/sw.js')).scope);
  expect(scope).toMatch(/\/$/);
  await expect
    .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length), {
      timeout: 30_000,
    })
    .toBe(0);
});

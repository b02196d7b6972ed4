/**
 * Steps the specs of Aerie's offline copy share: waiting for the service worker to control a page, the one
 * reload that makes a page on a headerless host cross-origin isolated, and a second deployment of the app.
 */
import { execFileSync } from 'node:child_process';
import { expect, type Page } from '@playwright/test';

/** How long saving the offline copy (~67 MB from this machine) may take on two busy cores. */
export const OFFLINE_COPY_TIMEOUT_MS = 180_000;

/** Waits until the service worker controls the page: its offline copy is complete. */
export async function untilOfflineReady(page: Page): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), {
      timeout: OFFLINE_COPY_TIMEOUT_MS,
    })
    .toBe(true);
}

/**
 * Opens the app at `origin` on a host that sends no headers and waits for the reload by which the service
 * worker's headers make the page cross-origin isolated (useServiceWorker.ts: once, when nothing started yet).
 */
export async function openUntilIsolated(page: Page, origin: string): Promise<void> {
  const first = await page.goto(`${origin}/`);
  expect(first?.headers()['cross-origin-opener-policy']).toBeUndefined();
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
  const reloaded = await page.waitForResponse(
    (r) => r.url() === `${origin}/` && r.request().isNavigationRequest() && r.fromServiceWorker(),
    { timeout: OFFLINE_COPY_TIMEOUT_MS },
  );
  expect(reloaded.headers()['cross-origin-embedder-policy']).toBe('require-corp');
  await page.waitForLoadState('load');
  await expect(page.getByRole('heading', { name: 'Aerie', exact: true })).toBeVisible();
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
}

/**
 * Builds the app again into `outDir` as another deployment named `name` (VITE_AERIE_BUILD: Settings shows
 * it), with the tests' CSP reporting like the suite's own build.
 */
export function buildDeployment(outDir: string, name: string): void {
  execFileSync('npx', ['vite', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], {
    env: { ...process.env, VITE_AERIE_BUILD: name, AERIE_CSP_REPORT: '1' },
    stdio: 'pipe',
  });
}

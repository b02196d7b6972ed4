/**
 * Updates that never break work (issue 36): two builds of dist/ served one after the other by a plain static
 * server. A tab on the first is building when the second is deployed: the page says "A new version of Aerie is
 * ready", the person chooses Reload, and the page reloads only once the build has finished, into the new
 * version. A second tab, still on the first version, is told another tab updated, and the files of its version
 * stay available to it (the new version keeps the previous one's until the next update).
 */
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type { FakeLlmServer } from '../tests/support/llm-server';
import {
  addSample,
  configure,
  expectOnlyLocalRequests,
  recordRequests,
  shoot,
  startLlm,
  treeCanvas,
} from './support/app';
import { expect, test } from './support/fixtures';
import { buildDeployment, openUntilIsolated, untilOfflineReady } from './support/offline';
import { startStaticServer, type StaticServer } from './support/static-server';

test.use({ serviceWorkers: 'allow' });

/** The second deployment, built by this spec (the first is the suite's dist/). */
const NEXT = join('test-results', 'update-dist-b');
/** Delay of each summary while the update arrives (ms): the build is still running when the notice shows. */
const SLOW_SUMMARY_MS = 20_000;

let server: StaticServer;
let llm: FakeLlmServer;
test.beforeAll(async () => {
  test.setTimeout(600_000);
  buildDeployment(NEXT, 'b');
  server = await startStaticServer('dist');
  llm = await startLlm();
});
test.afterAll(async () => {
  await server?.close();
  await llm?.close();
});

/** The version the page runs, as Settings' storage section names it. */
async function versionOf(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  const heading = dialog.getByRole('heading', { name: /^Offline copy of Aerie / });
  await expect(heading).toBeVisible();
  const text = (await heading.innerText()).replace('Offline copy of Aerie ', '');
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(dialog).toBeHidden();
  return text;
}

test('a new deployment: the notice, no reload during a running build, the reload when chosen; another tab keeps working', async ({
  page,
  context,
  csp,
}) => {
  test.setTimeout(900_000);
  await csp.watch(server.origin);
  const urls = recordRequests(context);
  await openUntilIsolated(page, server.origin);
  expect(await versionOf(page)).toBe('0.1.0');
  const other = await context.newPage();
  await other.goto(`${server.origin}/`);
  await untilOfflineReady(other);
  const oldScript = await other.locator('script[type="module"]').getAttribute('src');

  // A build runs (its summaries slowed down), then the next version is deployed and found.
  await configure(page, llm);
  llm.configure({ latencyMs: SLOW_SUMMARY_MS });
  await addSample(page);
  await page.getByRole('button', { name: 'Build tree' }).click();
  const progress = page.getByRole('region', { name: 'Build progress' });
  await expect(progress.getByRole('button', { name: 'Cancel' })).toBeVisible();
  server.serve(NEXT);
  await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.update());
  const notices = page.getByRole('region', { name: 'Notifications' });
  await expect(notices.getByText('A new version of Aerie is ready')).toBeVisible({ timeout: 120_000 });
  for (const [name, viewport] of [
    ['update-ready-1440', { width: 1440, height: 900 }],
    ['update-ready-390', { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(viewport);
    await shoot(page, name);
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  // The person chooses Reload mid-build: the page says it waits, and does not reload.
  await page.evaluate(() => ((window as { stillHere?: boolean }).stillHere = true));
  await notices.getByRole('button', { name: 'Reload' }).click();
  await expect(notices.getByText('Aerie reloads as soon as the build has finished.')).toBeVisible();
  // The build goes on to its summaries (each one held for SLOW_SUMMARY_MS: while one is asked, the build cannot
  // have ended) and the page is still the same page.
  await expect.poll(() => llm.modelRequests.length, { timeout: 240_000 }).toBeGreaterThan(0);
  await expect(progress.getByRole('button', { name: 'Cancel' })).toBeVisible();
  expect(await page.evaluate(() => (window as { stillHere?: boolean }).stillHere)).toBe(true);

  // The build ends; then the page reloads into the new version, with the tree built on the old one.
  llm.configure({ latencyMs: 0 });
  await page.waitForResponse((r) => r.url() === `${server.origin}/` && r.request().isNavigationRequest(), {
    timeout: 300_000,
  });
  await page.waitForLoadState('load');
  await expect(page.getByRole('heading', { name: 'Aerie', exact: true })).toBeVisible();
  expect(await page.evaluate(() => (window as { stillHere?: boolean }).stillHere)).toBeUndefined();
  expect(await versionOf(page)).toBe('0.1.0 (build b)');
  await page
    .getByRole('region', { name: 'Library' })
    .getByRole('button', { name: /^Open cinderella/ })
    .click();
  await expect(treeCanvas(page)).toBeAttached();

  // The other tab still runs the first version: it is told, and its version's files are still there for it.
  await expect(
    other.getByRole('region', { name: 'Notifications' }).getByText('Aerie was updated in another tab'),
  ).toBeVisible();
  const gone = await fetch(`${server.origin}${oldScript}`);
  expect(gone.status).toBe(404);
  expect(await other.evaluate(async (src) => (await fetch(src!)).status, oldScript)).toBe(200);

  expectOnlyLocalRequests(urls);
});

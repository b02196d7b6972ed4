/**
 * Aerie from any static host: dist/ served by a plain static server that sends no headers at all
 * (e2e/support/static-server.ts). The first page is not cross-origin isolated; the service worker installs the
 * offline copy, takes the page, and adds COOP/COEP and the CSP to pages and workers, so after its one reload
 * the page and the embedding worker are isolated. Missing files stay 404s (never the app's page), and the
 * installed-app manifest is what a browser needs to offer installing. The CSP guard watches this server too
 * (the service worker's policy reports to it). When the person started something before the offline copy was
 * complete, the page does not reload by itself: its note to reload stays, with a Reload button (issue 41).
 */
import { formatQuantity } from '../src/app/format';
import { embedWorkerPlan } from '../src/models/embed';
import { TRANSIENT_NOTICE_MS } from '../src/app/state/useNotices';
import { expectOnlyLocalRequests, pasteDocument, recordRequests } from './support/app';
import { expect, test } from './support/fixtures';
import { OFFLINE_COPY_TIMEOUT_MS, openUntilIsolated } from './support/offline';
import { startStaticServer, type StaticServer } from './support/static-server';

test.use({ serviceWorkers: 'allow' });

let server: StaticServer;
test.beforeAll(async () => {
  server = await startStaticServer('dist');
});
test.afterAll(async () => {
  await server.close();
});

test('a host that sends no headers: after the service worker installs, the page and its workers are cross-origin isolated, the app is installable, missing files stay 404s', async ({
  page,
  context,
  csp,
}) => {
  await csp.watch(server.origin);
  const urls = recordRequests(context);
  const fromWorker: string[] = [];
  context.on('request', (r) => r.serviceWorker() && fromWorker.push(r.url()));
  await openUntilIsolated(page, server.origin);

  await test.step('the embedding worker reports how it runs models', async () => {
    // Its script, too, came with the headers from the service worker.
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);
    const { threads } = embedWorkerPlan(cores, true);
    await expect(
      dialog.getByText(
        `This page is cross-origin isolated: a model may use all ${formatQuantity(cores, 'core')} here ` +
          `(ONNX Runtime: ${formatQuantity(threads, 'thread')} in each embedding worker).`,
      ),
    ).toBeVisible();
    await expect(
      dialog.getByText(/^\d[\d.]* MB in \d+ files: Aerie starts, opens your library/),
    ).toBeVisible();
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  });

  await test.step('the installed app: a valid manifest, its icons as declared, nothing missing to install it', async () => {
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBe('/manifest.webmanifest');
    const manifest = await page.evaluate(async (url) => (await fetch(url)).json(), href!);
    expect(manifest).toMatchObject({
      name: expect.stringMatching(/^Aerie/),
      short_name: 'Aerie',
      display: 'standalone',
    });
    expect(new URL(manifest.start_url, `${server.origin}${href}`).href).toBe(`${server.origin}/`);
    // Every icon loads and is the size it claims; one may be cropped by a launcher (maskable).
    for (const icon of manifest.icons as { src: string; sizes: string; purpose?: string }[]) {
      const size = await page.evaluate(
        async (src) => {
          const bitmap = await createImageBitmap(await (await fetch(src)).blob());
          return `${bitmap.width}x${bitmap.height}`;
        },
        new URL(icon.src, `${server.origin}${href}`).href,
      );
      expect(size, icon.src).toBe(icon.sizes);
    }
    expect(manifest.icons.some((i: { purpose?: string }) => i.purpose === 'maskable')).toBe(true);

    // Chromium's own reading of the manifest, and its installability check (manifest fields, icons, a service
    // worker with a fetch handler controlling the page, start URL in scope).
    const cdp = await context.newCDPSession(page);
    const parsed = (await cdp.send('Page.getAppManifest')) as { errors: { message: string }[] };
    expect(parsed.errors).toEqual([]);
    const installable = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: { errorId: string }[];
    };
    // Playwright's contexts are incognito profiles, where Chromium never installs apps; nothing else may be missing.
    expect(installable.installabilityErrors.map((e) => e.errorId)).toEqual(['in-incognito']);
  });

  // A missing file stays the host's 404, for a fetch and for a navigation alike: never the app's page.
  const statuses = await page.evaluate(async () => {
    const status = async (path: string) => {
      const r = await fetch(path);
      return `${r.status} ${r.headers.get('content-type')}`;
    };
    return [await status('/models/missing/config.json'), await status('/ort/missing.wasm')];
  });
  expect(statuses).toEqual(['404 text/plain', '404 text/plain']);
  const missing = await page.goto(`${server.origin}/models/missing/config.json`);
  expect(missing?.status()).toBe(404);

  // The service worker's own requests reach the privacy check, and all of them stayed on this machine.
  expect(fromWorker.length).toBeGreaterThan(100);
  expectOnlyLocalRequests(urls);
});

test('a host that sends no headers, a document added first: the note to reload stays, and its Reload isolates the page', async ({
  page,
  csp,
}) => {
  await csp.watch(server.origin);
  await page.goto(`${server.origin}/`);
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(false);
  // Work started before the offline copy is complete: the page must not reload by itself.
  await pasteDocument(page, 'notes.txt', 'A note added before the offline copy was complete.');
  const documents = page.getByRole('list', { name: 'Added documents' });
  await expect(documents).toContainText('notes.txt');
  const note = page.getByRole('status').filter({ hasText: 'Aerie now works offline' });
  await expect(note).toContainText('Reload the page when convenient', { timeout: OFFLINE_COPY_TIMEOUT_MS });
  // Past the time a passing note is shown, it is still there (before: gone after 6 s, with no button).
  await page.waitForTimeout(TRANSIENT_NOTICE_MS + 1_000);
  await expect(note).toBeVisible();
  const reloaded = page.waitForResponse(
    (r) => r.url() === `${server.origin}/` && r.request().isNavigationRequest() && r.fromServiceWorker(),
  );
  await note.getByRole('button', { name: 'Reload', exact: true }).click();
  expect((await reloaded).headers()['cross-origin-embedder-policy']).toBe('require-corp');
  await page.waitForLoadState('load');
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
  // The document added before the reload is still waiting to be built.
  await expect(documents).toContainText('notes.txt');
});

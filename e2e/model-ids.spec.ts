/**
 * Model ids keep to their form (issue 34, point 6), in the browser: Settings refuses a reranker or built-in
 * model id that would leave the app's models folder (`local:../../etc/passwd`, `%2e%2e` forms), a 10,000-
 * character id and one holding a password, saying what is wrong without quoting it; and an id saved before
 * (here written straight into storage, as an older version would have kept it) is refused where it is used:
 * nothing is fetched for it, and the page says why instead of "Unexpected token … not valid JSON".
 */
import type { Page } from '@playwright/test';
import { configure, recordRequests } from './support/app';
import { openReadyTree } from './support/ready-tree';
import { expect, test } from './support/fixtures';

const TRAVERSAL = 'local:../../etc/passwd';
const SECRET = 'hunter2-s3cret';

/** Writes `reranker` into the saved settings, as a version that did not check ids would have kept it. */
async function saveRerankerDirectly(page: Page, reranker: string): Promise<void> {
  await page.evaluate(
    (model) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('aerie');
        open.onerror = () => reject(new Error(String(open.error)));
        open.onsuccess = () => {
          const tx = open.result.transaction('settings', 'readwrite');
          const store = tx.objectStore('settings');
          const get = store.get('appSettings');
          get.onsuccess = () => {
            store.put({ ...(get.result as object), reranker: { model } }, 'appSettings');
          };
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
          tx.onerror = () => reject(new Error(String(tx.error)));
        };
      }),
    reranker,
  );
}

test('Settings refuses model ids that leave the models folder, are too long or hold a password', async ({
  page,
}) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  const reranker = dialog.getByLabel('Reranker model');
  for (const [id, message] of [
    [TRAVERSAL, /A local: model names a folder inside the app’s models folder: no “\.\.”/],
    ['local:%2e%2e/%2e%2e/assets/index.js', /no %-escapes \(such as %2e\)/],
    [`Xenova/${'x'.repeat(10_000)}`, /at most 200 characters; this one has 10,007/],
    [`https://user:${SECRET}@evil.example/model`, /no “@”, user name or password/],
  ] as const) {
    await reranker.fill(id);
    await expect(dialog.getByText(message)).toBeVisible();
    await expect(reranker).toHaveAttribute('aria-invalid', 'true');
  }
  await expect(dialog).not.toContainText(SECRET);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeVisible();
  await reranker.fill('local:aerie-tiny-cross');
  await expect(reranker).not.toHaveAttribute('aria-invalid', 'true');
});

test('an id saved before is refused where it is used: nothing fetched, and the page says why', async ({
  page,
  context,
}) => {
  test.setTimeout(300_000);
  const urls = recordRequests(context);
  await page.goto('/');
  await configure(page);
  await openReadyTree(page, 'sample');
  await saveRerankerDirectly(page, TRAVERSAL);
  await page.reload();
  await page
    .getByRole('region', { name: 'Library' })
    .getByRole('button', { name: /^Open cinderella/ })
    .click();
  const panel = page.getByRole('region', { name: 'Ask' });
  await panel.getByRole('checkbox', { name: 'Rerank the best passages with a cross-encoder' }).check();
  await panel.getByLabel('Question', { exact: true }).fill('What did Cinderella lose?');
  await panel.getByRole('button', { name: 'Ask', exact: true }).click();
  await expect(
    panel.getByText(
      /The passages were not reranked: The reranker model cannot be loaded: A local: model names a folder inside the app’s models folder/,
    ),
  ).toBeVisible({ timeout: 60_000 });
  await expect(panel.locator('[data-node-id][data-mode="collapsed"]').first()).toBeVisible();
  await expect(panel).not.toContainText(/Unexpected token|not valid JSON/);
  expect(urls.filter((u) => /etc\/passwd|%2e%2e/i.test(u))).toEqual([]);
});

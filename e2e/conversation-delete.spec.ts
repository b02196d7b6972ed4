/**
 * Deleting a conversation keeps its word (issue 34, point 1): a conversation deleted while its answer streams
 * (slowly, from the FAKE LLM server) has its request aborted at once, and nothing brings it back — not the
 * answer that was on its way, not a reload, not another tab that was asking in it. Its records are gone from
 * IndexedDB (counted in the page).
 */
import { expect, test } from './support/fixtures';
import type { Page } from '@playwright/test';
import { ask, configure, fakeLlmForFile } from './support/app';
import { openReadyTree } from './support/ready-tree';

const llm = fakeLlmForFile();

const FIRST = 'Who helped Cinderella go to the ball?';
const SECOND = 'What did the stepmother make Cinderella do?';
/** A reply that streams for about 15 s at the delay below (6 characters a chunk). */
const SLOW_REPLY = 'She had to sort the lentils from the ashes before she could go. '.repeat(9) + '[1]';
const CHUNK_DELAY_MS = 150;
/** Longer than the slow reply takes to stream: by then a reply that was not aborted would have been saved. */
const STREAM_MS = Math.ceil(SLOW_REPLY.length / 6) * CHUNK_DELAY_MS + 2_000;

/** Records in the conversation stores of Aerie's database, read in the page. */
function storedConversationRecords(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('aerie');
        open.onerror = () => reject(new Error(String(open.error)));
        open.onsuccess = () => {
          const db = open.result;
          const names = [...db.objectStoreNames].filter((n) => n === 'conversations' || n === 'turns');
          const tx = db.transaction(names, 'readonly');
          let total = 0;
          let left = names.length;
          for (const name of names) {
            const request = tx.objectStore(name).count();
            request.onsuccess = () => {
              total += request.result;
              if (--left === 0) {
                db.close();
                resolve(total);
              }
            };
          }
        };
      }),
  );
}

/** Waits until the slow answer is streaming into the page (part of it shown, its request open). */
async function waitForStreaming(page: Page): Promise<void> {
  const answer = page.getByRole('region', { name: 'Ask' }).getByRole('region', { name: /^Answer/ });
  await expect(answer).toContainText('She had to', { timeout: 60_000 });
  expect(llm.inFlight).toBe(1);
}

test('a conversation deleted while its answer streams is aborted and never comes back', async ({ page }) => {
  test.setTimeout(300_000);
  await page.goto('/');
  await configure(page, llm);
  await openReadyTree(page, 'sample');
  const panel = page.getByRole('region', { name: 'Ask' });
  const select = panel.getByLabel('Conversation', { exact: true });

  await ask(page, FIRST);
  await expect(select).toContainText(`${FIRST} (1 question)`, { timeout: 60_000 });

  llm.reset();
  llm.configure({ chunkDelayMs: CHUNK_DELAY_MS });
  llm.enqueue({ kind: 'reply', text: SLOW_REPLY });
  await ask(page, SECOND);
  await waitForStreaming(page);
  await panel.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(select).not.toContainText(FIRST);
  // The request is aborted at once: the server sees its connection closed.
  await expect.poll(() => llm.inFlight, { timeout: 3_000 }).toBe(0);
  await page.waitForTimeout(STREAM_MS);
  await expect(select).not.toContainText(FIRST);
  await expect(select).not.toContainText(SECOND);
  expect(await storedConversationRecords(page)).toBe(0);
  await page.reload();
  await page
    .getByRole('region', { name: 'Library' })
    .getByRole('button', { name: /^Open cinderella/ })
    .click();
  const reloaded = page.getByRole('region', { name: 'Ask' }).getByLabel('Conversation', { exact: true });
  await expect(reloaded).toBeVisible();
  await expect(reloaded).not.toContainText(FIRST);
  await expect(reloaded).not.toContainText(SECOND);
  llm.configure({ chunkDelayMs: 0 });
});

test('a conversation deleted in another tab stops the question asked in it there', async ({ context }) => {
  test.setTimeout(300_000);
  const asking = await context.newPage();
  await asking.goto('/');
  await configure(asking, llm);
  await openReadyTree(asking, 'sample');
  const select = asking.getByRole('region', { name: 'Ask' }).getByLabel('Conversation', { exact: true });
  await ask(asking, FIRST);
  await expect(select).toContainText(`${FIRST} (1 question)`, { timeout: 60_000 });

  // The other tab opens the same tree and the same conversation.
  const deleting = await context.newPage();
  await deleting.goto('/');
  await deleting
    .getByRole('region', { name: 'Library' })
    .getByRole('button', { name: /^Open cinderella/ })
    .click();
  const otherSelect = deleting
    .getByRole('region', { name: 'Ask' })
    .getByLabel('Conversation', { exact: true });
  await otherSelect.selectOption({ label: `${FIRST} (1 question)` });

  llm.reset();
  llm.configure({ chunkDelayMs: CHUNK_DELAY_MS });
  llm.enqueue({ kind: 'reply', text: SLOW_REPLY });
  await ask(asking, SECOND);
  await waitForStreaming(asking);
  await deleting
    .getByRole('region', { name: 'Ask' })
    .getByRole('button', { name: 'Delete', exact: true })
    .click();
  await expect(otherSelect).not.toContainText(FIRST);
  await expect.poll(() => llm.inFlight, { timeout: 3_000 }).toBe(0);
  await expect(select).not.toContainText(FIRST);
  await asking.waitForTimeout(STREAM_MS);
  await expect(select).not.toContainText(SECOND);
  expect(await storedConversationRecords(asking)).toBe(0);
  llm.configure({ chunkDelayMs: 0 });
});

/**
 * A deletion reaches every tab (issue 41, point 3). Two pages of one browser context share the app's storage:
 * the first answers a question on a novel's tree (imported, tests/fixtures/books/northanger-abbey.raptor.json)
 * with a reply the FAKE LLM server streams slowly; the second deletes the tree from its library. The first
 * tab's request is aborted at once (the server sees its connection closed), the tree closes there with "This
 * tree was deleted in another tab" and Ask asks for a tree; the answer that was on its way is never stored, and
 * after a reload nothing of the tree is in IndexedDB. Before: the request was paid in full, the tree stayed open
 * with Ask enabled, and a conversation and turn of the deleted tree were stored.
 */
import {
  ask,
  configure,
  deleteFromLibrary,
  fakeLlmForFile,
  importTreeFile,
  libraryRow,
  screenshotPath,
  storedRecords,
} from './support/app';
import { expect, test } from './support/fixtures';

const NOVEL = 'tests/fixtures/books/northanger-abbey.raptor.json';
const TITLE = 'Northanger Abbey';
const QUESTION = 'What did Catherine find in the chest?';
/** A reply that streams for about 15 s at the delay below (6 characters a chunk). */
const SLOW_REPLY =
  'Catherine found a roll of paper, which turned out to be a laundry list. '.repeat(8) + '[1]';
const CHUNK_DELAY_MS = 150;
/** Longer than the slow reply takes to stream: by then a reply that was not aborted would have been stored. */
const STREAM_MS = Math.ceil(SLOW_REPLY.length / 6) * CHUNK_DELAY_MS + 2_000;

const llm = fakeLlmForFile();

test('a tree deleted in another tab: the answer there is aborted, the tree closes with a notice, nothing comes back', async ({
  context,
}) => {
  test.setTimeout(180_000);
  const asking = await context.newPage();
  await asking.goto('/');
  await configure(asking, llm);
  await importTreeFile(asking, NOVEL, TITLE);
  const deleting = await context.newPage();
  await deleting.goto('/');
  await expect(libraryRow(deleting, TITLE)).toBeVisible();

  llm.configure({ chunkDelayMs: CHUNK_DELAY_MS });
  llm.enqueue({ kind: 'reply', text: SLOW_REPLY });
  await ask(asking, QUESTION);
  const answer = asking.getByRole('region', { name: 'Ask' }).getByRole('region', { name: /^Answer/ });
  await expect(answer).toContainText('Catherine found', { timeout: 60_000 });
  expect(llm.inFlight).toBe(1);

  await deleteFromLibrary(deleting, TITLE);
  await expect(libraryRow(deleting, TITLE)).toHaveCount(0);
  // The asking tab's request is aborted at once: the server sees its connection closed.
  await expect.poll(() => llm.inFlight, { timeout: 3_000 }).toBe(0);
  await expect(asking.getByText('This tree was deleted in another tab')).toBeVisible();
  await expect(
    asking.getByText(`“${TITLE}” was deleted in another Aerie tab, so it was closed here`),
  ).toBeVisible();
  await expect(asking.locator('.open-title')).toHaveCount(0);
  await expect(asking.getByText('Build or open a tree first.')).toBeVisible();
  await expect(libraryRow(asking, TITLE)).toHaveCount(0);
  await asking.screenshot({ path: screenshotPath('tree-deleted-in-another-tab') });

  // Had the reply not been aborted, it would have been stored by now.
  await asking.waitForTimeout(STREAM_MS);
  const nothing = {
    trees: 0,
    nodes: 0,
    checkpoints: 0,
    conversations: 0,
    turns: 0,
    evalSets: 0,
    evalRuns: 0,
    cache: 0,
  };
  expect(await storedRecords(asking)).toMatchObject(nothing);
  await asking.reload();
  await expect(asking.getByRole('region', { name: 'Library' }).getByText('No trees yet')).toBeVisible();
  expect(await storedRecords(asking)).toMatchObject(nothing);
  llm.configure({ chunkDelayMs: 0 });
});

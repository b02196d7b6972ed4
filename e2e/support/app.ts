/**
 * Steps the browser journeys share: configure Aerie through its Settings dialog, add the sample, build, ask,
 * and watch every request the page (and its workers) makes.
 */
import { expect, type BrowserContext, type Page } from '@playwright/test';
import { OFFLINE_MODEL_ID } from '../../src/models/embed/embedding-presets';
import { FakeLlmServer, startFakeLlmServer } from '../../tests/support/llm-server';
import { test } from './fixtures';

/** The API key the fake LLM server expects. */
export const LLM_KEY = 'sk-e2e-secret-key-123';
/** The model the fake LLM server knows. */
export const LLM_MODEL = 'fake-model';

/** Starts the FAKE LLM server (OpenAI and Anthropic protocols) on 127.0.0.1 — the only stand-in allowed. */
export function startLlm(): Promise<FakeLlmServer> {
  return startFakeLlmServer({ apiKey: LLM_KEY, models: [LLM_MODEL] });
}

/**
 * The FAKE LLM server of a spec file (as `startLlm` makes it), listening from before the file's first test until
 * after its last. Call it at the top level of the spec.
 */
export function fakeLlmForFile(): FakeLlmServer {
  const llm = new FakeLlmServer({ apiKey: LLM_KEY, models: [LLM_MODEL] });
  test.beforeAll(async () => {
    await llm.start();
  });
  test.afterAll(async () => {
    await llm.close();
  });
  return llm;
}

/** Every URL requested in the context (pages and workers). */
export function recordRequests(context: BrowserContext): string[] {
  const urls: string[] = [];
  context.on('request', (request) => urls.push(request.url()));
  return urls;
}

/** Asserts that every request went to this machine (the app's origin or the fake LLM server). */
export function expectOnlyLocalRequests(urls: string[]): void {
  const foreign = urls.filter((u) => {
    if (u.startsWith('data:') || u.startsWith('blob:')) return false;
    const host = new URL(u).hostname;
    return host !== '127.0.0.1' && host !== 'localhost';
  });
  expect(foreign, 'requests that left this machine').toEqual([]);
}

/** Settings for a journey: the offline model, and (optionally) the fake LLM for summaries and answers. */
export async function configure(
  page: Page,
  llm?: FakeLlmServer,
  options: { answers?: boolean } = {},
): Promise<void> {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Embedding model').selectOption(OFFLINE_MODEL_ID);
  if (llm) {
    const summaries = dialog.getByRole('group', { name: 'Summarization', exact: true });
    await summaries.getByLabel('Summarize with an LLM').check();
    await summaries.getByLabel('Endpoint URL').fill(llm.openaiBaseUrl);
    await summaries.getByLabel('API key').fill(LLM_KEY);
    await summaries.getByLabel('Model').fill(LLM_MODEL);
    const answering = dialog.getByRole('group', { name: 'Answering' });
    const same = answering.getByLabel('Same endpoint as summarization');
    if (options.answers === false) await same.uncheck();
    else await same.check();
  }
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
}

/** Adds the Cinderella sample and waits until it is read. */
export async function addSample(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Try the sample' }).click();
  await expect(page.getByRole('region', { name: 'Documents' }).getByText('cinderella.txt')).toBeVisible();
}

/** Starts a build and waits for the tree view of the finished tree. */
export async function buildAndWait(page: Page, timeout = 180_000): Promise<void> {
  await page.getByRole('button', { name: 'Build tree' }).click();
  await expect(page.getByRole('region', { name: 'Build progress' })).toBeVisible();
  await expect(page.locator('canvas[aria-label="Tree view"][data-frames]')).toBeAttached({ timeout });
}

/**
 * Asks a question in one mode (by its radio label) as a question of its own (not a follow-up of the ones
 * before it in the conversation).
 */
export async function ask(page: Page, question: string, modeLabel?: string): Promise<void> {
  if (modeLabel) await page.getByRole('radio', { name: modeLabel }).check();
  await page.getByLabel('Question', { exact: true }).fill(question);
  const followUp = page.getByRole('checkbox', { name: /Follow-up to the questions before/ });
  if (await followUp.isVisible()) await followUp.uncheck();
  await page.getByRole('button', { name: 'Ask', exact: true }).click();
}

/** The tree view's canvas once it has drawn a frame (the tree is open). */
export function treeCanvas(page: Page) {
  return page.locator('canvas[aria-label="Tree view"][data-frames]');
}

/**
 * Every node of the open tree as items of its outline (the ARIA tree), after opening every branch with
 * "Expand all" (offered for trees of up to 5,000 nodes).
 */
export async function treeItems(page: Page) {
  const outline = page.getByRole('tree', { name: 'Tree outline' });
  await expect(outline.getByRole('treeitem').first()).toBeAttached();
  await page.getByRole('region', { name: 'Outline' }).getByRole('button', { name: 'Expand all' }).click();
  return outline.locator('[role="treeitem"]');
}

/** The node ids in the tree outline whose data-selected lists `mode` (every branch opened first). */
export async function highlighted(page: Page, mode: string): Promise<number[]> {
  return (await treeItems(page)).evaluateAll(
    (els, m) =>
      els
        .filter((el) => (el.getAttribute('data-selected') ?? '').split(' ').includes(m))
        .map((el) => Number(el.getAttribute('data-node-id'))),
    mode,
  );
}

/** The node ids of the passages listed for `mode`, in rank order. */
export async function listedPassages(page: Page, mode: string): Promise<number[]> {
  return page
    .locator(`[data-node-id][data-mode="${mode}"]`)
    .evaluateAll((els) => [...new Set(els.map((el) => Number(el.getAttribute('data-node-id'))))]);
}

/**
 * Where the specs save the screenshots people review: test-results/screenshots/ in a test run, so `npm test`
 * leaves the clone as it was; docs/screenshots/ under `npm run screenshots` (AERIE_SCREENSHOTS=docs), which
 * refreshes the docs' pictures.
 */
export const SCREENSHOTS_DIR =
  process.env.AERIE_SCREENSHOTS === 'docs' ? 'docs/screenshots' : 'test-results/screenshots';

/** The path of the screenshot `name` (without `.png`) in {@link SCREENSHOTS_DIR}. */
export function screenshotPath(name: string): string {
  return `${SCREENSHOTS_DIR}/${name}.png`;
}

/** Saves a screenshot of a main state as `name` in {@link SCREENSHOTS_DIR} (reviewed by people). */
export async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: screenshotPath(name), fullPage: false });
}

/**
 * Drops a file onto the page the way a user's drag and drop does: dragenter, dragover and drop events carrying
 * a DataTransfer with the file (Playwright cannot drive a drag from the operating system).
 */
export async function dropFile(page: Page, name: string, text: string, target = 'main'): Promise<void> {
  const transfer = await page.evaluateHandle(
    ([fileName, content]) => {
      const data = new DataTransfer();
      data.items.add(new File([content], fileName, { type: 'text/plain' }));
      return data;
    },
    [name, text] as const,
  );
  for (const type of ['dragenter', 'dragover', 'drop']) {
    await page.dispatchEvent(target, type, { dataTransfer: transfer });
  }
}

/** Changes build parameters in Settings by their labels ("Chunk tokens", "Max cluster tokens", …). */
export async function setParams(page: Page, values: Record<string, string>): Promise<void> {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  for (const [label, value] of Object.entries(values)) await dialog.getByLabel(label).fill(value);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
}

/** Builds with the FAKE server's /v1/embeddings instead of a browser model. */
export async function useEndpointEmbeddings(page: Page, llm: FakeLlmServer): Promise<void> {
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings' });
  await dialog.getByLabel('Embedding model').selectOption('endpoint');
  const endpoint = dialog.getByRole('group', { name: 'Embeddings endpoint (optional)' });
  await endpoint.getByLabel('Endpoint URL').fill(llm.openaiBaseUrl);
  await endpoint.getByLabel('API key').fill(LLM_KEY);
  await endpoint.getByLabel('Model').fill(LLM_MODEL);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
}

/** The library row of the tree titled `title`. */
export function libraryRow(page: Page, title: string) {
  return page
    .getByRole('region', { name: 'Library' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: title, exact: true }) });
}

/**
 * Reloads the page the moment storage records the build of `title` at the stage `label` (the library row of a
 * live build says "Now: <label>", read from storage), and checks the build is left in the library as
 * interrupted at that stage, resumable.
 */
export async function reloadAtStage(page: Page, title: string, label: string, timeout = 120_000) {
  const row = libraryRow(page, title);
  // The page reloads itself the moment the row first says so (a MutationObserver sees every commit): a short
  // stage (clustering 1,300 leaves) can begin and end between two of the test's looks at the row.
  const reloaded = page.waitForEvent('load', { timeout });
  await page.evaluate(
    ([wanted, ms]) =>
      new Promise<void>((resolve, reject) => {
        const shows = () =>
          [...document.querySelectorAll('li')].some((li) => (li.textContent ?? '').includes(wanted));
        const fire = () => {
          observer.disconnect();
          clearTimeout(timer);
          resolve();
          setTimeout(() => location.reload(), 0);
        };
        const observer = new MutationObserver(() => {
          if (shows()) fire();
        });
        const timer = setTimeout(() => {
          observer.disconnect();
          reject(new Error(`the library never said "${wanted}" within ${ms} ms`));
        }, ms);
        if (shows()) fire();
        else observer.observe(document.body, { subtree: true, childList: true, characterData: true });
      }),
    [`Now: ${label}`, timeout] as const,
  );
  await reloaded;
  await expect(row.getByText('Interrupted')).toBeVisible();
  await expect(row.getByText(`Stopped at: ${label}`)).toBeVisible();
  await expect(row.getByRole('button', { name: `Resume ${title}` })).toBeVisible();
}

/** Presses Resume on the library row of `title`. */
export async function resumeFromLibrary(page: Page, title: string): Promise<void> {
  await libraryRow(page, title)
    .getByRole('button', { name: `Resume ${title}` })
    .click();
}

/** Adds a document through "Paste text" (its text and file name). */
export async function pasteDocument(page: Page, name: string, text: string): Promise<void> {
  await page.getByRole('button', { name: 'Paste text' }).click();
  const dialog = page.getByRole('dialog', { name: 'Paste text' });
  await dialog.getByLabel('Text').fill(text);
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Add' }).click();
}

/** A made-up document of `sentences` numbered sentences about Snow White: a second, distinct document to add. */
export function snowWhiteText(sentences: number): string {
  return Array.from(
    { length: sentences },
    (_, i) => `Snow White ate apple number ${i} in the forest with the seven dwarfs, far from the palace.`,
  ).join(' ');
}

/** Records in each IndexedDB store of Aerie's database, read in the page (a real browser's IndexedDB). */
export function storedRecords(page: Page): Promise<Record<string, number>> {
  return page.evaluate(
    () =>
      new Promise<Record<string, number>>((resolve, reject) => {
        const open = indexedDB.open('aerie');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const names = [...db.objectStoreNames].filter((n) => n !== 'settings');
          const tx = db.transaction(names, 'readonly');
          const counts: Record<string, number> = {};
          for (const name of names) {
            const request = tx.objectStore(name).count();
            request.onsuccess = () => (counts[name] = request.result);
          }
          tx.oncomplete = () => {
            db.close();
            resolve(counts);
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
  );
}

/** Deletes the tree titled `title` from its library row, confirming in the dialog. */
export async function deleteFromLibrary(page: Page, title: string): Promise<void> {
  await libraryRow(page, title)
    .getByRole('button', { name: `Delete ${title}` })
    .click();
  await page
    .getByRole('alertdialog', { name: `Delete “${title}”?` })
    .getByRole('button', { name: 'Delete' })
    .click();
}

/** Imports a tree file through the library's "Import tree" and waits until it is the open tree (`title`). */
export async function importTreeFile(page: Page, file: string, title: string): Promise<void> {
  await page.getByRole('region', { name: 'Library' }).getByLabel('Tree file to import').setInputFiles(file);
  await expect(page.locator('.open-title')).toHaveText(title, { timeout: 60_000 });
}

/** Summary entries in the cache store (a real browser's IndexedDB): the summaries a build has stored. */
export function cachedSummaries(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('aerie');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const request = db.transaction('cache').objectStore('cache').getAll();
          request.onsuccess = () => {
            db.close();
            resolve((request.result as { kind: string }[]).filter((e) => e.kind === 'summary').length);
          };
        };
      }),
  );
}

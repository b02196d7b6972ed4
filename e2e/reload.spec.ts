/**
 * Reloads at every stage of the first minute (issue 9). A build is recorded before anything slow starts, so a
 * reload while the model downloads, while it loads, while chunking, embedding, clustering or summarising leaves
 * it in the library, interrupted and resumable; resuming pays for nothing twice (the FAKE LLM server's log shows
 * every summary and embedding requested once; the progress view says how many were reused). Documents added
 * but not built yet survive a reload too. Each stage is caught deterministically: model files and ONNX
 * Runtime are held with Playwright routing, the FAKE LLM server hangs on chosen requests, and the stage is read
 * from the library row, which shows what storage recorded — no sleeping.
 */
import type { Page, Route, Worker as PageWorker } from '@playwright/test';
import type { FakeLlmServer } from '../tests/support/llm-server';
import {
  addSample,
  configure,
  libraryRow,
  reloadAtStage,
  resumeFromLibrary,
  setParams,
  startLlm,
  treeItems,
  useEndpointEmbeddings,
} from './support/app';
import { expect, test } from './support/fixtures';

let llm: FakeLlmServer;
test.beforeEach(async () => {
  llm = await startLlm();
});
test.afterEach(async () => {
  await llm.close();
});

/** How long a stage of the 10 MB build may take to begin on a slow, shared machine. */
const SLOW_STAGE_MS = 300_000;

/** The page's build worker (workers/build.worker.ts): the one running, or the next to start. */
function buildWorker(page: Page): Promise<PageWorker> {
  const isBuild = (worker: PageWorker) => worker.url().includes('build.worker');
  const running = page.workers().find(isBuild);
  return running ? Promise.resolve(running) : page.waitForEvent('worker', { predicate: isBuild });
}

/**
 * Holds the clustering workers `build` starts from now on (src/pipeline/cluster-workers.ts): what the build
 * posts them is never delivered, so a layer's clustering waits for its pool until the page goes. Playwright's
 * routing does not see the requests of a worker's own workers, so their script cannot be held like the model's
 * files. `started` counts the workers held. Call it before the build's first layer can begin: its model load
 * comes first.
 */
async function holdClusterWorkers(build: PageWorker): Promise<{ started: () => Promise<number> }> {
  await build.evaluate(() => {
    const scope = globalThis as unknown as { Worker: typeof Worker; heldClusterWorkers: number };
    const Real = scope.Worker;
    scope.heldClusterWorkers = 0;
    scope.Worker = class extends Real {
      readonly held: boolean;
      constructor(url: string | URL, options?: WorkerOptions) {
        super(url, options);
        this.held = String(url).includes('cluster.worker');
        if (this.held) scope.heldClusterWorkers++;
      }
      override postMessage(message: unknown, options?: StructuredSerializeOptions | Transferable[]): void {
        if (!this.held) super.postMessage(message, options as StructuredSerializeOptions);
      }
    };
  });
  return {
    started: () =>
      build.evaluate(() => (globalThis as unknown as { heldClusterWorkers: number }).heldClusterWorkers),
  };
}

const tree = (page: Page) => page.locator('canvas[aria-label="Tree view"][data-frames]');

/** Request bodies the FAKE server answered with 200 on `path`, as comparable strings. */
function answered(path: string): string[] {
  return llm.modelRequests
    .filter((r) => r.path.endsWith(path) && r.status === 200)
    .map((r) => JSON.stringify(r.body));
}

/** The files of the offline model in the browser's model cache (transformers.js keeps each finished one). */
function cachedModelFiles(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const cache = await caches.open('transformers-cache');
    const prefix = '/models/aerie-glove-100d/';
    return (await cache.keys())
      .map((r) => new URL(r.url).pathname)
      .filter((p) => p.startsWith(prefix))
      .map((p) => p.slice(prefix.length))
      .sort();
  });
}

/** Every text the FAKE server embedded (and answered). */
/** The progress bar of one stage of the running build. */
function stageBar(page: Page, label: string) {
  return page.getByRole('region', { name: 'Build progress' }).getByRole('progressbar', { name: label });
}

function embeddedTexts(): string[] {
  return llm.modelRequests
    .filter((r) => r.path.endsWith('/embeddings') && r.status === 200)
    .flatMap((r) => (r.body as { input: string[] }).input);
}

/**
 * A long document (about 10 MB) made of the sample with numbered names: chunking it takes seconds, so a reload
 * lands in the middle; with 8,000-token chunks the rest of the build stays small (~300 leaves).
 */
function bigDocument(sample: string): Buffer {
  const parts: string[] = [];
  for (let i = 0, size = 0; size < 10_000_000; i++) {
    // Every sentence of every copy its own (the copy's number begins each): a build counts a sentence seen
    // before from memory, and copies that repeat their sentences would be chunked too fast to reload during it.
    const part = sample
      .replace(/Cinderella/g, `Cinderella-${i}`)
      .replace(/prince/g, `prince ${i}`)
      .replace(/([.!?]) /g, `$1 ${i} `)
      .replace(/^(?=\S)/gm, `${i} `);
    parts.push(part);
    size += part.length + 2;
  }
  return Buffer.from(parts.join('\n\n'), 'utf8');
}

test('a reload while the model downloads, while it loads, while chunking and while clustering leaves the build resumable; nothing finished is done twice', async ({
  page,
  context,
}) => {
  test.setTimeout(900_000);
  const modelRequests: string[] = [];
  context.on('requestfinished', (r) => {
    if (/\/models\/aerie-glove-100d\//.test(r.url())) modelRequests.push(new URL(r.url()).pathname);
  });
  const held: Route[] = [];
  const hold = (route: Route) => void held.push(route);

  await page.goto('/');
  await configure(page, llm);
  // Chunks of 8,000 tokens: about 320 leaves, so the rest of the build stays small (step 4 holds its stage).
  await setParams(page, { 'Chunk tokens': '8000', 'Max cluster tokens': '1000000' });
  const sample = await (await page.request.get('/samples/cinderella.txt')).text();
  const documents = page.getByRole('region', { name: 'Documents' });
  // 1. The model file downloads: hold it (from before the document is added: the model starts loading while
  // it is read). The files that already arrived are kept in the browser's model cache.
  await context.route('**/models/aerie-glove-100d/onnx/*.onnx', hold);
  await documents
    .getByLabel('Add documents')
    .setInputFiles({ name: 'big.txt', mimeType: 'text/plain', buffer: bigDocument(sample) });
  await expect(documents.getByText(/Ready/)).toBeVisible({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Build tree' }).click();
  await expect.poll(() => held.length, { timeout: 60_000 }).toBeGreaterThan(0);
  await expect.poll(() => cachedModelFiles(page), { timeout: 60_000 }).toContain('config.json');
  const kept = await cachedModelFiles(page);
  await reloadAtStage(page, 'big', 'Loading model', SLOW_STAGE_MS);
  await expect(documents.getByText('big.txt')).toBeHidden(); // the build holds the document now
  const fetchedBefore = modelRequests.length;

  // 2. The model file arrives; ONNX Runtime loads: hold its files.
  await context.unroute('**/models/aerie-glove-100d/onnx/*.onnx');
  held.length = 0;
  await context.route('**/ort/*', hold);
  await resumeFromLibrary(page, 'big');
  await expect.poll(() => held.length, { timeout: 60_000 }).toBeGreaterThan(0);
  await expect.poll(() => cachedModelFiles(page), { timeout: 60_000 }).toContain('onnx/model_quantized.onnx');
  await reloadAtStage(page, 'big', 'Loading model', SLOW_STAGE_MS);
  // What was downloaded and kept before the first reload was not downloaded again.
  const fetchedAfter = modelRequests.slice(fetchedBefore).map((p) => p.replace(/^.*aerie-glove-100d\//, ''));
  expect(fetchedAfter).toContain('onnx/model_quantized.onnx');
  for (const file of kept) expect(fetchedAfter).not.toContain(file);
  const downloaded = [...modelRequests];

  // 3. Chunking the 10 MB document.
  await context.unroute('**/ort/*');
  await resumeFromLibrary(page, 'big');
  await reloadAtStage(page, 'big', 'Chunking', SLOW_STAGE_MS);
  expect(modelRequests).toEqual(downloaded); // the model came from the browser's cache

  // 4. Clustering layer 1 (its leaves are embedded and stored by then): hold the clustering workers the build
  // worker starts when a layer first needs its pool, so the stage lasts until the reload however fast the
  // machine clusters (layer 1 of this document takes well under a second).
  const builder = buildWorker(page);
  await resumeFromLibrary(page, 'big');
  const pool = await holdClusterWorkers(await builder);
  await expect.poll(pool.started, { timeout: SLOW_STAGE_MS }).toBeGreaterThan(0);
  await reloadAtStage(page, 'big', 'Clustering layer 1', SLOW_STAGE_MS);

  // 5. The build finishes: every leaf embedding came from the earlier runs, and no summary was paid twice.
  await resumeFromLibrary(page, 'big');
  await expect(tree(page)).toBeAttached({ timeout: 300_000 });
  await expect(libraryRow(page, 'big').getByText('Ready')).toBeVisible();
  const leaves = await (await treeItems(page)).and(page.locator('[data-layer="0"]')).count();
  const reuse = page.getByRole('region', { name: 'Build progress' }).getByText(/^Reused/);
  const [, hits] = (await reuse.textContent())!.match(/^Reused ([\d,]+) of/)!;
  expect(Number(hits.replace(/,/g, ''))).toBeGreaterThanOrEqual(leaves);
  const summaries = answered('/chat/completions');
  expect(summaries.length).toBeGreaterThan(0);
  expect(new Set(summaries).size).toBe(summaries.length);
  expect(modelRequests).toEqual(downloaded);
});

test('a reload while embedding and while summarising: no text is embedded twice and no summary is paid twice', async ({
  page,
}) => {
  test.setTimeout(480_000);
  await page.goto('/');
  await configure(page, llm);
  await useEndpointEmbeddings(page, llm);
  await setParams(page, { 'Chunk tokens': '40' });
  await addSample(page);

  // 1. Embedding the leaves (two requests of 64 and 56 texts): the first is answered, the second hangs.
  llm.enqueue({ kind: 'reply', text: '' }, { kind: 'hang' });
  await page.getByRole('button', { name: 'Build tree' }).click();
  // A stage's bar moves only once what it counts is stored: reloading before that (the stage is shown as soon
  // as it starts) would leave the answered request's vectors unsaved and the resume would ask for them again.
  await expect(stageBar(page, 'Embedding leaves')).toHaveAttribute('aria-valuenow', /^[1-9]\d*$/, {
    timeout: 60_000,
  });
  await reloadAtStage(page, 'cinderella', 'Embedding leaves');
  const embeddedBefore = embeddedTexts();
  expect(embeddedBefore.length).toBeGreaterThan(0);

  // 2. Summarising layer 1: the remaining leaves are embedded, two summaries come back, the rest hang.
  llm.reset();
  llm.enqueue(
    { kind: 'reply', text: '' },
    { kind: 'reply', text: 'The mother dies and the hazel tree grows on her grave.' },
    { kind: 'reply', text: 'The prince searches the kingdom with the golden slipper.' },
    ...Array.from({ length: 60 }, () => ({ kind: 'hang' as const })),
  );
  await resumeFromLibrary(page, 'cinderella');
  await expect.poll(() => answered('/chat/completions').length, { timeout: 120_000 }).toBe(2);
  await expect(stageBar(page, 'Summarizing layer 1')).toHaveAttribute('aria-valuenow', '2', {
    timeout: 60_000,
  });
  await reloadAtStage(page, 'cinderella', 'Summarizing layer 1');
  const embeddedSecond = embeddedTexts();
  for (const text of embeddedSecond) expect(embeddedBefore).not.toContain(text);
  const paid = answered('/chat/completions');

  // 3. The build finishes without asking for anything it already has.
  llm.reset();
  await resumeFromLibrary(page, 'cinderella');
  await expect(tree(page)).toBeAttached({ timeout: 180_000 });
  const after = answered('/chat/completions');
  for (const body of paid) expect(after).not.toContain(body);
  expect(new Set(after).size).toBe(after.length);
  const embeddedLast = embeddedTexts();
  for (const text of embeddedLast) expect([...embeddedBefore, ...embeddedSecond]).not.toContain(text);
  await expect(page.getByRole('region', { name: 'Build progress' }).getByText(/^Reused/)).toContainText(
    /Reused \d+ of \d+ embeddings and 2 of \d+ summaries/,
  );
});

test('documents added but not built survive a reload until they are built or removed', async ({
  page,
  context,
}) => {
  await page.goto('/');
  await configure(page);
  const documents = page.getByRole('region', { name: 'Documents' });
  await addSample(page);
  await page.getByRole('button', { name: 'Paste text' }).click();
  const paste = page.getByRole('dialog', { name: 'Paste text' });
  await paste
    .getByLabel('Text')
    .fill('The prince found her in the kitchen. The golden slipper fitted her foot, and they were married.');
  await paste.getByLabel('Name').fill('notes.txt');
  await paste.getByRole('button', { name: 'Add' }).click();
  // A PDF still being read when the page reloads (its reader is held): it is read again after the reload.
  const held: Route[] = [];
  await context.route('**/*ingest.worker*', (route) => void held.push(route));
  await documents.getByLabel('Add documents').setInputFiles('tests/fixtures/ingest/three-pages.pdf');
  await expect.poll(() => held.length).toBeGreaterThan(0);
  await expect(documents.getByRole('listitem').filter({ hasText: 'three-pages.pdf' })).toContainText(
    'Reading…',
  );
  await expect(documents.getByText('notes.txt')).toBeVisible();

  await context.unroute('**/*ingest.worker*');
  await page.reload();
  for (const name of ['cinderella.txt', 'notes.txt', 'three-pages.pdf']) {
    await expect(documents.getByRole('listitem').filter({ hasText: name })).toContainText('Ready', {
      timeout: 60_000,
    });
  }

  // Removed documents stay removed.
  await documents.getByRole('button', { name: 'Remove notes.txt' }).click();
  // Gone from the list means gone from storage: the reload follows at once.
  await expect(documents.getByText('notes.txt')).toBeHidden();
  // The model file is held from here on: the page warms its model as soon as documents wait, so a hold set
  // after this reload could come too late to stop the build at "Loading model".
  await context.route('**/models/aerie-glove-100d/onnx/*.onnx', (route) => void held.push(route));
  await page.reload();
  await expect(documents.getByText('cinderella.txt')).toBeVisible();
  await expect(documents.getByText('three-pages.pdf')).toBeVisible();
  await expect(documents.getByText('notes.txt')).toBeHidden();

  // Building takes them: after a reload mid-build (the model file held) they are in the interrupted tree, and
  // not back in the list.
  await page.getByRole('button', { name: 'Build tree' }).click();
  await expect(documents.getByRole('listitem')).toHaveCount(0);
  await expect(libraryRow(page, 'cinderella + 1 more').getByText('Now: Loading model')).toBeVisible();
  await page.reload();
  await context.unroute('**/models/aerie-glove-100d/onnx/*.onnx');
  const row = libraryRow(page, 'cinderella + 1 more');
  await expect(row).toBeVisible();
  await expect(row.getByText('2 documents')).toBeVisible();
  await expect(documents.getByRole('listitem')).toHaveCount(0);
  await resumeFromLibrary(page, 'cinderella + 1 more');
  await expect(tree(page)).toBeAttached({ timeout: 180_000 });
});

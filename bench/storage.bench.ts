/**
 * Size on disk and reopen time of a stored 1,000-node tree (issue #4), in headless Chromium with its real,
 * on-disk IndexedDB: a persistent profile in a temporary folder, so every write goes to LevelDB files.
 *
 * The tree is synthetic but shaped like a real build: 800 leaves of at most 100 cl100k tokens (chunkText over
 * seeded sentence shuffles of tests/fixtures/cinderella.txt), 200 summaries in 2 layers (160 + 40) with soft
 * clustering (about 10% of nodes in two clusters), 384-d float32 unit vectors (MiniLM's size) and the
 * document's text. bench/browser/storage-bench.ts stores it with createTree + completeTree, as a finished
 * build does. Figures, each beside a reference from the same run:
 * - size: the `navigator.storage.estimate()` usage delta of the write, and the growth of the profile's
 *   IndexedDB folder (Node fs, browser closed), beside `stats.bytes` (the library's estimate) and the exported
 *   .raptor.json;
 * - reopen: openAerieDb and loadTree on a freshly loaded page (after a reload, and after a browser restart on
 *   the same profile), beside parseTree on the exported file in the same page (an app without storage);
 * - the app: from clicking "Open" in the library to every node drawn in the tree view (no reference).
 * Times are medians over fresh pages; the machine's other work only ever slows a run down.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from '@playwright/test';
import { chunkText, splitSentences } from '../src/core/text';
import { seededRandom, type RandomFn } from '../src/core/random';
import { serializeTree } from '../src/core/tree-format';
import { DEFAULT_BUILD_PARAMS, type RaptorTree, type TreeNode } from '../src/core/types';
import { DEFAULT_MODEL_ID } from '../src/models/embed/embedding-presets';
import type { BuildRequest } from '../src/protocol/build';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/chromium';
import type { ReopenResult, StorageBenchPage, WriteResult } from './browser/storage-bench';
import type { BenchRow } from './lines';
import type { ViteDevServer } from 'vite';
import { shuffled, startViteServer } from './support';

const ROOT = resolve(fileURLToPath(import.meta.url), '..', '..');
const PAGE_PATH = '/bench/browser/storage.html';
/** Vite's dependency cache for this bench, apart from `npm run dev`'s and the embedding bench's. */
const VITE_CACHE = join(ROOT, '.bench-cache', 'vite-storage');
const SOURCE_TEXT = join(ROOT, 'tests', 'fixtures', 'cinderella.txt');

/** The tree: leaves, then two summary layers; each layer-1 cluster holds 5 leaves, each layer-2 one 4 summaries. */
const LEAVES = 800;
const SUMMARY_LAYERS = [160, 40];
const DIM = 384;
/** Share of nodes that also join the next cluster (RAPTOR's soft clustering puts some nodes in two). */
const SOFT_SHARE = 0.1;
const TEXT_SEED = 20240504;
const TREE_ID = 'bench-storage-tree';
const TITLE = 'Storage bench tree';
const DOC_ID = 'doc-0';
const DOC_NAME = 'cinderella-long.txt';
const CREATED_AT = '2026-01-01T00:00:00.000Z';

/** Fresh pages timed after a reload, and browser restarts timed cold; the median counts. */
const WARM_RUNS = 9;
const COLD_RUNS = 7;
const APP_RUNS = 5;
const BYTES_PER_MB = 1e6;
/** Folders of an origin's IndexedDB in a Chromium profile (LevelDB files and out-of-line blobs). */
const IDB_FOLDER = /\.indexeddb\.(leveldb|blob)$/;

/** A text of paragraphs, each a seeded shuffle of the fixture's sentences, long enough for `chunks` chunks. */
function proseChunks(sentences: readonly string[], random: RandomFn, chunks: number) {
  let text = '';
  for (;;) {
    text += (text ? '\n\n' : '') + shuffled(sentences, random).join(' ');
    const cut = chunkText(text, { maxTokens: DEFAULT_BUILD_PARAMS.chunkTokens });
    // The last chunk may be cut short by the end of the text: keep one spare.
    if (cut.length > chunks)
      return { text: text.slice(0, cut[chunks - 1].end), chunks: cut.slice(0, chunks) };
  }
}

function unitVector(random: RandomFn): Float32Array {
  const v = new Float32Array(DIM);
  let norm = 0;
  for (let i = 0; i < DIM; i++) {
    v[i] = random() * 2 - 1;
    norm += v[i] * v[i];
  }
  const scale = 1 / Math.sqrt(norm);
  for (let i = 0; i < DIM; i++) v[i] *= scale;
  return v;
}

/** `groups` clusters of consecutive ids; each id also joins the next cluster with probability SOFT_SHARE. */
function softClusters(ids: readonly number[], groups: number, random: RandomFn): number[][] {
  const size = ids.length / groups;
  const own = Array.from({ length: groups }, (_, g) => ids.slice(g * size, (g + 1) * size));
  // Ids are drawn in order, so every cluster's children stay sorted: borrowed ones come from the cluster before.
  return own.map((members, g) => [
    ...(g > 0 ? own[g - 1].filter(() => random() < SOFT_SHARE) : []),
    ...members,
  ]);
}

/** The bench tree and the build request that produced it (with its document's text). */
export function benchTree(): { tree: RaptorTree; request: BuildRequest; twoParents: number } {
  const source = readFileSync(SOURCE_TEXT, 'utf8');
  const sentences = splitSentences(source).map(({ start, end }) =>
    source.slice(start, end).replace(/\s+/g, ' '),
  );
  const random = seededRandom(TEXT_SEED);
  const doc = proseChunks(sentences, random, LEAVES);
  const summaryCount = SUMMARY_LAYERS.reduce((a, b) => a + b, 0);
  const summaries = proseChunks(sentences, random, summaryCount).chunks;
  const nodes: TreeNode[] = doc.chunks.map((chunk, id) => ({
    id,
    layer: 0,
    text: chunk.text,
    tokens: chunk.tokens,
    children: [],
    embedding: unitVector(random),
    source: { doc: DOC_ID, start: chunk.start, end: chunk.end },
  }));
  const parents = new Map<number, number>();
  let below = nodes.map((n) => n.id);
  SUMMARY_LAYERS.forEach((groups, i) => {
    const layer = i + 1;
    below = softClusters(below, groups, random).map((children) => {
      for (const c of children) parents.set(c, (parents.get(c) ?? 0) + 1);
      const summary = summaries[nodes.length - LEAVES];
      const id = nodes.length;
      nodes.push({
        id,
        layer,
        text: summary.text,
        tokens: summary.tokens,
        children,
        embedding: unitVector(random),
      });
      return id;
    });
  });
  const tree: RaptorTree = {
    format: 'raptor-tree',
    version: 1,
    title: TITLE,
    createdAt: CREATED_AT,
    embedding: { model: DEFAULT_MODEL_ID, dim: DIM },
    summarizer: { kind: 'extractive' },
    params: { ...DEFAULT_BUILD_PARAMS },
    documents: [{ id: DOC_ID, name: DOC_NAME, chars: doc.text.length }],
    nodes,
  };
  const request: BuildRequest = {
    buildId: TREE_ID,
    title: TITLE,
    documents: [{ id: DOC_ID, name: DOC_NAME, text: doc.text }],
    params: {},
    embedding: { kind: 'browser', model: DEFAULT_MODEL_ID, dtype: 'q8' },
    summarizer: { kind: 'extractive' },
  };
  const twoParents = [...parents.values()].filter((n) => n > 1).length;
  return { tree, request, twoParents };
}

function startServer(): ReturnType<typeof startViteServer> {
  // Pre-bundle both pages' imports up front, so no re-optimisation reloads a page mid-measurement.
  return startViteServer({ cacheDir: VITE_CACHE, entries: ['bench/browser/storage.html', 'index.html'] });
}

/**
 * Bytes of the profile's IndexedDB files: all; LevelDB's write-ahead log (`*.log`) and tables (`*.ldb`); and
 * the values Chromium keeps out of line as blob files (`*.indexeddb.blob`).
 */
interface FolderBytes {
  total: number;
  log: number;
  tables: number;
  blobs: number;
}

/** Sizes of every file under the profile's IndexedDB folders (the browser must be closed). */
function indexedDbBytes(profile: string): FolderBytes {
  const sizes: FolderBytes = { total: 0, log: 0, tables: 0, blobs: 0 };
  const walk = (dir: string, folder: string | undefined) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path, folder ?? (IDB_FOLDER.test(entry.name) ? entry.name : undefined));
      else if (folder && entry.isFile()) {
        const size = statSync(path).size;
        sizes.total += size;
        if (folder.endsWith('.blob')) sizes.blobs += size;
        else if (entry.name.endsWith('.log')) sizes.log += size;
        else if (entry.name.endsWith('.ldb')) sizes.tables += size;
      }
    }
  };
  walk(profile, undefined);
  return sizes;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const ms = (values: readonly number[]) => values.map((v) => v.toFixed(1)).join('/');
const mb = (bytes: number) => bytes / BYTES_PER_MB;

/** A browser on the bench profile and its one page. */
interface Session {
  page: Page;
  /** Loads (or reloads) the bench page and waits for its API. */
  benchPage(reload?: boolean): Promise<void>;
  call<K extends keyof StorageBenchPage>(
    name: K,
    input: Parameters<StorageBenchPage[K]>[0],
  ): Promise<Awaited<ReturnType<StorageBenchPage[K]>>>;
}

/**
 * Starts Chromium on `profile`, runs `body`, closes Chromium (so its files are complete on disk), then checks
 * that no request of any page or worker left the bench server.
 */
async function withBrowser<T>(profile: string, origin: string, body: (s: Session) => Promise<T>): Promise<T> {
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
  });
  const foreign: string[] = [];
  let result: T;
  try {
    // The context (not the page) sees the workers' requests too.
    context.on('request', (r) => {
      const url = r.url();
      if (!url.startsWith(origin + '/') && !url.startsWith('data:') && !url.startsWith('blob:'))
        foreign.push(url);
    });
    const page = context.pages()[0] ?? (await context.newPage());
    result = await body({
      page,
      async benchPage(reload = false) {
        if (reload) await page.reload();
        else await page.goto(origin + PAGE_PATH);
        await page.waitForFunction(() => 'aerieStorageBench' in globalThis);
      },
      call(name, input) {
        return page.evaluate(
          ([n, arg]) => {
            const api = (globalThis as unknown as { aerieStorageBench: StorageBenchPage }).aerieStorageBench;
            return (api[n] as (a: unknown) => Promise<unknown>)(arg);
          },
          [name, input] as const,
        ) as Promise<Awaited<ReturnType<StorageBenchPage[typeof name]>>>;
      },
    });
  } finally {
    await context.close();
  }
  if (foreign.length) {
    const list = [...new Set(foreign)].slice(0, 5).join(', ');
    throw new Error(`The bench made ${foreign.length} request(s) off the bench server: ${list}`);
  }
  return result;
}

/**
 * Milliseconds from clicking "Open" in the app's library to every node of the tree in the tree view's SVG,
 * plus the next animation frame (the one that paints them). The app loads its record, nodes and document text.
 */
async function timeAppOpen(page: Page, origin: string, nodes: number): Promise<number> {
  await page.goto(origin + '/');
  const label = `Open ${TITLE}`;
  await page.getByRole('button', { name: label, exact: true }).waitFor();
  return page.evaluate(
    async ({ label, nodes }) => {
      const selector = 'svg[aria-label="Tree view"] [data-node-id]';
      const button = document.querySelector<HTMLButtonElement>(`button[aria-label="${label}"]`);
      if (!button) throw new Error(`No button "${label}" in the library.`);
      const start = performance.now();
      await new Promise<void>((drawn) => {
        const observer = new MutationObserver(() => {
          if (document.querySelectorAll(selector).length < nodes) return;
          observer.disconnect();
          drawn();
        });
        observer.observe(document.body, { childList: true, subtree: true });
        button.click();
      });
      await new Promise((frame) => requestAnimationFrame(frame));
      return performance.now() - start;
    },
    { label, nodes },
  );
}

/** What a run measured, for the rows. */
interface Measured {
  tree: RaptorTree;
  twoParents: number;
  exportIdentical: boolean;
  written: WriteResult;
  emptyFolder: FolderBytes;
  writtenFolder: FolderBytes;
  settledFolder: FolderBytes;
  warm: ReopenResult[];
  cold: ReopenResult[];
  app: number[];
}

function describeTree({ tree, twoParents }: Measured): string {
  const leaves = tree.nodes.filter((n) => n.layer === 0);
  const meanOf = (f: (n: TreeNode) => number) => leaves.reduce((s, n) => s + f(n), 0) / leaves.length;
  const layers = SUMMARY_LAYERS.join(' + ');
  return (
    `${tree.nodes.length} nodes (${leaves.length} leaves of ${meanOf((n) => n.tokens).toFixed(0)} tokens / ` +
    `${meanOf((n) => n.text.length).toFixed(0)} chars on average, ${layers} summaries, ${twoParents} with 2 parents), ` +
    `${DIM}-d, document ${tree.documents[0].chars.toLocaleString('en-US')} chars`
  );
}

const bytes = (n: number) => `${n.toLocaleString('en-US')} B`;

/** Two rows for one measured size: beside `stats.bytes`, and beside the exported file; `more` on the first. */
function sizePair(name: string, value: number, m: Measured, more: string): BenchRow[] {
  const references = [
    { size: m.written.statsBytes, label: 'stats.bytes (the library’s size estimate)' },
    {
      size: Buffer.byteLength(m.written.exportJson),
      label: `exported .raptor.json${m.exportIdentical ? ', identical to the generated file' : ''}`,
    },
  ];
  return references.map((ref, i) => ({
    name,
    value: mb(value),
    unit: 'MB',
    reference: mb(ref.size),
    referenceLabel: ref.label,
    higherIsBetter: false,
    note: `${bytes(value)} vs ${bytes(ref.size)}${i === 0 ? `; ${more}` : ''}`,
  }));
}

function describeFolder(folder: FolderBytes): string {
  const { total, log, tables, blobs } = folder;
  return `${bytes(total)} (LevelDB log ${bytes(log)}, tables ${bytes(tables)}, blob files ${bytes(blobs)})`;
}

function sizeRows(m: Measured): BenchRow[] {
  const { usageBefore, usageAfter } = m.written;
  const rows: BenchRow[] = [];
  if (usageBefore !== undefined && usageAfter !== undefined) {
    rows.push(
      ...sizePair(
        'Size: navigator.storage.estimate() usage Δ of the write',
        usageAfter - usageBefore,
        m,
        `usage before ${bytes(usageBefore)}, after ${bytes(usageAfter)}, after a browser restart ` +
          `${m.cold[0]?.usage === undefined ? '?' : bytes(m.cold[0].usage)}`,
      ),
    );
  }
  rows.push(
    ...sizePair(
      'Size: IndexedDB folder growth on disk (Node fs, browser closed)',
      m.writtenFolder.total - m.emptyFolder.total,
      m,
      `folder with the empty database ${describeFolder(m.emptyFolder)}, after the write ` +
        `${describeFolder(m.writtenFolder)}, after ${COLD_RUNS} restarts ${describeFolder(m.settledFolder)}`,
    ),
  );
  return rows;
}

function reopenRows(kind: string, runs: ReopenResult[], nodes: number): BenchRow[] {
  const load = runs.map((r) => r.loadMs);
  const both = runs.map((r) => r.openMs + r.loadMs);
  const parse = runs.map((r) => r.parseMs);
  const jsonParse = runs.map((r) => r.jsonParseMs);
  if (runs.some((r) => r.loadedNodes !== nodes || r.parsedNodes !== nodes)) {
    throw new Error(`A reopen returned another node count than the ${nodes} written.`);
  }
  const reference = median(parse);
  const referenceLabel = `parseTree of the exported file, same page (JSON.parse alone ${median(jsonParse).toFixed(1)} ms)`;
  return [
    {
      name: `Reopen ${kind}: loadTree (${nodes} nodes)`,
      value: median(load),
      unit: 'ms',
      reference,
      referenceLabel,
      higherIsBetter: false,
      note: `median of ${runs.length}; loadTree ${ms(load)} ms; parseTree ${ms(parse)} ms`,
    },
    {
      name: `Reopen ${kind}: openAerieDb + loadTree`,
      value: median(both),
      unit: 'ms',
      reference,
      referenceLabel,
      higherIsBetter: false,
      note: `median of ${runs.length}; openAerieDb ${ms(runs.map((r) => r.openMs))} ms`,
    },
  ];
}

function rows(m: Measured): BenchRow[] {
  const nodes = m.tree.nodes.length;
  return [
    {
      name: 'Write: createTree + completeTree',
      value: m.written.writeMs,
      unit: 'ms',
      noReference: 'nothing else stores a tree; the reopen rows compare with the exported file',
      higherIsBetter: false,
      note: `${describeTree(m)}; records ${JSON.stringify(m.written.counts)}`,
    },
    ...sizeRows(m),
    ...reopenRows('after a page reload', m.warm, nodes),
    ...reopenRows('cold (browser restarted on the profile)', m.cold, nodes),
    {
      name: `App: library "Open" click → ${nodes} nodes in the tree view, next frame`,
      value: median(m.app),
      unit: 'ms',
      noReference: 'the whole app path (record, nodes, document text, layout, React, paint)',
      higherIsBetter: false,
      note: `median of ${m.app.length}, ${ms(m.app)} ms (the first right after a browser start)`,
    },
  ];
}

/** Writes the tree into a fresh profile, then measures its size and its reopen times. */
export async function benchStorage(): Promise<BenchRow[]> {
  const { tree, request, twoParents } = benchTree();
  const treeJson = serializeTree(tree);
  const profile = mkdtempSync(join(tmpdir(), 'aerie-storage-'));
  let server: ViteDevServer | undefined;
  try {
    const started = await startServer();
    server = started.server;
    const browse = <T>(body: (s: Session) => Promise<T>) => withBrowser(profile, started.origin, body);
    await browse(async (s) => {
      await s.benchPage();
      await s.call('prepare', undefined);
    });
    const emptyFolder = indexedDbBytes(profile);
    const warm: ReopenResult[] = [];
    const written = await browse(async (s) => {
      await s.benchPage();
      const result = await s.call('write', { request, treeJson });
      for (let i = 0; i < WARM_RUNS; i++) {
        await s.benchPage(true);
        warm.push(await s.call('reopen', { treeId: TREE_ID, treeJson: result.exportJson }));
      }
      return result;
    });
    const writtenFolder = indexedDbBytes(profile);
    const cold: ReopenResult[] = [];
    for (let i = 0; i < COLD_RUNS; i++) {
      const run = await browse(async (s) => {
        await s.benchPage();
        return s.call('reopen', { treeId: TREE_ID, treeJson: written.exportJson });
      });
      cold.push(run);
    }
    const settledFolder = indexedDbBytes(profile);
    // Last, in a browser of its own: the app stores things of its own, which must not count in the sizes.
    const app: number[] = [];
    await browse(async (s) => {
      for (let i = 0; i < APP_RUNS; i++)
        app.push(await timeAppOpen(s.page, started.origin, tree.nodes.length));
    });
    return rows({
      tree,
      twoParents,
      exportIdentical: written.exportJson === treeJson,
      written,
      emptyFolder,
      writtenFolder,
      settledFolder,
      warm,
      cold,
      app,
    });
  } finally {
    await server?.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

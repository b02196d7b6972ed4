/**
 * The storage benchmark page: bench/storage.bench.ts drives it with Playwright through
 * `window.aerieStorageBench`. It writes a tree into this origin's real IndexedDB through the app's storage
 * functions (createTree, then completeTree, as a finished build does) and times reopening it (openAerieDb,
 * loadTree) beside parsing the same tree's exported file (parseTree), the path of an app without storage.
 * The page keeps nothing between calls: every figure of a reopen comes from a freshly loaded page.
 */
import { parseTree } from '../../src/core/tree-format';
import type { BuildRequest } from '../../src/protocol/build';
import {
  completeTree,
  countRecords,
  createTree,
  estimateStorage,
  exportTree,
  loadTree,
  openAerieDb,
  type RecordCounts,
} from '../../src/storage';

/** What `write` stores: the build request (with its document text) and the finished tree as a v1 file. */
export interface WriteInput {
  request: BuildRequest;
  treeJson: string;
}

/** What `write` saw. Usage figures are `navigator.storage.estimate().usage` in bytes (undefined if absent). */
export interface WriteResult {
  usageBefore?: number;
  usageAfter?: number;
  /** The stored tree's size estimate (`stats.bytes` of its record). */
  statsBytes: number;
  /** Milliseconds of createTree + completeTree. */
  writeMs: number;
  /** The stored tree as `exportTree` writes it. */
  exportJson: string;
  counts: RecordCounts;
}

/** What `reopen` reads: the stored tree's id, and its exported file for the reference. */
export interface ReopenInput {
  treeId: string;
  treeJson: string;
}

/** Milliseconds of each step of one reopen, in this order, on a freshly loaded page. */
export interface ReopenResult {
  /** openAerieDb: the connection (in a restarted browser, also the backing store's first open). */
  openMs: number;
  /** loadTree: from the call to the RaptorTree in memory. */
  loadMs: number;
  /** Nodes of the loaded tree and of the parsed one (both must be the tree written). */
  loadedNodes: number;
  parsedNodes: number;
  /** The reference: parseTree on the exported file's text (JSON.parse, validation, token recount). */
  parseMs: number;
  /** JSON.parse alone on the same text, the floor under any file-based reopen. */
  jsonParseMs: number;
  usage?: number;
}

/** The API the Node side calls. */
export interface StorageBenchPage {
  /** Opens (so creates) the empty database; returns the usage estimate after. */
  prepare(): Promise<number | undefined>;
  write(input: WriteInput): Promise<WriteResult>;
  reopen(input: ReopenInput): Promise<ReopenResult>;
}

async function prepare(): Promise<number | undefined> {
  (await openAerieDb()).close();
  return (await estimateStorage())?.usage;
}

async function write({ request, treeJson }: WriteInput): Promise<WriteResult> {
  const tree = parseTree(treeJson);
  const db = await openAerieDb();
  try {
    const usageBefore = (await estimateStorage())?.usage;
    const started = performance.now();
    await createTree(db, request);
    const record = await completeTree(db, request.buildId, tree);
    const writeMs = performance.now() - started;
    const usageAfter = (await estimateStorage())?.usage;
    const exportJson = await exportTree(db, request.buildId);
    return {
      usageBefore,
      usageAfter,
      statsBytes: record.stats.bytes,
      writeMs,
      exportJson,
      counts: await countRecords(db),
    };
  } finally {
    db.close();
  }
}

async function reopen({ treeId, treeJson }: ReopenInput): Promise<ReopenResult> {
  const t0 = performance.now();
  const db = await openAerieDb();
  const t1 = performance.now();
  let loadedNodes: number;
  let t2: number;
  try {
    loadedNodes = (await loadTree(db, treeId)).nodes.length;
    t2 = performance.now();
  } finally {
    db.close();
  }
  const parseStart = performance.now();
  const parsedNodes = parseTree(treeJson).nodes.length;
  const t3 = performance.now();
  const raw = JSON.parse(treeJson) as { nodes: unknown[] };
  const t4 = performance.now();
  if (raw.nodes.length !== parsedNodes)
    throw new Error('JSON.parse and parseTree disagree on the node count.');
  return {
    openMs: t1 - t0,
    loadMs: t2 - t1,
    loadedNodes,
    parsedNodes,
    parseMs: t3 - parseStart,
    jsonParseMs: t4 - t3,
    usage: (await estimateStorage())?.usage,
  };
}

const api: StorageBenchPage = { prepare, write, reopen };
(globalThis as unknown as { aerieStorageBench: StorageBenchPage }).aerieStorageBench = api;

/**
 * The shared storage fixture: a fresh FAKE IndexedDB (fake-indexeddb, one factory per call, so tests never see
 * each other's data) opened through `openAerieDb`, with one finished tree, its document and saved settings.
 * Also a synthetic tree generator and a FAKE quota that fails the n-th put.
 */
import 'fake-indexeddb/auto';
import { IDBFactory, IDBObjectStore } from 'fake-indexeddb';
import { deriveSeed, seededRandom } from '../../src/core/random';
import { countTokens } from '../../src/core/text';
import type { RaptorTree, TreeNode } from '../../src/core/types';
import type { LlmEndpoint } from '../../src/llm';
import type { BuildRequest } from '../../src/protocol/build';
import {
  completeTree,
  createTree,
  getTree,
  openAerieDb,
  setSetting,
  type AerieDb,
  type OpenOptions,
} from '../../src/storage';

/** The API key of the fixture's endpoint: no stored tree, export or error may ever contain it. */
export const SECRET_KEY = 'sk-FIXTURE-SECRET-0123456789';
/** A secret in a header and one in the URL's query. */
export const SECRET_HEADER = 'hdr-FIXTURE-SECRET';
export const SECRET_QUERY = 'q-FIXTURE-SECRET';

/** The endpoint saved in the fixture's settings, with its secrets. */
export const FIXTURE_ENDPOINT: LlmEndpoint = {
  protocol: 'openai',
  baseUrl: `https://llm.example/v1?api-key=${SECRET_QUERY}&api-version=2024-06-01`,
  apiKey: SECRET_KEY,
  model: 'fake-llm',
  headers: { 'X-Title': 'Aerie', 'X-Api-Key': SECRET_HEADER },
};

/** The fixture's document text: HTML and a script tag are content like any other. */
export const FIXTURE_TEXT = Array.from(
  { length: 24 },
  (_, i) =>
    `Sentence ${i} about <b>slippers</b>, pumpkins & the <script>alert(${i})</script> ball at midnight.`,
).join(' ');

/** Options of `makeTree`. */
export interface TreeShape {
  /** Leaves (layer 0). Default 12. */
  leaves?: number;
  /** Children per summary. Default 4. */
  branching?: number;
  /** Embedding dimension. Default 8. */
  dim?: number;
  /** Seed of the embeddings. Default 1. */
  seed?: number;
  /** The document the leaves cut up. Default FIXTURE_TEXT. */
  text?: string;
  /** Document id in sources. Default `doc-0`. */
  docId?: string;
}

/**
 * A valid synthetic RaptorTree: leaves cut from `text` with sources, then layers of summaries over
 * `branching` children each up to one root; seeded random embeddings; cl100k token counts.
 */
export function makeTree(shape: TreeShape = {}): RaptorTree {
  const { leaves = 12, branching = 4, dim = 8, seed = 1, text = FIXTURE_TEXT, docId = 'doc-0' } = shape;
  const random = seededRandom(deriveSeed(seed, leaves, dim));
  const vector = () => Float32Array.from({ length: dim }, () => random() * 2 - 1);
  const nodes: TreeNode[] = [];
  const step = Math.floor(text.length / leaves);
  for (let i = 0; i < leaves; i++) {
    const start = i * step;
    const end = i === leaves - 1 ? text.length : start + step;
    const chunk = text.slice(start, end);
    nodes.push({
      id: i,
      layer: 0,
      text: chunk,
      tokens: countTokens(chunk),
      children: [],
      embedding: vector(),
      source: { doc: docId, start, end },
    });
  }
  let layerIds = nodes.map((n) => n.id);
  for (let layer = 1; layerIds.length > 1; layer++) {
    const next: number[] = [];
    for (let c = 0; c < layerIds.length; c += branching) {
      const children = layerIds.slice(c, c + branching);
      const summary = `Summary L${layer}.${c / branching} of nodes ${children.join(', ')}.`;
      next.push(nodes.length);
      nodes.push({
        id: nodes.length,
        layer,
        text: summary,
        tokens: countTokens(summary),
        children,
        embedding: vector(),
      });
    }
    layerIds = next;
  }
  return {
    format: 'raptor-tree',
    version: 1,
    title: 'Fixture tree',
    createdAt: '2026-01-02T03:04:05.000Z',
    embedding: { model: 'fake/embedder', dim },
    summarizer: { kind: 'llm', model: 'fake-llm' },
    params: {
      chunkTokens: 100,
      reductionDim: 10,
      clusterThreshold: 0.1,
      maxClusterTokens: 3500,
      maxLayers: 5,
      summaryTokens: 100,
      seed: 7,
    },
    documents: [{ id: docId, name: 'notes.html', chars: text.length }],
    nodes,
  };
}

/** A build request for the fixture's document with the secret-bearing endpoint. */
export function makeRequest(buildId: string, text = FIXTURE_TEXT): BuildRequest {
  return {
    buildId,
    title: 'Fixture tree',
    documents: [{ id: 'doc-0', name: 'notes.html', text }],
    params: { seed: 7, concurrency: 2 },
    embedding: { kind: 'browser', model: 'fake/embedder' },
    summarizer: { kind: 'llm', endpoint: FIXTURE_ENDPOINT, systemPrompt: 'Summarise.' },
  };
}

/** An open fake database and a way to open more connections to it (other "tabs"). */
export interface StorageFixture {
  db: AerieDb;
  factory: IDBFactory;
  name: string;
  /** Opens another connection to the same database. */
  open(options?: OpenOptions): Promise<AerieDb>;
  /** The id of the finished tree (absent when opened empty). */
  treeId: string;
  /** That tree as it was stored. */
  tree: RaptorTree;
}

let counter = 0;

/**
 * Opens a fresh fake database. With `empty`, nothing is written; otherwise it holds the finished tree
 * `fixture-tree` (built from FIXTURE_TEXT, 12 leaves, dim 8) and the `llmEndpoints` setting with its key.
 */
export async function openFixture(options: { empty?: boolean } = {}): Promise<StorageFixture> {
  const factory = new IDBFactory();
  const name = `aerie-test-${++counter}`;
  const open = (extra: OpenOptions = {}) => openAerieDb({ factory, name, ...extra });
  const db = await open();
  const treeId = 'fixture-tree';
  const tree = makeTree();
  if (!options.empty) {
    await setSetting(db, 'llmEndpoints', [FIXTURE_ENDPOINT]);
    await createTree(db, makeRequest(treeId), { files: [{ type: 'text/html', size: 4096 }] });
    await completeTree(db, treeId, tree);
  }
  return { db, factory, name, open, treeId, tree };
}

/**
 * Records tree `id` (a build of the fixture's document, status `building`) unless it exists: storage accepts
 * writes for a tree (its cache entries, conversations, evaluations) only while the tree exists.
 */
export async function recordTree(db: AerieDb, id: string): Promise<void> {
  if (!(await getTree(db, id))) await createTree(db, makeRequest(id));
}

/** A FAKE full disk: the n-th write (`put` or `add`) from now on fails with QuotaExceededError. */
export interface FakeQuota {
  /** Writes seen so far. */
  readonly puts: number;
  /** Writes behave normally again. */
  restore(): void;
}

/**
 * Makes the n-th write (`put` or `add`, 1-based, counted from this call) fail with a QuotaExceededError, the
 * way browsers report a full quota: `abort` (default) aborts the transaction with that error, as Chromium does
 * at commit; `throw` throws it from the call synchronously. Always `restore()` (in `finally`).
 */
export function failNthPut(n: number, mode: 'abort' | 'throw' = 'abort'): FakeQuota {
  return failPuts((put) => put === n, mode);
}

/** A FAKE full disk from now on: every write fails with a QuotaExceededError until `restore()`. */
export function fillDisk(): FakeQuota {
  return failPuts(() => true, 'abort');
}

type WriteMethod = (...args: unknown[]) => unknown;

function failPuts(fails: (put: number) => boolean, mode: 'abort' | 'throw'): FakeQuota {
  const proto = IDBObjectStore.prototype as unknown as { put: WriteMethod; add: WriteMethod };
  const originals = { put: proto.put, add: proto.add };
  let puts = 0;
  const failing = (original: WriteMethod): WriteMethod =>
    function (this: IDBObjectStore, ...args: unknown[]) {
      puts++;
      if (!fails(puts)) return original.apply(this, args);
      if (mode === 'throw') throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      const request = original.apply(this, args);
      // fake-indexeddb's own abort path (used for constraint errors), with the quota error as the cause.
      (this.transaction as unknown as { _abort(name: string): void })._abort('QuotaExceededError');
      return request;
    };
  proto.put = failing(originals.put);
  proto.add = failing(originals.add);
  return {
    get puts() {
      return puts;
    },
    restore() {
      proto.put = originals.put;
      proto.add = originals.add;
    },
  };
}

/** Every put while it is installed: the store written to (a spy on fake-indexeddb's puts; `restore()` ends it). */
export interface PutSpy {
  readonly stores: string[];
  restore(): void;
}

/** Records the store of every put from now on, until `restore()`. */
export function countPuts(): PutSpy {
  const proto = IDBObjectStore.prototype as unknown as { put: (...args: unknown[]) => unknown };
  const original = proto.put;
  const stores: string[] = [];
  proto.put = function (this: IDBObjectStore, ...args: unknown[]) {
    stores.push(this.name);
    return original.apply(this, args);
  };
  return {
    stores,
    restore() {
      proto.put = original;
    },
  };
}

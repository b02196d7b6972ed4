/**
 * A tree's nodes: one record per node under the key [treeId, nodeId], embeddings as Float32Array. Bulk writes
 * go in one transaction; a tree is reassembled with one range read.
 */
import { allocateRows } from '../core/dot-kernel';
import type { RaptorTree, TreeNode } from '../core/types';
import { treeNodeRange } from './db';
import { StorageError, treeNotFound } from './errors';
import type { RunDevices } from '../protocol/build';
import type { AerieDb, NodeRecord, RecordedSummarizer, SummaryCuts, TreeRecord } from './schema';
import { computeStats, ownedVector, utf8Length } from './stats';
import { forEachRequest, runTransaction } from './transaction';

/** The record of one node; the embedding gets a buffer of its own (see `ownedVector`). */
function toRecord(treeId: string, node: TreeNode): NodeRecord {
  const record: NodeRecord = {
    treeId,
    id: node.id,
    layer: node.layer,
    text: node.text,
    tokens: node.tokens,
    children: node.children.slice(),
    embedding: ownedVector(node.embedding),
  };
  if (node.source) record.source = { ...node.source };
  if (node.label) record.label = node.label.slice();
  if (node.title !== undefined) record.title = node.title;
  return record;
}

function toNode(record: NodeRecord, embedding: Float32Array): TreeNode {
  const node: TreeNode = {
    id: record.id,
    layer: record.layer,
    text: record.text,
    tokens: record.tokens,
    children: record.children,
    embedding,
  };
  if (record.source) node.source = record.source;
  if (record.label) node.label = record.label;
  if (record.title !== undefined) node.title = record.title;
  return node;
}

/** Node records ready to store, after checking every embedding has the tree's dimension. */
export function toNodeRecords(
  treeId: string,
  nodes: readonly TreeNode[],
  dim: number | undefined,
): NodeRecord[] {
  const expected = dim ?? nodes[0]?.embedding.length;
  return nodes.map((node) => {
    if (!Number.isSafeInteger(node.id) || node.id < 0) {
      throw new StorageError('INVALID_ARGUMENT', `Node id ${node.id} is not a non-negative integer.`, {
        id: node.id,
      });
    }
    if (!(node.embedding instanceof Float32Array) || node.embedding.length !== expected) {
      throw new StorageError(
        'INVALID_ARGUMENT',
        `Node ${node.id} has an embedding of ${node.embedding?.length} values; this tree's have ${expected}.`,
        { id: node.id, length: node.embedding?.length, dim: expected },
      );
    }
    return toRecord(treeId, node);
  });
}

/** Bytes of the stored texts of a tree's documents (for its size on disk). */
async function documentBytes(
  store: { get(id: string): Promise<{ text: string } | undefined> },
  ids: readonly string[],
) {
  const docs = await Promise.all(ids.map((id) => store.get(id)));
  return docs.reduce((sum, doc) => sum + (doc ? utf8Length(doc.text) : 0), 0);
}

/**
 * Writes (or overwrites) nodes of a tree in one transaction, and refreshes the tree's layer counts and size.
 * The embeddings are copied to buffers of their own: a view into a larger buffer would otherwise store it whole.
 * @throws StorageError NOT_FOUND, INVALID_ARGUMENT (an embedding of the wrong length), QUOTA_EXCEEDED (nothing
 *   of this call is then stored).
 */
export async function saveTreeNodes(
  db: AerieDb,
  treeId: string,
  nodes: readonly TreeNode[],
  now = Date.now(),
): Promise<void> {
  await runTransaction(
    db,
    ['trees', 'nodes', 'documents'],
    'readwrite',
    'save the tree’s nodes',
    async (tx) => {
      const trees = tx.objectStore('trees');
      const record = await trees.get(treeId);
      if (!record) throw treeNotFound(treeId);
      const records = toNodeRecords(treeId, nodes, record.embedding.dim);
      const store = tx.objectStore('nodes');
      await forEachRequest(records, (r) => store.put(r));
      const all = await store.getAll(treeNodeRange(treeId));
      const stats = computeStats(all, await documentBytes(tx.objectStore('documents'), record.documentIds));
      const embedding = { ...record.embedding };
      if (embedding.dim === undefined && records.length > 0) embedding.dim = records[0].embedding.length;
      await trees.put({ ...record, embedding, stats, updatedAt: now });
    },
  );
}

/** Options of `completeTree`. */
export interface CompleteTreeOptions {
  /** Summaries the model wrote past the budget, cut to it (recorded with the summariser). */
  summaryCuts?: SummaryCuts;
  /** Where the build's models ran (kept on the record: the library and Statistics say it). */
  devices?: RunDevices;
  /** Milliseconds since the epoch. Default now. */
  now?: number;
}

/**
 * What the finished tree records as the writer of its summaries: a summariser fallback stays on record (the
 * tree says which model was chosen and why it is extractive), and so do the summaries cut to their budget.
 */
function recordedSummarizer(
  record: TreeRecord,
  tree: RaptorTree,
  cuts: SummaryCuts | undefined,
): RecordedSummarizer {
  const next: RecordedSummarizer = { ...tree.summarizer };
  if (record.summarizer.fallbackFrom && tree.summarizer.kind === 'extractive')
    next.fallbackFrom = record.summarizer.fallbackFrom;
  if (cuts && cuts.cut > 0) next.cuts = { ...cuts };
  return next;
}

/**
 * Stores a finished build in one transaction: replaces the tree's nodes with `tree.nodes`, marks it `ready`,
 * records its statistics, dimension, summariser (with the summaries cut to their budget) and timestamps, and
 * drops its checkpoint.
 * @throws StorageError NOT_FOUND, INVALID_ARGUMENT, QUOTA_EXCEEDED (the tree then stays as it was).
 */
export async function completeTree(
  db: AerieDb,
  treeId: string,
  tree: RaptorTree,
  options: CompleteTreeOptions = {},
): Promise<TreeRecord> {
  const now = options.now ?? Date.now();
  const records = toNodeRecords(treeId, tree.nodes, tree.embedding.dim);
  const stores = ['trees', 'nodes', 'documents', 'checkpoints'] as const;
  return runTransaction(db, [...stores], 'readwrite', 'save the finished tree', async (tx) => {
    const trees = tx.objectStore('trees');
    const record = await trees.get(treeId);
    if (!record) throw treeNotFound(treeId);
    const store = tx.objectStore('nodes');
    await store.delete(treeNodeRange(treeId));
    await forEachRequest(records, (r) => store.put(r));
    const chars = new Map(tree.documents.map((d) => [d.id, d.chars]));
    const next: TreeRecord = {
      ...record,
      status: 'ready',
      createdAt: tree.createdAt,
      updatedAt: now,
      params: { ...tree.params },
      embedding: { ...record.embedding, model: tree.embedding.model, dim: tree.embedding.dim },
      // A summariser fallback stays on record: the tree says which model was chosen and why it is extractive.
      summarizer: recordedSummarizer(record, tree, options.summaryCuts),
      ...(options.devices ? { devices: options.devices } : {}),
      documents: record.documents.map((d) => ({ ...d, chars: chars.get(d.id) ?? d.chars })),
      stats: computeStats(records, await documentBytes(tx.objectStore('documents'), record.documentIds)),
    };
    delete next.error;
    await Promise.all([trees.put(next), tx.objectStore('checkpoints').delete(treeId)]);
    return next;
  });
}

function corrupt(treeId: string, reason: string, details: Record<string, unknown> = {}): StorageError {
  return new StorageError(
    'CORRUPT',
    `The stored tree "${treeId}" is damaged (${reason}). Delete it and build or import it again.`,
    { treeId, ...details },
  );
}

/** Builds the in-memory tree; embeddings become views of one flat Float32Array (nodes × dim), as parseTree makes. */
function assemble(record: TreeRecord, nodes: NodeRecord[]): RaptorTree {
  const n = nodes.length;
  const dim = record.embedding.dim ?? nodes[0].embedding.length;
  // In kernel memory where possible: retrieval then scores the rows in place (core/dot-kernel.ts).
  const flat = allocateRows(n, dim);
  const out: TreeNode[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const node = nodes[i];
    if (node.id !== i) throw corrupt(record.id, `node ${i} is missing`, { missing: i });
    if (node.embedding.length !== dim) {
      throw corrupt(record.id, `node ${i} has ${node.embedding.length} embedding values instead of ${dim}`);
    }
    flat.set(node.embedding, i * dim);
    out[i] = toNode(node, flat.subarray(i * dim, (i + 1) * dim));
  }
  return {
    format: 'raptor-tree',
    version: 1,
    title: record.title,
    createdAt: record.createdAt,
    embedding: { model: record.embedding.model, dim },
    summarizer: { ...record.summarizer },
    params: { ...record.params },
    documents: record.documents.map(({ id, name, chars }) => ({ id, name, chars })),
    nodes: out,
  };
}

/**
 * Reads a stored tree back as a RaptorTree with one range read of its nodes.
 * @throws StorageError NOT_FOUND, NOT_READY (no nodes yet), CORRUPT.
 */
export function loadTree(db: AerieDb, treeId: string): Promise<RaptorTree> {
  return runTransaction(db, ['trees', 'nodes'], 'readonly', 'open the tree', async (tx) => {
    const [record, nodes] = await Promise.all([
      tx.objectStore('trees').get(treeId),
      tx.objectStore('nodes').getAll(treeNodeRange(treeId)),
    ]);
    if (!record) throw treeNotFound(treeId);
    if (nodes.length === 0) {
      throw new StorageError(
        'NOT_READY',
        `The tree "${record.title}" has no nodes yet (its build is ${record.status}). Resume or rebuild it first.`,
        { treeId, status: record.status },
      );
    }
    return assemble(record, nodes);
  });
}

/** One node of a stored tree, or undefined. */
export async function getNode(db: AerieDb, treeId: string, nodeId: number): Promise<TreeNode | undefined> {
  const record = await runTransaction(db, ['nodes'], 'readonly', 'read the node', (tx) =>
    tx.objectStore('nodes').get([treeId, nodeId]),
  );
  return record ? toNode(record, record.embedding) : undefined;
}

/** A summary's topic label to store (see `saveNodeLabels`). */
export interface NodeLabel {
  id: number;
  label: string[];
}

/**
 * Stores topic labels on existing nodes of a tree (a tree saved before labels existed gets them when it opens),
 * in one transaction; every other field of each node stays as it was. Labels of nodes no longer stored are
 * skipped (the tree was rebuilt meanwhile).
 * @returns how many nodes were updated.
 * @throws StorageError NOT_FOUND, QUOTA_EXCEEDED (nothing is then stored).
 */
export function saveNodeLabels(db: AerieDb, treeId: string, labels: readonly NodeLabel[]): Promise<number> {
  return runTransaction(db, ['trees', 'nodes'], 'readwrite', 'save the topic labels', async (tx) => {
    if (!(await tx.objectStore('trees').get(treeId))) throw treeNotFound(treeId);
    const store = tx.objectStore('nodes');
    const records = await Promise.all(labels.map(({ id }) => store.get([treeId, id])));
    const updates: NodeRecord[] = [];
    records.forEach((record, k) => {
      if (record) updates.push({ ...record, label: labels[k].label.slice() });
    });
    await forEachRequest(updates, (r) => store.put(r));
    return updates.length;
  });
}

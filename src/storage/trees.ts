/**
 * Tree records: create one when a build starts, update it as the build goes (each update one read-modify-write
 * transaction, so two tabs never lose each other's changes), list them for the library, rename, and delete
 * every record of a tree.
 */
import { isAbortError } from '../core/abort';
import { TREE_LIMITS } from '../core/tree-limits';
import { DEFAULT_BUILD_PARAMS, type SummarizerInfo } from '../core/types';
import { redactSecret } from '../llm/errors';
import type { LlmEndpoint } from '../llm';
import { builtinModelTag } from '../models/generate/generator-presets';
import type { EmbeddingDtype } from '../models/embed';
import {
  embeddingModelId,
  isNotice,
  type BuildRequest,
  type EmbeddingChoice,
  type PipelineProgress,
  type RunDevices,
} from '../protocol/build';
import { treeNodeRange } from './db';
import { deleteConversationRecords } from './conversations';
import { prepareDocument, putDocumentsIfAbsent, type NewDocument } from './documents';
import { StorageError, treeNotFound } from './errors';
import { findOriginal, keptInfo } from './originals';
import { toStoredRequest } from './requests';
import {
  DEFAULT_EMBEDDING_DTYPE,
  TREE_HISTORY_STORES,
  type AerieDb,
  type CheckpointRecord,
  type OriginalInfo,
  type RecordedSummarizer,
  type TreeDocumentEntry,
  type TreeRecord,
  type TreeStatus,
} from './schema';
import { emptyStats, utf8Length } from './stats';
import { forEachRequest, runTransaction } from './transaction';

/** File facts a `BuildDocument` does not carry, by position in `request.documents`. */
export interface FileInfo {
  /** MIME type. Default `text/plain`. */
  type?: string;
  /** Bytes of the original file. */
  size?: number;
}

/** Options of `createTree`. */
export interface CreateTreeOptions {
  /** File facts of each document, in the order of `request.documents`. */
  files?: readonly FileInfo[];
  /** Milliseconds since the epoch. Default now. */
  now?: number;
  /**
   * Keys of pending documents (see pending.ts) this build takes: they are removed in the same transaction that
   * records the build, so each document is either waiting or in the tree, never lost and never in both.
   */
  consumePending?: readonly string[];
  /**
   * The files other trees keep for these documents, in the order of `request.documents` (a rebuild with added
   * documents keeps its documents' PDFs): each still stored is kept by the new tree too. A document's file is
   * never taken from another tree by its text alone (issue 41).
   */
  shareOriginals?: readonly (OriginalInfo | undefined)[];
}

/**
 * What a new build records as the writer of its summaries. The built-in model's dtype is settled when it loads
 * (`auto` until then); the finished tree records the settled tag.
 */
function summarizerInfoOf(request: BuildRequest): SummarizerInfo {
  const choice = request.summarizer;
  if (choice.kind === 'llm') return { kind: 'llm', model: choice.endpoint.model };
  if (choice.kind === 'builtin') {
    const { model, dtype } = choice.generator;
    return { kind: 'llm', model: builtinModelTag({ model, dtype: dtype ?? 'auto' }) };
  }
  return { kind: 'extractive' };
}

/**
 * Records a new build (status `building`): its documents' texts (once per distinct text), and its request
 * without API keys or texts, so it can be resumed after the tab closes. The tree's id is `request.buildId`.
 * @throws StorageError ALREADY_EXISTS, QUOTA_EXCEEDED.
 */
export async function createTree(
  db: AerieDb,
  request: BuildRequest,
  options: CreateTreeOptions = {},
): Promise<TreeRecord> {
  const now = options.now ?? Date.now();
  const docs = await Promise.all(
    request.documents.map((doc, i) => {
      const file = options.files?.[i];
      const input: NewDocument = {
        name: doc.name ?? doc.id ?? `doc-${i}`,
        text: doc.text,
        pageStarts: doc.pageStarts,
      };
      if (file?.type !== undefined) input.type = file.type;
      if (file?.size !== undefined) input.size = file.size;
      return prepareDocument(input, now);
    }),
  );
  const documents: TreeDocumentEntry[] = request.documents.map((doc, i) => {
    const id = doc.id ?? `doc-${i}`;
    return { id, name: doc.name ?? id, chars: doc.text.length, documentId: docs[i].id };
  });
  const { concurrency: _concurrency, ...params } = request.params;
  const embedding: TreeRecord['embedding'] = { model: embeddingModelId(request.embedding) };
  if (request.embedding.kind === 'browser')
    embedding.dtype = request.embedding.dtype ?? DEFAULT_EMBEDDING_DTYPE;
  const record: TreeRecord = {
    id: request.buildId,
    title: checkTitle(request.title),
    createdAt: new Date(now).toISOString(),
    updatedAt: now,
    status: 'building',
    origin: 'built',
    documentIds: [...new Set(docs.map((d) => d.id))],
    documents,
    params: { ...DEFAULT_BUILD_PARAMS, ...params },
    embedding,
    summarizer: summarizerInfoOf(request),
    request: toStoredRequest(
      request,
      docs.map((d) => d.id),
    ),
    stats: emptyStats(docs.reduce((sum, d) => sum + utf8Length(d.text), 0)),
  };
  const consumed = options.consumePending ?? [];
  return runTransaction(
    db,
    ['trees', 'documents', 'pending', 'originals', 'originalFiles'],
    'readwrite',
    'record the new build',
    async (tx) => {
      const trees = tx.objectStore('trees');
      if (await trees.get(record.id)) {
        throw new StorageError('ALREADY_EXISTS', `A tree with id "${record.id}" exists already.`, {
          treeId: record.id,
        });
      }
      await putDocumentsIfAbsent(tx.objectStore('documents'), docs);
      // The files a rebuild's documents kept, when they are still stored.
      await forEachRequest(record.documents, async (entry, i) => {
        const shared = options.shareOriginals?.[i];
        if (!entry.documentId || !shared?.kept) return;
        const original = await findOriginal(tx, entry.documentId, shared.sha256);
        if (original) entry.original = keptInfo(original);
      });
      await trees.put(record);
      await forEachRequest(consumed, (key) => tx.objectStore('pending').delete(key));
      return record;
    },
  );
}

/** Why a build runs with another embedding model than the one chosen. */
export interface ModelFallback {
  /** The model the user chose. */
  from: string;
  /** The model used instead. */
  to: EmbeddingChoice & { kind: 'browser' };
}

/**
 * Reads a tree record, rewrites it and stores the result in one transaction (read, change, write), so
 * concurrent changes from two tabs or two workers both land. `rewrite` must be synchronous.
 * @throws StorageError NOT_FOUND.
 */
function rewriteTree(
  db: AerieDb,
  treeId: string,
  action: string,
  rewrite: (record: TreeRecord) => TreeRecord,
): Promise<TreeRecord> {
  return runTransaction(db, ['trees'], 'readwrite', action, async (tx) => {
    const record = await tx.objectStore('trees').get(treeId);
    if (!record) throw treeNotFound(treeId);
    const next = rewrite(record);
    await tx.objectStore('trees').put(next);
    return next;
  });
}

/**
 * Records that a build switched embedding model before embedding anything (the chosen hub model could not be
 * downloaded): the tree's embedding becomes `to`, with `fallbackFrom` saying what was chosen, and its stored
 * request too, so a resume keeps using the model its embeddings came from.
 * @throws StorageError NOT_FOUND.
 */
export function recordModelFallback(
  db: AerieDb,
  treeId: string,
  fallback: ModelFallback,
  now = Date.now(),
): Promise<TreeRecord> {
  return rewriteTree(db, treeId, 'record the model fallback', (record) => {
    const next: TreeRecord = {
      ...record,
      updatedAt: now,
      embedding: {
        model: embeddingModelId(fallback.to),
        dtype: fallback.to.dtype ?? DEFAULT_EMBEDDING_DTYPE,
        fallbackFrom: fallback.from,
      },
    };
    if (record.request) next.request = { ...record.request, embedding: { ...fallback.to } };
    return next;
  });
}

/**
 * Records the weights a build's model settled on when it loaded (a request for 'auto' precision becomes q8 or
 * fp32 by the device): the tree's embedding and its stored request name them, so questions embed with the same
 * weights and a resume on another device keeps them (its cached embeddings stay valid).
 * @throws StorageError NOT_FOUND.
 */
export function recordEmbeddingDtype(
  db: AerieDb,
  treeId: string,
  dtype: EmbeddingDtype,
  now = Date.now(),
): Promise<TreeRecord> {
  return rewriteTree(db, treeId, 'record the embedding precision', (record) => {
    const next: TreeRecord = { ...record, updatedAt: now, embedding: { ...record.embedding, dtype } };
    if (record.request?.embedding.kind === 'browser') {
      next.request = { ...record.request, embedding: { ...record.request.embedding, dtype } };
    }
    return next;
  });
}

/**
 * Records that a build's built-in model could not be loaded (the hub was unreachable) before any summary was
 * written: the tree's summaries become extractive, with `fallbackFrom` naming the model chosen, and its stored
 * request too, so a resume keeps the summariser its finished summaries came from.
 * @throws StorageError NOT_FOUND.
 */
export function recordSummarizerFallback(
  db: AerieDb,
  treeId: string,
  from: string,
  now = Date.now(),
): Promise<TreeRecord> {
  return rewriteTree(db, treeId, 'record the summarizer fallback', (record) => {
    const next: TreeRecord = {
      ...record,
      updatedAt: now,
      summarizer: { kind: 'extractive', fallbackFrom: from },
    };
    if (record.request) next.request = { ...record.request, summarizer: { kind: 'extractive' } };
    return next;
  });
}

/** The fields of a tree record `updateTree` may change; a key given as undefined removes the field. */
export type TreePatch = Partial<
  Pick<TreeRecord, 'title' | 'status' | 'error' | 'progress' | 'embedding' | 'summarizer'>
>;

/**
 * Changes a tree record in one transaction (read, change, write), so concurrent updates from two tabs or two
 * workers both land. `change` may be a function of the current record; it must be synchronous.
 * @returns the updated record.
 * @throws StorageError NOT_FOUND.
 */
export async function updateTree(
  db: AerieDb,
  treeId: string,
  change: TreePatch | ((current: Readonly<TreeRecord>) => TreePatch),
  now = Date.now(),
): Promise<TreeRecord> {
  return rewriteTree(db, treeId, 'update the tree', (current) => {
    const patch = typeof change === 'function' ? change(current) : change;
    const next: TreeRecord = { ...current, updatedAt: now };
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined) delete (next as unknown as Record<string, unknown>)[key];
      else (next as unknown as Record<string, unknown>)[key] = value;
    }
    if (patch.title !== undefined) next.title = checkTitle(patch.title);
    return next;
  });
}

function checkTitle(title: string): string {
  const trimmed = typeof title === 'string' ? title.trim() : '';
  if (!trimmed) throw new StorageError('INVALID_ARGUMENT', 'A tree needs a title.', {});
  if (trimmed.length > TREE_LIMITS.maxNameChars) {
    throw new StorageError(
      'INVALID_ARGUMENT',
      `A title may have at most ${TREE_LIMITS.maxNameChars} characters (this one has ${trimmed.length}).`,
      { length: trimmed.length, limit: TREE_LIMITS.maxNameChars },
    );
  }
  return trimmed;
}

/**
 * Renames a tree (the title is trimmed; 1 … 1,000 characters).
 * @throws StorageError NOT_FOUND, INVALID_ARGUMENT.
 */
export async function renameTree(db: AerieDb, treeId: string, title: string): Promise<TreeRecord> {
  return updateTree(db, treeId, { title: checkTitle(title) });
}

/** The tree record, or undefined. */
export function getTree(db: AerieDb, treeId: string): Promise<TreeRecord | undefined> {
  return runTransaction(db, ['trees'], 'readonly', 'read the tree', (tx) =>
    tx.objectStore('trees').get(treeId),
  );
}

/** One row of the library. */
export interface TreeSummary {
  id: string;
  title: string;
  status: TreeStatus;
  origin: TreeRecord['origin'];
  /** Name, length, whether the text is stored and whether the original file is kept, per document. */
  documents: { name: string; chars: number; textStored: boolean; original?: OriginalInfo }[];
  /** Summary layers above the leaves. */
  layers: number;
  nodesPerLayer: number[];
  nodeCount: number;
  embeddingModel: string;
  /** The model the user chose, when the build fell back to `embeddingModel` (the hub was unreachable). */
  embeddingFallbackFrom?: string;
  /** What wrote the summaries (`fallbackFrom`: the built-in model chosen when it could not be loaded). */
  summarizer: RecordedSummarizer;
  /** ISO 8601. */
  createdAt: string;
  /** Milliseconds since the epoch. */
  updatedAt: number;
  /** Estimated size on disk in bytes (texts, embeddings, the rest as JSON). */
  bytes: number;
  error?: { code: string; message: string };
  /** Where an unfinished build stopped. */
  checkpoint?: CheckpointRecord;
  /** Where its models ran (a finished build's record, else the last progress report's). */
  devices?: RunDevices;
}

/** Every tree, most recently changed first, with where unfinished builds stopped; reads no nodes. */
export function listTrees(db: AerieDb): Promise<TreeSummary[]> {
  return runTransaction(db, ['trees', 'checkpoints'], 'readonly', 'list the trees', async (tx) => {
    const [records, checkpoints] = await Promise.all([
      tx.objectStore('trees').index('byUpdatedAt').getAll(),
      tx.objectStore('checkpoints').getAll(),
    ]);
    const byTree = new Map(checkpoints.map((c) => [c.treeId, c]));
    return records.reverse().map((r) => {
      const row: TreeSummary = {
        id: r.id,
        title: r.title,
        status: r.status,
        origin: r.origin,
        documents: r.documents.map((d) => ({
          name: d.name,
          chars: d.chars,
          textStored: d.documentId !== undefined,
          ...(d.original ? { original: { ...d.original } } : {}),
        })),
        layers: r.stats.layers,
        nodesPerLayer: r.stats.nodesPerLayer.slice(),
        nodeCount: r.stats.nodeCount,
        embeddingModel: r.embedding.model,
        summarizer: { ...r.summarizer },
        createdAt: r.createdAt,
        updatedAt: r.updatedAt,
        bytes: r.stats.bytes,
      };
      if (r.error) row.error = { ...r.error };
      if (r.embedding.fallbackFrom) row.embeddingFallbackFrom = r.embedding.fallbackFrom;
      const devices = r.devices ?? r.progress?.devices;
      if (devices) row.devices = devices;
      const checkpoint = byTree.get(r.id);
      if (checkpoint) row.checkpoint = checkpoint;
      return row;
    });
  });
}

function checkpointOf(treeId: string, progress: PipelineProgress): CheckpointRecord | undefined {
  const event = progress.event;
  if (isNotice(event)) return undefined; // a notice, not a stage
  const layer = 'layer' in event && typeof event.layer === 'number' ? event.layer : 0;
  const [done, total] =
    event.stage === 'model-load' || event.stage === 'llm-load'
      ? [event.loaded, event.total]
      : event.stage === 'done'
        ? [event.nodes, event.nodes]
        : [event.done, event.total];
  return { treeId, stage: event.stage, layer, done, total, updatedAt: progress.at };
}

/** Records a build's progress: the tree's last progress snapshot and its checkpoint, in one transaction. */
export function recordProgress(db: AerieDb, treeId: string, progress: PipelineProgress): Promise<void> {
  const checkpoint = checkpointOf(treeId, progress);
  if (!checkpoint) return Promise.resolve();
  const { recorded: _recorded, ...stored } = progress;
  return runTransaction(
    db,
    ['trees', 'checkpoints'],
    'readwrite',
    'record the build progress',
    async (tx) => {
      const record = await tx.objectStore('trees').get(treeId);
      if (!record) throw treeNotFound(treeId);
      await Promise.all([
        tx.objectStore('trees').put({ ...record, progress: stored, updatedAt: progress.at }),
        tx.objectStore('checkpoints').put(checkpoint),
      ]);
    },
  );
}

/** Where the build of this tree stopped, or undefined. */
export function getCheckpoint(db: AerieDb, treeId: string): Promise<CheckpointRecord | undefined> {
  return runTransaction(db, ['checkpoints'], 'readonly', 'read the checkpoint', (tx) =>
    tx.objectStore('checkpoints').get(treeId),
  );
}

/**
 * Records why a build stopped: a cancellation (an AbortError) makes the tree `paused`; anything else
 * `failed` with the error's code and message. The message is scrubbed of every API key saved in settings
 * before it is stored, whatever produced it.
 */
export function markBuildStopped(
  db: AerieDb,
  treeId: string,
  reason: unknown,
  now = Date.now(),
): Promise<TreeRecord> {
  return runTransaction(
    db,
    ['trees', 'settings'],
    'readwrite',
    'record why the build stopped',
    async (tx) => {
      const record = await tx.objectStore('trees').get(treeId);
      if (!record) throw treeNotFound(treeId);
      const next: TreeRecord = { ...record, updatedAt: now };
      if (isAbortError(reason)) {
        next.status = 'paused';
        delete next.error;
      } else {
        const endpoints = (await tx.objectStore('settings').get('llmEndpoints')) as LlmEndpoint[] | undefined;
        let message = reason instanceof Error ? reason.message : String(reason);
        for (const endpoint of Array.isArray(endpoints) ? endpoints : [])
          message = redactSecret(message, endpoint.apiKey);
        const code = (reason as { code?: unknown } | null)?.code;
        next.status = 'failed';
        next.error = { code: typeof code === 'string' ? code : 'UNKNOWN', message };
      }
      await tx.objectStore('trees').put(next);
      return next;
    },
  );
}

/**
 * Removes every record of a tree in one transaction: its nodes, checkpoint and record, its conversations (with
 * their turns) and evaluations, the document texts (and original files) no other tree uses, and the cache entries
 * no other tree used (others just
 * forget this tree).
 * @returns false when there was no such tree (its orphaned nodes and entries, if any, are removed anyway).
 */
export function deleteTree(db: AerieDb, treeId: string): Promise<boolean> {
  const stores = [
    'trees',
    'nodes',
    'checkpoints',
    'documents',
    'originals',
    'originalFiles',
    'cache',
    'turns',
    ...TREE_HISTORY_STORES,
  ] as const;
  return runTransaction(db, [...stores], 'readwrite', 'delete the tree', async (tx) => {
    const trees = tx.objectStore('trees');
    const record = await trees.get(treeId);
    await Promise.all([
      trees.delete(treeId),
      tx.objectStore('nodes').delete(treeNodeRange(treeId)),
      tx.objectStore('checkpoints').delete(treeId),
    ]);
    const conversations = tx.objectStore('conversations');
    const conversationIds = await conversations.index('byTree').getAllKeys(treeId);
    await deleteConversationRecords(conversations, tx.objectStore('turns'), conversationIds);
    for (const name of TREE_HISTORY_STORES) {
      if (name === 'conversations') continue;
      const store = tx.objectStore(name);
      const keys = await store.index('byTree').getAllKeys(treeId);
      await forEachRequest(keys, (key) => store.delete(key));
    }
    const documents = tx.objectStore('documents');
    const files = tx.objectStore('originalFiles');
    await forEachRequest(record?.documentIds ?? [], async (documentId) => {
      const users = await trees.index('byDocument').getAll(documentId);
      if (users.length === 0) {
        await documents.delete(documentId);
        await tx.objectStore('originals').delete(documentId);
        await files.delete(IDBKeyRange.bound([documentId, ''], [documentId, '\uffff']));
        return;
      }
      // The text stays; each file only this tree kept goes (by its hash: other trees may keep other files).
      const named = (tree: TreeRecord) =>
        new Set(
          tree.documents
            .filter((d) => d.documentId === documentId && d.original?.kept)
            .map((d) => (d.original?.kept ? (d.original.sha256 ?? '') : '')),
        );
      const stillNamed = new Set(users.flatMap((tree) => [...named(tree)]));
      for (const sha256 of record ? named(record) : []) {
        if (stillNamed.has(sha256)) continue;
        if (sha256) await files.delete([documentId, sha256]);
        else await tx.objectStore('originals').delete(documentId);
      }
    });
    const cache = tx.objectStore('cache');
    const entries = await cache.index('byTree').getAll(treeId);
    await forEachRequest(entries, (entry) => {
      const treeIds = entry.treeIds.filter((id) => id !== treeId);
      return treeIds.length === 0 ? cache.delete(entry.key) : cache.put({ ...entry, treeIds });
    });
    return record !== undefined;
  });
}

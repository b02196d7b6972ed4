/**
 * The model cache's store: every embedding, summary and evaluation reply under the SHA-256 of everything that
 * determines it (the keys below), with the trees that use it. The wrappers that put models behind it live in
 * src/pipeline/cached-results.ts.
 */
import { unwrap } from 'idb';
import type { EvalChat } from '../core/eval';
import type { LlmProtocol } from '../llm';
import { requireTree } from './errors';
import { hashParts } from './hash';
import type { AerieDb, CacheEntry } from './schema';
import { forEachRequest, runTransaction } from './transaction';

/** Part of every cache key; bump it when what goes into a key changes, so old entries are never misread. */
const CACHE_KEY_VERSION = 1;

/** What determines an embedding besides its text. */
export interface EmbeddingCacheKey {
  /** The model string recorded in trees. */
  model: string;
  /** Weight precision of browser models (`q8`, `fp32`); absent for endpoints. */
  dtype?: string;
}

/** What determines a summary besides the cluster's texts and the token limit. */
export type SummaryCacheKey =
  | {
      kind: 'llm';
      protocol: LlmProtocol;
      model: string;
      systemPrompt: string;
      userTemplate: string;
      /** Sampling temperature when one is set. */
      temperature?: number;
    }
  | {
      kind: 'builtin';
      /** The settled model tag (`builtin:<model>@<dtype>`): another dtype writes other summaries. */
      model: string;
      systemPrompt: string;
      userTemplate: string;
    }
  | { kind: 'extractive'; embeddingModel: string };

export function embeddingHash(key: EmbeddingCacheKey, text: string): Promise<string> {
  return hashParts(['embedding', CACHE_KEY_VERSION, key.model, key.dtype ?? null, text]);
}

export function summaryHash(
  key: SummaryCacheKey,
  texts: readonly string[],
  maxTokens: number,
): Promise<string> {
  return key.kind === 'llm'
    ? hashParts([
        'summary',
        CACHE_KEY_VERSION,
        'llm',
        key.protocol,
        key.model,
        key.systemPrompt,
        key.userTemplate,
        key.temperature ?? null,
        maxTokens,
        texts,
      ])
    : key.kind === 'builtin'
      ? hashParts([
          'summary',
          CACHE_KEY_VERSION,
          'builtin',
          key.model,
          key.systemPrompt,
          key.userTemplate,
          maxTokens,
          texts,
        ])
      : hashParts(['summary', CACHE_KEY_VERSION, 'extractive', key.embeddingModel, maxTokens, texts]);
}

/**
 * Reads entries in one transaction, recording `treeId` as a user of each one found.
 * @throws StorageError NOT_FOUND when the tree was deleted (in this tab or another).
 */
export function lookupCache(
  db: AerieDb,
  keys: readonly string[],
  treeId: string,
): Promise<(CacheEntry | undefined)[]> {
  return runTransaction(db, ['trees', 'cache'], 'readwrite', 'read the cache', async (tx) => {
    await requireTree(tx.objectStore('trees'), treeId);
    const found: (CacheEntry | undefined)[] = new Array(keys.length);
    await forEachRequest(keys, async (key, i) => {
      const entry = await tx.objectStore('cache').get(key);
      found[i] = entry;
      if (entry && !entry.treeIds.includes(treeId))
        await tx.objectStore('cache').put({ ...entry, treeIds: [...entry.treeIds, treeId] });
    });
    return found;
  });
}

/**
 * Writes new entries in one transaction, merging the users of any another tab wrote meanwhile. Every tree an
 * entry names must exist: nothing is cached for a tree deleted meanwhile (in this tab or another).
 *
 * An entry is added without reading its key first: the callers write what their lookup just missed, so the key
 * is almost always new, and reading each one before writing it (to merge the users of an entry another tab
 * wrote meanwhile) was two requests an entry, one waiting for the other (docs/build-time.md: it did not hold up
 * the embedding stage, whose embed workers are the slower side, but the store stage's writes are fewer). Only a
 * key that exists (the add's ConstraintError) is read and merged.
 * @throws StorageError NOT_FOUND (a tree was deleted), QUOTA_EXCEEDED.
 */
export function saveCache(db: AerieDb, entries: readonly CacheEntry[]): Promise<void> {
  return runTransaction(db, ['trees', 'cache'], 'readwrite', 'save to the cache', async (tx) => {
    const users = [...new Set(entries.flatMap((e) => e.treeIds))];
    await forEachRequest(users, (treeId) => requireTree(tx.objectStore('trees'), treeId));
    const cache = unwrap(tx.objectStore('cache'));
    await forEachRequest(entries, (entry) => addOrMerge(cache, entry));
  });
}

/**
 * Adds `entry`, or, when its key exists, puts it with the users of both. A raw request, because the add's
 * ConstraintError must be handled inside its own error event (cancelled there, and kept from the
 * transaction, whose error event idb would take for a failure): an idb promise settles too late for that.
 */
function addOrMerge(cache: IDBObjectStore, entry: CacheEntry): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = (request: IDBRequest, then: () => void) => {
      request.onsuccess = then;
      request.onerror = () => reject(request.error);
    };
    const added = cache.add(entry);
    settle(added, () => resolve());
    added.onerror = (event) => {
      if (added.error?.name !== 'ConstraintError') return reject(added.error);
      event.preventDefault();
      event.stopPropagation();
      const read = cache.get(entry.key) as IDBRequest<CacheEntry | undefined>;
      settle(read, () => {
        const treeIds = [...new Set([...(read.result?.treeIds ?? []), ...entry.treeIds])];
        settle(cache.put({ ...entry, treeIds }), () => resolve());
      });
    };
  });
}

/** The hash of one evaluation request; key parts:  each message as "role\ncontent" (roles hold no line break). */
export function evalHash(
  model: string,
  messages: Parameters<EvalChat>[0],
  maxTokens: number,
): Promise<string> {
  return hashParts([
    'eval',
    CACHE_KEY_VERSION,
    model,
    maxTokens,
    messages.map((m) => `${m.role}\n${m.content}`),
  ]);
}

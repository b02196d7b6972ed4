/**
 * How much the browser lets us store, and asking it to keep our data. `navigator.storage` exists on the main
 * thread and in workers (`persist()` only on the main thread); where it is missing the answers are undefined.
 */
import { TREE_HISTORY_STORES, type AerieDb, type StoreName } from './schema';
import { runTransaction } from './transaction';

/** The part of `StorageManager` used here (injectable for tests). */
export interface StorageManagerLike {
  estimate?(): Promise<{ usage?: number; quota?: number }>;
  persist?(): Promise<boolean>;
  persisted?(): Promise<boolean>;
}

function defaultManager(): StorageManagerLike | undefined {
  return (globalThis as { navigator?: { storage?: StorageManagerLike } }).navigator?.storage;
}

/** Bytes this site uses and may use, as the browser estimates them. */
export interface StorageUsage {
  usage: number;
  quota: number;
}

/** The browser's estimate of this site's usage and quota in bytes; undefined where the browser gives none. */
export async function estimateStorage(manager = defaultManager()): Promise<StorageUsage | undefined> {
  if (!manager?.estimate) return undefined;
  const { usage, quota } = await manager.estimate();
  if (typeof usage !== 'number' || typeof quota !== 'number') return undefined;
  return { usage, quota };
}

/**
 * Asks the browser not to evict our data under storage pressure (and, in some browsers, to grant more room).
 * @returns true when granted, false when refused, undefined where the request is impossible (workers, old
 *   browsers).
 */
export async function requestPersistence(manager = defaultManager()): Promise<boolean | undefined> {
  if (!manager?.persist) return undefined;
  return manager.persist();
}

/** Whether our data is already persistent; undefined where the browser cannot say. */
export async function isStoragePersisted(manager = defaultManager()): Promise<boolean | undefined> {
  if (!manager?.persisted) return undefined;
  return manager.persisted();
}

/** Records per store (all but `pending`), for a storage panel and for tests. */
export type RecordCounts = Record<Exclude<StoreName, 'pending'>, number>;

/** How many records each store but `pending` holds, counted in one transaction. */
export function countRecords(db: AerieDb): Promise<RecordCounts> {
  const stores = [
    'documents',
    'trees',
    'nodes',
    'settings',
    'cache',
    'checkpoints',
    'turns',
    ...TREE_HISTORY_STORES,
  ] as const;
  return runTransaction(db, [...stores], 'readonly', 'count the stored records', async (tx) => {
    const counts = await Promise.all(stores.map((name) => tx.objectStore(name).count()));
    return Object.fromEntries(stores.map((name, i) => [name, counts[i]])) as RecordCounts;
  });
}

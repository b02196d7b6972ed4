/**
 * Runs one unit of work in one IndexedDB transaction: it commits all of it or, on any failure, aborts and
 * leaves nothing behind, and the failure comes out as a `StorageError` (a full quota as QUOTA_EXCEEDED).
 * Bodies may await only requests of their own transaction: awaiting anything else (crypto, a model) lets the
 * transaction commit early, so hashing and model calls happen before, never inside.
 */
import type { IDBPTransaction, StoreNames } from 'idb';
import { toStorageError } from './errors';
import type { AerieDb, AerieSchema } from './schema';

/** A transaction over some of Aerie's stores. */
export type AerieTransaction<
  Names extends ArrayLike<StoreNames<AerieSchema>>,
  Mode extends IDBTransactionMode,
> = IDBPTransaction<AerieSchema, Names, Mode>;

function abortQuietly(tx: { abort(): void }): void {
  try {
    tx.abort();
  } catch {
    // Already committed or aborted (e.g. by the browser because of a quota error).
  }
}

/**
 * Runs `body` in a new transaction and resolves once the transaction has committed.
 * @param operation what is being done, for error messages ("save the tree").
 * @throws StorageError (QUOTA_EXCEEDED, CLOSED, IO_ERROR, …) or whatever `body` threw on purpose; in every
 *   case the transaction is aborted, so none of its writes remain.
 */
export async function runTransaction<
  Names extends ArrayLike<StoreNames<AerieSchema>>,
  Mode extends IDBTransactionMode,
  T,
>(
  db: AerieDb,
  storeNames: Names,
  mode: Mode,
  operation: string,
  body: (tx: AerieTransaction<Names, Mode>) => Promise<T>,
): Promise<T> {
  let tx: AerieTransaction<Names, Mode>;
  try {
    tx = db.transaction(storeNames, mode);
  } catch (error) {
    throw toStorageError(error, operation);
  }
  const done = tx.done;
  // Observed here so an abort never surfaces as an unhandled rejection; awaited below.
  done.catch(() => undefined);
  try {
    const result = await body(tx);
    await done;
    return result;
  } catch (error) {
    abortQuietly(tx);
    await done.catch(() => undefined);
    throw toStorageError(error, operation, tx.error ?? undefined);
  }
}

/**
 * Issues one request per item without waiting between them (IndexedDB queues them in order) and resolves
 * when all have succeeded. Every request is observed at once, so when one fails, or `start` throws part-way,
 * the others' AbortErrors never surface as unhandled rejections.
 */
export function forEachRequest<T>(
  items: readonly T[],
  start: (item: T, index: number) => Promise<unknown>,
): Promise<void> {
  const pending: Promise<unknown>[] = [];
  try {
    for (let i = 0; i < items.length; i++) {
      const request = start(items[i], i);
      request.catch(() => undefined);
      pending.push(request);
    }
  } catch (error) {
    return Promise.reject(error);
  }
  return Promise.all(pending).then(() => undefined);
}

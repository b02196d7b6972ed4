/**
 * Documents the user added that are not part of a build yet. Each is stored as soon as it is added (its file
 * while it is read, then its text), so a reload or a closed tab keeps them until they are built or removed.
 * `createTree` takes them out in the transaction that records the build (option `consumePending`), so a
 * document is always in exactly one place: waiting here, or in a tree.
 */
import { StorageError } from './errors';
import type { AerieDb, PendingDocumentRecord } from './schema';
import { forEachRequest, runTransaction } from './transaction';

/** Every pending document, oldest first. */
export async function listPendingDocuments(db: AerieDb): Promise<PendingDocumentRecord[]> {
  const all = await runTransaction(db, ['pending'], 'readonly', 'read the added documents', (tx) =>
    tx.objectStore('pending').getAll(),
  );
  return all.sort((a, b) => a.addedAt - b.addedAt || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/**
 * Stores (or replaces) a pending document. Give `file` while it is being read and `text` once it is; a
 * record with neither is refused.
 * @throws StorageError INVALID_ARGUMENT, QUOTA_EXCEEDED.
 */
export function putPendingDocument(db: AerieDb, record: PendingDocumentRecord): Promise<void> {
  if (typeof record.key !== 'string' || !record.key) {
    return Promise.reject(new StorageError('INVALID_ARGUMENT', 'A pending document needs a key.', {}));
  }
  if (record.file === undefined && typeof record.text !== 'string') {
    return Promise.reject(
      new StorageError('INVALID_ARGUMENT', `“${record.name}” has neither a file nor a text to keep.`, {
        key: record.key,
      }),
    );
  }
  return runTransaction(db, ['pending'], 'readwrite', 'keep the added document', async (tx) => {
    await tx.objectStore('pending').put(record);
  });
}

/** Forgets pending documents (removed by the user). Unknown keys are ignored. */
export function deletePendingDocuments(db: AerieDb, keys: readonly string[]): Promise<void> {
  return runTransaction(db, ['pending'], 'readwrite', 'remove the added documents', (tx) =>
    forEachRequest(keys, (key) => tx.objectStore('pending').delete(key)),
  );
}

/**
 * Keeps the documents being added in IndexedDB: reads back what was added before the last reload (files that
 * were still being read are read again), then mirrors the list (each change of what an entry holds is written;
 * entries that left are deleted).
 */
import { useCallback, useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import {
  deletePendingDocuments,
  listPendingDocuments,
  putPendingDocument,
  type AerieDb,
} from '../../storage';
import { errorMessage } from './messages';
import { entryOf, recordOf, signature, type Entry } from './pending-entries';
import type { PendingDocument } from './types';
import type { NoticeInput } from './useNotices';

/** What `usePendingStorage` mirrors and how it reports. */
export interface PendingStorageOptions {
  db: AerieDb | undefined;
  notify(n: NoticeInput): void;
  /** The list, as the page holds it. */
  entries: readonly Entry[];
  setEntries: Dispatch<SetStateAction<Entry[]>>;
  /** Reads a restored file again (useDocumentReader's `read`). */
  read(key: string, file: Blob & { name: string }, pending: PendingDocument): void;
}

/** The storage mirror; see the module comment. */
export function usePendingStorage({ db, notify, entries, setEntries, read }: PendingStorageOptions) {
  const [restored, setRestored] = useState(false);
  /** What storage holds for each key, as `signature` says (absent: nothing). */
  const stored = useRef(new Map<string, string>());

  // Documents added before the last reload, once the database is open; files still being read are read again.
  useEffect(() => {
    if (!db) return;
    let live = true;
    listPendingDocuments(db)
      .then(
        (records) => {
          if (!live) return;
          const back = records.map(entryOf);
          back.forEach((e) => stored.current.set(e.pending.key, signature(e)));
          setEntries((list) => {
            const known = new Set(list.map((e) => e.pending.key));
            return [...back.filter((e) => !known.has(e.pending.key)), ...list];
          });
          for (const entry of back) {
            if (entry.pending.status === 'reading' && entry.file)
              read(entry.pending.key, entry.file, entry.pending);
          }
        },
        (error: unknown) =>
          notify({
            kind: 'error',
            title: 'Documents added before could not be read back',
            body: errorMessage(error),
          }),
      )
      .finally(() => live && setRestored(true));
    return () => {
      live = false;
    };
  }, [db, notify, read, setEntries]);

  // Storage mirrors the list: each change of what an entry holds is written; entries that left are deleted.
  useEffect(() => {
    if (!db || !restored) return;
    const fail = (error: unknown) =>
      notify({
        kind: 'warning',
        key: 'pending-storage',
        title: 'An added document could not be kept across a reload',
        body: `${errorMessage(error)} It stays in the list until you reload or close the tab.`,
      });
    const present = new Set<string>();
    for (const entry of entries) {
      const key = entry.pending.key;
      present.add(key);
      const now = signature(entry);
      if (stored.current.get(key) === now || (now === 'none' && !stored.current.has(key))) continue;
      const record = recordOf(entry);
      if (record) stored.current.set(key, now);
      else stored.current.delete(key);
      (record ? putPendingDocument(db, record) : deletePendingDocuments(db, [key])).catch(fail);
    }
    const gone = [...stored.current.keys()].filter((key) => !present.has(key));
    if (gone.length > 0) {
      gone.forEach((key) => stored.current.delete(key));
      deletePendingDocuments(db, gone).catch(fail);
    }
  }, [db, restored, entries, notify]);

  /** Whether storage holds something for the entry `key`. */
  const holds = useCallback((key: string) => stored.current.has(key), []);
  /** Forgets the entry `key` without deleting it (a recorded build moved it already). */
  const forget = useCallback((key: string) => void stored.current.delete(key), []);
  /** Deletes the entry `key` from storage, then forgets it; rejects when the delete fails. */
  const unstore = useCallback(
    async (key: string) => {
      if (!db) return;
      await deletePendingDocuments(db, [key]);
      stored.current.delete(key);
    },
    [db],
  );

  return { holds, forget, unstore };
}

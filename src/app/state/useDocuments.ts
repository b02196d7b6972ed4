/**
 * The documents the user is adding: each file is read in a worker (nothing blocks the page); a bad file gets a
 * clear message and leaves the others alone. Every document is kept in IndexedDB the moment it is added — the
 * file while it is read, then its text — so a reload or a closed tab keeps it until it is built or removed;
 * after a reload, files that were still being read are read again.
 */
import { useCallback, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { ingestText, type IngestedDocument } from '../../ingest';
import type { AerieDb, NewOriginal } from '../../storage';
import { errorMessage } from './messages';
import { failedEntry, readingEntry, readyEntry, type Entry } from './pending-entries';
import { useDocumentReader, type EntryUpdate } from './useDocumentReader';
import { usePendingStorage } from './usePendingStorage';
import type { NoticeInput } from './useNotices';

/** Where the app serves the Cinderella sample (public/samples). */
const SAMPLE_PATH = 'samples/cinderella.txt';

/** A document ready to build, with the key that takes it out of the pending list when the build is recorded. */
export interface ReadyDocument {
  key: string;
  document: IngestedDocument;
  /** A PDF's original file (kept with the tree when it is not too large). */
  original?: Blob;
}

/** What a ready document brings to keep with its tree: a PDF's file and layout. */
export function originalOf(ready: ReadyDocument): NewOriginal | undefined {
  const { document, original } = ready;
  if (!document.layout) return undefined;
  return {
    name: document.name,
    layout: document.layout,
    size: document.size,
    ...(original ? { file: original } : {}),
  };
}

/** What `useDocuments` keeps the documents in and reports to. */
export interface DocumentsOptions {
  /** The database (undefined until it opens: documents are listed, and stored once it is). */
  db: AerieDb | undefined;
  notify(n: NoticeInput): void;
}

/** The documents being added, with functions to add and remove them. */
export function useDocuments({ db, notify }: DocumentsOptions) {
  const [entries, setEntries] = useState<Entry[]>([]);
  /** Keys being removed: storage is deleting them, so nothing may change (and be written) meanwhile. */
  const removing = useRef(new Set<string>());

  const update = useCallback<EntryUpdate>((key, patch) => {
    if (removing.current.has(key)) return;
    setEntries((list) => list.map((e) => (e.pending.key === key ? { ...e, ...patch } : e)));
  }, []);
  const { read, abort } = useDocumentReader(update);
  const { holds, forget, unstore } = usePendingStorage({ db, notify, entries, setEntries, read });
  const adders = useDocumentAdders(setEntries, read);

  /**
   * Removes a document: out of storage first, then out of the list, so a reload the moment it leaves the list
   * cannot bring it back (an IndexedDB write still in flight when the page unloads is lost).
   */
  const remove = useCallback(
    (key: string) => {
      abort(key);
      const drop = () => {
        setEntries((list) => list.filter((e) => e.pending.key !== key));
        removing.current.delete(key);
      };
      if (!db || !holds(key)) return drop();
      // A read finishing now must not write the entry back after the delete below.
      removing.current.add(key);
      unstore(key).then(drop, (error: unknown) => {
        notify({
          kind: 'warning',
          key: 'pending-storage',
          title: 'A removed document could not be removed from storage',
          body: `${errorMessage(error)} It may come back after a reload; remove it again then.`,
        });
        drop();
      });
    },
    [db, notify, abort, holds, unstore],
  );

  /**
   * Takes documents out of the list because a recorded build now holds them: storage moved them already, in
   * the transaction that recorded the build.
   */
  const take = useCallback(
    (keys: readonly string[]) => {
      for (const key of keys) {
        abort(key);
        forget(key);
      }
      const gone = new Set(keys);
      setEntries((list) => list.filter((e) => !gone.has(e.pending.key)));
    },
    [abort, forget],
  );

  return {
    pending: entries.map((e) => e.pending),
    ready: entries
      .filter((e) => e.document)
      .map((e): ReadyDocument => ({
        key: e.pending.key,
        document: e.document as IngestedDocument,
        ...(e.original ? { original: e.original } : {}),
      })),
    reading: entries.some((e) => e.pending.status === 'reading'),
    ...adders,
    remove,
    take,
  };
}

/** The three ways in: files (read in the worker), pasted text and the sample. */
function useDocumentAdders(
  setEntries: Dispatch<SetStateAction<Entry[]>>,
  read: ReturnType<typeof useDocumentReader>['read'],
) {
  const add = useCallback((entry: Entry) => setEntries((list) => [...list, entry]), [setEntries]);
  const addReady = useCallback((document: IngestedDocument) => add(readyEntry(document)), [add]);
  const addFailed = useCallback((name: string, error: unknown) => add(failedEntry(name, error)), [add]);

  const addFiles = useCallback(
    (files: File[]) => {
      for (const file of files) {
        const entry = readingEntry(file);
        add(entry);
        read(entry.pending.key, file, entry.pending);
      }
    },
    [add, read],
  );

  const addPaste = useCallback(
    (text: string, name: string) => {
      ingestText(text, name.trim() || undefined).then(addReady, (error: unknown) =>
        addFailed(name.trim() || 'Pasted text', error),
      );
    },
    [addReady, addFailed],
  );

  const addSample = useCallback(async () => {
    try {
      const response = await fetch(import.meta.env.BASE_URL + SAMPLE_PATH);
      if (!response.ok) throw new Error(`The sample could not be loaded (HTTP ${response.status}).`);
      const document = await ingestText(await response.text(), 'cinderella.txt');
      addReady({ ...document, type: 'txt' });
    } catch (error) {
      addFailed('cinderella.txt', error);
    }
  }, [addReady, addFailed]);

  return { addFiles, addPaste, addSample };
}

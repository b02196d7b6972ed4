/**
 * The documents the user is adding: each file is read in a worker (nothing blocks the page); a bad file gets a
 * clear message and leaves the others alone. Every document is kept in IndexedDB the moment it is added — the
 * file while it is read, then its text — so a reload or a closed tab keeps it until it is built or removed;
 * after a reload, files that were still being read are read again.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { ingestInWorker, ingestText, type IngestedDocument } from '../../ingest';
import { MAX_FILE_BYTES } from '../../protocol/ingest-limits';
import {
  deletePendingDocuments,
  listPendingDocuments,
  MAX_KEPT_ORIGINAL_BYTES,
  putPendingDocument,
  type AerieDb,
  type NewOriginal,
  type PendingDocumentRecord,
} from '../../storage';
import { randomId } from './ids';
import { errorMessage } from './messages';
import type { PendingDocument } from './types';
import type { NoticeInput } from './useNotices';

/** Where the app serves the Cinderella sample (public/samples). */
const SAMPLE_PATH = 'samples/cinderella.txt';

interface Entry {
  pending: PendingDocument;
  document?: IngestedDocument;
  /** The file while it is being read (kept in storage so a reload reads it again). */
  file?: Blob & { name: string };
  /** A PDF's file once read, kept to go with its tree (a citation then opens on its page). */
  original?: Blob;
  /** When it was added (the stored order), ms since the epoch. */
  addedAt: number;
}

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

/** The file of a read document to keep with its tree: a PDF with its layout (the build checks its size). */
function keptFile(document: IngestedDocument, file: Blob | undefined): Blob | undefined {
  return document.layout && file ? file : undefined;
}

/** What storage holds for an entry, or undefined when it holds nothing (a failed file, one too big to keep). */
function recordOf(entry: Entry): PendingDocumentRecord | undefined {
  const { pending, document, file, addedAt } = entry;
  const base = { key: pending.key, name: pending.name, type: pending.type, size: pending.size, addedAt };
  if (document) {
    const record: PendingDocumentRecord = {
      ...base,
      type: document.type,
      text: document.text,
      warnings: document.warnings.slice(),
    };
    if (document.pageStarts) record.pageStarts = document.pageStarts.slice();
    if (document.layout) record.layout = document.layout;
    // A file too large to keep with a tree is not kept across a reload either (the build says so).
    if (document.layout && entry.original && entry.original.size <= MAX_KEPT_ORIGINAL_BYTES)
      record.file = entry.original;
    return record;
  }
  if (pending.status === 'reading' && file && file.size > 0 && file.size <= MAX_FILE_BYTES)
    return { ...base, file };
  return undefined;
}

/** What changes the stored record of an entry. */
function signature(entry: Entry): string {
  const record = recordOf(entry);
  return record ? (record.text !== undefined ? 'text' : 'file') : 'none';
}

function entryOf(record: PendingDocumentRecord): Entry {
  const pending: PendingDocument = {
    key: record.key,
    name: record.name,
    type: record.type,
    size: record.size,
    chars: record.text?.length ?? 0,
    status: typeof record.text === 'string' ? 'ready' : 'reading',
    warnings: record.warnings ?? [],
  };
  if (typeof record.text !== 'string') {
    // Stored Files come back as Files; a plain Blob gets its name back.
    const blob = record.file;
    const file = blob instanceof File || !blob ? blob : new File([blob], record.name, { type: blob.type });
    return { pending, file, addedAt: record.addedAt };
  }
  const document: IngestedDocument = {
    name: record.name,
    type: record.type,
    size: record.size,
    text: record.text,
    warnings: record.warnings ?? [],
  };
  if (record.pageStarts) document.pageStarts = record.pageStarts.slice();
  if (record.layout) document.layout = record.layout;
  return { pending, document, addedAt: record.addedAt, original: keptFile(document, record.file) };
}

/** The documents being added, with functions to add and remove them. */
// eslint-disable-next-line max-lines-per-function -- not yet cut along its seams into hooks or components (issue 46; docs/architecture.md lists the long functions)
export function useDocuments(db: AerieDb | undefined, notify: (n: NoticeInput) => void) {
  const [entries, setEntries] = useState<Entry[]>([]);
  const [restored, setRestored] = useState(false);
  const controllers = useRef(new Map<string, AbortController>());
  /** What storage holds for each key, as `signature` says (absent: nothing). */
  const stored = useRef(new Map<string, string>());
  /** Keys being removed: storage is deleting them, so nothing may change (and be written) meanwhile. */
  const removing = useRef(new Set<string>());

  const update = useCallback((key: string, patch: Partial<Entry>) => {
    if (removing.current.has(key)) return;
    setEntries((list) => list.map((e) => (e.pending.key === key ? { ...e, ...patch } : e)));
  }, []);

  const addReady = useCallback((document: IngestedDocument) => {
    const pending: PendingDocument = {
      key: randomId('d'),
      name: document.name,
      type: document.type,
      size: document.size,
      chars: document.text.length,
      status: 'ready',
      warnings: document.warnings,
    };
    setEntries((list) => [...list, { pending, document, addedAt: Date.now() }]);
  }, []);

  const addFailed = useCallback((name: string, error: unknown) => {
    // A file that cannot be read is shown with its reason but not kept: a reload clears it.
    const pending: PendingDocument = {
      key: randomId('d'),
      name,
      type: 'paste',
      size: 0,
      chars: 0,
      status: 'error',
      warnings: [],
      error: errorMessage(error),
    };
    setEntries((list) => [...list, { pending, addedAt: Date.now() }]);
  }, []);

  /** Reads a file in the ingestion worker into the entry `key` (already listed). */
  const read = useCallback(
    (key: string, file: Blob & { name: string }, pending: PendingDocument) => {
      const controller = new AbortController();
      controllers.current.set(key, controller);
      ingestInWorker(file, { signal: controller.signal })
        .then(
          (document) =>
            update(key, {
              document,
              file: undefined,
              original: keptFile(document, file),
              pending: {
                ...pending,
                type: document.type,
                chars: document.text.length,
                status: 'ready',
                warnings: document.warnings,
              },
            }),
          (error: unknown) => {
            if ((error as { name?: string })?.name === 'AbortError') return;
            update(key, {
              file: undefined,
              pending: { ...pending, status: 'error', error: errorMessage(error) },
            });
          },
        )
        .finally(() => controllers.current.delete(key));
    },
    [update],
  );

  const addFiles = useCallback(
    (files: File[]) => {
      for (const file of files) {
        const key = randomId('d');
        const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
        const type = (
          ['md', 'html', 'pdf', 'docx'].includes(extension) ? extension : 'txt'
        ) as PendingDocument['type'];
        const pending: PendingDocument = {
          key,
          name: file.name,
          type,
          size: file.size,
          chars: 0,
          status: 'reading',
          warnings: [],
        };
        setEntries((list) => [...list, { pending, file, addedAt: Date.now() }]);
        read(key, file, pending);
      }
    },
    [read],
  );

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
  }, [db, notify, read]);

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

  /**
   * Removes a document: out of storage first, then out of the list, so a reload the moment it leaves the list
   * cannot bring it back (an IndexedDB write still in flight when the page unloads is lost).
   */
  const remove = useCallback(
    (key: string) => {
      controllers.current.get(key)?.abort();
      const drop = () => {
        setEntries((list) => list.filter((e) => e.pending.key !== key));
        removing.current.delete(key);
      };
      if (!db || !stored.current.has(key)) return drop();
      // A read finishing now must not write the entry back after the delete below.
      removing.current.add(key);
      deletePendingDocuments(db, [key]).then(
        () => {
          stored.current.delete(key);
          drop();
        },
        (error: unknown) => {
          notify({
            kind: 'warning',
            key: 'pending-storage',
            title: 'A removed document could not be removed from storage',
            body: `${errorMessage(error)} It may come back after a reload; remove it again then.`,
          });
          drop();
        },
      );
    },
    [db, notify],
  );

  /**
   * Takes documents out of the list because a recorded build now holds them: storage moved them already, in
   * the transaction that recorded the build.
   */
  const take = useCallback((keys: readonly string[]) => {
    for (const key of keys) {
      controllers.current.get(key)?.abort();
      stored.current.delete(key);
    }
    const gone = new Set(keys);
    setEntries((list) => list.filter((e) => !gone.has(e.pending.key)));
  }, []);

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
    addFiles,
    addPaste,
    addSample,
    remove,
    take,
  };
}

/**
 * Reads the documents being added in the ingestion worker, one AbortController a file, so removing a document
 * (or a build taking it) stops its read.
 */
import { useCallback, useRef } from 'react';
import { ingestInWorker } from '../../ingest';
import { errorMessage } from './messages';
import { readEntry, type Entry } from './pending-entries';
import type { PendingDocument } from './types';

/** What the reader does to the list: patches the entry `key` (nothing once it is being removed). */
export type EntryUpdate = (key: string, patch: Partial<Entry>) => void;

/** The reader: `read` a file into its (already listed) entry, `abort` a read under way. */
export function useDocumentReader(update: EntryUpdate) {
  const controllers = useRef(new Map<string, AbortController>());

  /** Reads a file in the ingestion worker into the entry `key` (already listed). */
  const read = useCallback(
    (key: string, file: Blob & { name: string }, pending: PendingDocument) => {
      const controller = new AbortController();
      controllers.current.set(key, controller);
      ingestInWorker(file, { signal: controller.signal })
        .then(
          (document) => update(key, readEntry(pending, document, file)),
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

  /** Stops the read of the entry `key`, if one is under way. */
  const abort = useCallback((key: string) => controllers.current.get(key)?.abort(), []);

  return { read, abort };
}

/**
 * The documents the user is adding: each file is read in a worker (nothing blocks the page); a bad file gets a
 * clear message and leaves the others alone.
 */
import { useCallback, useRef, useState } from 'react';
import { ingestInWorker, ingestText, type IngestedDocument } from '../../ingest';
import { randomId } from './ids';
import { errorMessage } from './messages';
import type { PendingDocument } from './types';

/** Where the app serves the Cinderella sample (public/samples). */
const SAMPLE_PATH = 'samples/cinderella.txt';

interface Entry {
  pending: PendingDocument;
  document?: IngestedDocument;
}

/** The documents being added, with functions to add and remove them. */
export function useDocuments() {
  const [entries, setEntries] = useState<Entry[]>([]);
  const controllers = useRef(new Map<string, AbortController>());

  const update = useCallback((key: string, patch: Partial<Entry>) => {
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
    setEntries((list) => [...list, { pending, document }]);
  }, []);

  const addFailed = useCallback((name: string, error: unknown) => {
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
    setEntries((list) => [...list, { pending }]);
  }, []);

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
        setEntries((list) => [...list, { pending }]);
        const controller = new AbortController();
        controllers.current.set(key, controller);
        ingestInWorker(file, { signal: controller.signal })
          .then(
            (document) =>
              update(key, {
                document,
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
              update(key, { pending: { ...pending, status: 'error', error: errorMessage(error) } });
            },
          )
          .finally(() => controllers.current.delete(key));
      }
    },
    [update],
  );

  const addPaste = useCallback(
    (text: string, name: string) => {
      try {
        addReady(ingestText(text, name.trim() || undefined));
      } catch (error) {
        addFailed(name.trim() || 'Pasted text', error);
      }
    },
    [addReady, addFailed],
  );

  const addSample = useCallback(async () => {
    try {
      const response = await fetch(import.meta.env.BASE_URL + SAMPLE_PATH);
      if (!response.ok) throw new Error(`The sample could not be loaded (HTTP ${response.status}).`);
      const document = ingestText(await response.text(), 'cinderella.txt');
      addReady({ ...document, type: 'txt' });
    } catch (error) {
      addFailed('cinderella.txt', error);
    }
  }, [addReady, addFailed]);

  const remove = useCallback((key: string) => {
    controllers.current.get(key)?.abort();
    setEntries((list) => list.filter((e) => e.pending.key !== key));
  }, []);

  const clear = useCallback(() => {
    for (const c of controllers.current.values()) c.abort();
    setEntries([]);
  }, []);

  return {
    pending: entries.map((e) => e.pending),
    ready: entries.filter((e) => e.document).map((e) => e.document as IngestedDocument),
    reading: entries.some((e) => e.pending.status === 'reading'),
    addFiles,
    addPaste,
    addSample,
    remove,
    clear,
  };
}

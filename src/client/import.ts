/**
 * The page's way to import a tree file: in a worker of its own (workers/import.worker.ts), started for the
 * import and ended when it answers, so the page stays responsive however large the file. The page imports only
 * the worker's API type.
 */
import '../rpc/errors';
import { proxy, wrap } from 'comlink';
import { ingestInWorker } from '../ingest';
import type { ImportApi, ImportOutcome } from '../storage';
import { StorageError } from '../storage';
import { startImportWorker } from '../spawn/import';

/**
 * Reads a PDF a tree file carries the way a dropped PDF is read (an ingestion worker, PDF.js), for the import to
 * check that it is the document's.
 * @throws IngestError when the bytes are not a PDF it can read.
 */
export async function readCarriedPdf(bytes: Uint8Array, name: string) {
  const doc = await ingestInWorker(
    new File([bytes as Uint8Array<ArrayBuffer>], name, { type: 'application/pdf' }),
  );
  if (doc.type !== 'pdf' || !doc.layout) throw new Error(`it was read as ${doc.type}, not as a PDF`);
  return { text: doc.text, pageStarts: doc.pageStarts ?? [], layout: doc.layout };
}

/**
 * Imports `file` in the import worker.
 * @returns the new tree's id, and a sentence for each carried document it left out.
 * @throws what `importTree` throws (codes kept across the worker boundary), or StorageError IO_ERROR when the
 *   worker cannot start or dies.
 */
export async function importInWorker(file: File): Promise<ImportOutcome> {
  const worker = startImportWorker();
  try {
    return await new Promise<ImportOutcome>((resolve, reject) => {
      worker.addEventListener('error', (event) =>
        reject(
          new StorageError(
            'IO_ERROR',
            `The tree file could not be imported: ${event.message || 'the import stopped'}. Reload the page and ` +
              'try again.',
            { name: file.name },
          ),
        ),
      );
      wrap<ImportApi>(worker).importFile(file, proxy(readCarriedPdf)).then(resolve, reject);
    });
  } finally {
    worker.terminate();
  }
}

/**
 * Imports tree files in a worker of their own (workers/import.worker.ts), so reading, parsing and validating a
 * large file never freezes the page: a 100,000-node file is 73 MB of JSON, whose parse and check held the main
 * thread for seconds. The worker opens the database itself (storage runs in workers) and hands back the new
 * tree's id and what it left out; the page's client ends the worker once it has answered. A PDF the file
 * carries is read by the caller's `readPdf` (the page reads it in an ingestion worker, which has PDF.js: this
 * worker does not carry a second copy of it) to check it is the document's (transfer-originals.ts).
 */
import { openAerieDb } from './db';
import type { AerieDb } from './schema';
import { checkImportSize, importTree } from './transfer';
import type { PdfReader } from './transfer-originals';

/** Dependencies, injectable for tests. */
export interface ImportServiceDeps {
  openDb?: () => Promise<AerieDb>;
}

/** What an import did. */
export interface ImportOutcome {
  /** The new tree's id. */
  id: string;
  /** A sentence for each carried document left out (wholly or its PDF), and why. */
  notes: string[];
}

/** Makes the service a worker exposes. */
export function createImportService(deps: ImportServiceDeps = {}) {
  return {
    /**
     * Reads a tree file, validates all of it and stores it in one transaction (see `importTree`).
     * @param readPdf reads a carried PDF's text and layout; without it no carried PDF is kept.
     * @throws StorageError TOO_LARGE (checked from the size before reading), INVALID_IMPORT, QUOTA_EXCEEDED, ….
     */
    async importFile(file: Blob, readPdf?: PdfReader): Promise<ImportOutcome> {
      checkImportSize(file.size);
      const db = await (deps.openDb ?? (() => openAerieDb()))();
      const notes: string[] = [];
      try {
        const id = await importTree(db, await file.text(), {
          ...(readPdf ? { readPdf } : {}),
          onRefused: (sentence) => notes.push(sentence),
        });
        return { id, notes };
      } finally {
        if (!deps.openDb) db.close();
      }
    },
  };
}

/** The API type, derived from the implementation. */
export type ImportApi = ReturnType<typeof createImportService>;

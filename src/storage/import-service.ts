/**
 * Imports tree files in a worker of their own (workers/import.worker.ts), so reading, parsing and validating a
 * large file never freezes the page: a 100,000-node file is 73 MB of JSON, whose parse and check held the main
 * thread for seconds. The worker opens the database itself (storage runs in workers) and hands back the new
 * tree's id and what it left out; the page's client ends the worker once it has answered. A PDF the file
 * carries is read here with PDF.js (loaded only then) to check it is the document's (transfer-originals.ts).
 */
import { MAX_TEXT_CHARS } from '../ingest/limits';
import { extractPdfText, type PdfRuntime } from '../ingest/pdf';
import { openAerieDb } from './db';
import type { AerieDb } from './schema';
import { checkImportSize, importTree } from './transfer';
import type { PdfReader } from './transfer-originals';

/** Dependencies, injectable for tests. */
export interface ImportServiceDeps {
  openDb?: () => Promise<AerieDb>;
  /** Loads PDF.js to check the PDFs a tree file carries. Without it, none is kept. */
  loadPdf?: () => Promise<PdfRuntime>;
}

/** What an import did. */
export interface ImportOutcome {
  /** The new tree's id. */
  id: string;
  /** A sentence for each carried document left out (wholly or its PDF), and why. */
  notes: string[];
}

/** A `PdfReader` over PDF.js as `loadPdf` gives it (loaded at the first PDF). */
export function pdfReader(loadPdf: () => Promise<PdfRuntime>): PdfReader {
  let runtime: Promise<PdfRuntime> | undefined;
  return async (bytes, name) => {
    runtime ??= loadPdf();
    const read = await extractPdfText(bytes, await runtime, { name, maxChars: MAX_TEXT_CHARS });
    return { text: read.text, pageStarts: read.pageStarts, layout: read.layout };
  };
}

/** Makes the service a worker exposes. */
export function createImportService(deps: ImportServiceDeps = {}) {
  return {
    /**
     * Reads a tree file, validates all of it and stores it in one transaction (see `importTree`).
     * @throws StorageError TOO_LARGE (checked from the size before reading), INVALID_IMPORT, QUOTA_EXCEEDED, ….
     */
    async importFile(file: Blob): Promise<ImportOutcome> {
      checkImportSize(file.size);
      const db = await (deps.openDb ?? (() => openAerieDb()))();
      const notes: string[] = [];
      try {
        const id = await importTree(db, await file.text(), {
          ...(deps.loadPdf ? { readPdf: pdfReader(deps.loadPdf) } : {}),
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

/**
 * Imports tree files in a worker of their own (workers/import.worker.ts), so reading, parsing and validating a
 * large file never freezes the page: a 100,000-node file is 73 MB of JSON, whose parse and check held the main
 * thread for seconds. The worker opens the database itself (storage runs in workers) and hands back only the
 * new tree's id; the page's client ends the worker once it has answered.
 */
import { openAerieDb } from './db';
import type { AerieDb } from './schema';
import { checkImportSize, importTree } from './transfer';

/** Dependencies, injectable for tests. */
export interface ImportServiceDeps {
  openDb?: () => Promise<AerieDb>;
}

/** Makes the service a worker exposes. */
export function createImportService(deps: ImportServiceDeps = {}) {
  return {
    /**
     * Reads a tree file, validates all of it and stores it in one transaction (see `importTree`).
     * @returns the id of the new tree.
     * @throws StorageError TOO_LARGE (checked from the size before reading), INVALID_IMPORT, QUOTA_EXCEEDED, ….
     */
    async importFile(file: Blob): Promise<string> {
      checkImportSize(file.size);
      const db = await (deps.openDb ?? (() => openAerieDb()))();
      try {
        return await importTree(db, await file.text());
      } finally {
        if (!deps.openDb) db.close();
      }
    },
  };
}

/** The API type, derived from the implementation. */
export type ImportApi = ReturnType<typeof createImportService>;

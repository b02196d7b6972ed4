/**
 * Starts a worker that reads one imported tree file (workers/import.worker.ts). Workers start only here, one file
 * each (docs/architecture.md, "Workers").
 */
export function startImportWorker(): Worker {
  return new Worker(new URL('../../workers/import.worker.ts', import.meta.url), {
    type: 'module',
    name: 'aerie-import',
  });
}

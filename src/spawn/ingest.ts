/**
 * Starts the ingestion worker (workers/ingest.worker.ts). Workers start only here, one file each
 * (docs/architecture.md, "Workers").
 */
export function startIngestWorker(): Worker {
  return new Worker(new URL('../../workers/ingest.worker.ts', import.meta.url), {
    type: 'module',
    name: 'aerie-ingest',
  });
}

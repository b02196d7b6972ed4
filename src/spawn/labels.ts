/**
 * Starts a worker that labels a tree's nodes (workers/labels.worker.ts). Workers start only here, one file each
 * (docs/architecture.md, "Workers").
 */
export function startLabelsWorker(): Worker {
  return new Worker(new URL('../../workers/labels.worker.ts', import.meta.url), {
    type: 'module',
    name: 'aerie-labels',
  });
}

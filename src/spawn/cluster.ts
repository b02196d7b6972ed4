/**
 * Starts a clustering worker (workers/cluster.worker.ts), started by the build worker. Workers start only here,
 * one file each (docs/architecture.md, "Workers").
 */
export function startClusterWorker(): Worker {
  return new Worker(new URL('../../workers/cluster.worker.ts', import.meta.url), {
    type: 'module',
    name: 'aerie-cluster',
  });
}

/**
 * Starts the build worker (workers/build.worker.ts). Workers start only here, one file each (docs/architecture.md,
 * "Workers").
 */
export function startBuildWorker(): Worker {
  return new Worker(new URL('../../workers/build.worker.ts', import.meta.url), {
    type: 'module',
    name: 'aerie-build',
  });
}

/**
 * Starts the generate worker (workers/generate.worker.ts): the built-in language model. Workers start only here,
 * one file each (docs/architecture.md, "Workers").
 */
export function startGenerateWorker(): Worker {
  return new Worker(new URL('../../workers/generate.worker.ts', import.meta.url), {
    type: 'module',
    name: 'aerie-generate',
  });
}

/**
 * Starts embedding helper worker number `n` (workers/embed-helper.worker.ts), started by the embedding worker.
 * Workers start only here, one file each (docs/architecture.md, "Workers").
 */
export function startEmbedHelperWorker(n: number): Worker {
  return new Worker(new URL('../../workers/embed-helper.worker.ts', import.meta.url), {
    type: 'module',
    name: `aerie-embed-helper-${n}`,
  });
}

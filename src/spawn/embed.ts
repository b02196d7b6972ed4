/**
 * Starts the embedding worker (workers/embed.worker.ts): one loaded model, shared by the page and the build
 * worker. Workers start only here, one file each (docs/architecture.md, "Workers").
 */
export function startEmbedWorker(): Worker {
  return new Worker(new URL('../../workers/embed.worker.ts', import.meta.url), {
    type: 'module',
    name: 'aerie-embed',
  });
}

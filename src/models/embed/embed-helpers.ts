/**
 * The embedding worker's helpers: more embedding workers (workers/embed-helper.worker.ts, started from inside
 * the embedding worker) that load the same model and embed some of each call's batches (embed-pool.ts). Only
 * on the CPU: see `embedWorkerPlan` for how many and with how many threads.
 */
import { wrap, type Remote } from 'comlink';
import { createEmbedService, type EmbedApi, type EmbedHelper } from './embed-service';
import type { RuntimeConfig } from '../device';
import { startEmbedHelperWorker } from '../../spawn/embed-helper';

/** A helper whose calls fail (instead of waiting forever) once its worker reports an uncaught error. */
function helperOf(worker: Worker): EmbedHelper {
  const api: Remote<EmbedApi> = wrap<EmbedApi>(worker);
  const dead = new Promise<never>((_, reject) =>
    worker.addEventListener('error', (event) => {
      reject(new Error(`An embedding helper stopped: ${event.message || 'worker error'}`));
      worker.terminate();
    }),
  );
  dead.catch(() => undefined);
  return {
    load: (choice) => Promise.race([api.load(choice), dead]),
    embed: (texts, choice, options) => Promise.race([api.embed(texts, choice, options), dead]),
    forget: () => Promise.race([api.forget(), dead]),
  };
}

/** Starts `count` helper workers. */
export function startEmbedHelpers(count: number): EmbedHelper[] {
  return Array.from({ length: count }, (_, i) => helperOf(startEmbedHelperWorker(i + 1)));
}

/**
 * A helper worker's service: an embedding service whose `embed` calls run one after another. Batches arrive
 * ahead of time (embed-pool.ts hands a helper HELPER_DEPTH at once); two must never run on one model at once.
 */
export function createHelperService(runtime: RuntimeConfig) {
  const service = createEmbedService(runtime);
  let last: Promise<unknown> = Promise.resolve();
  return {
    ...service,
    embed(...args: Parameters<typeof service.embed>): ReturnType<typeof service.embed> {
      const run = last.then(() => service.embed(...args));
      last = run.catch(() => undefined);
      return run;
    },
  };
}

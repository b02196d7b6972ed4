/**
 * The browser's pool for local clusterings and the parts of a global BIC sweep and k-NN scan: one Web Worker (workers/cluster.worker.ts) per core
 * (`navigator.hardwareConcurrency`), started by the build worker when a layer first needs them and terminated
 * when the build ends. A task's vectors move to the worker (transferred, not copied).
 */
import { releaseProxy, transfer, wrap } from 'comlink';
import '../rpc/errors';
import { createClusterPool, type ClosableClusterPool, type ClusterWorker } from '../core/cluster';
import type { ClusterWorkerApi } from './cluster-service';
import { startClusterWorker } from '../spawn/cluster';

function startWorker(): ClusterWorker {
  const worker = startClusterWorker();
  const api = wrap<ClusterWorkerApi>(worker);
  // A worker that dies (out of memory, a script that failed to load) fails its task instead of hanging it.
  const died = new Promise<never>((_, reject) =>
    worker.addEventListener('error', (event) =>
      reject(new Error(`A clustering worker failed: ${event.message || 'unknown error'}`)),
    ),
  );
  died.catch(() => undefined);
  return {
    run: (task) => Promise.race([api.run(transfer(task, [task.unit.buffer])), died]),
    // Every part of a sweep gets the same points: copied, not transferred.
    sweep: (task) => Promise.race([api.sweep(task), died]),
    // Likewise every block of k-NN rows gets all the vectors; its rows come back transferred.
    knn: (task) => Promise.race([api.knn(task), died]),
    terminate() {
      api[releaseProxy]();
      worker.terminate();
    },
  };
}

/** A pool with a worker per core (at least one). */
export function browserClusterPool(): ClosableClusterPool {
  const cores = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator
    ?.hardwareConcurrency;
  return createClusterPool(Math.max(1, cores ?? 1), startWorker);
}

/**
 * A pool of workers for the local clusterings of `clusterNodesAsync` (see `ClusterPool`). The workers are
 * injected — Web Workers in the browser (src/pipeline/cluster-workers.ts), anything that runs
 * `runLocalClusterTask` in tests — so this stays free of DOM and worker APIs. Each worker runs one task at a
 * time; workers start on first use and stay until `close`.
 */
import type { ClusterPool, LocalClusterResult, LocalClusterTask } from './cluster';
import type { KnnRowsResult, KnnRowsTask } from './knn';
import type { SweepResult, SweepTask } from './select-k';

/** One worker as the pool sees it. */
export interface ClusterWorker {
  run(task: LocalClusterTask): Promise<LocalClusterResult>;
  /** Runs one part of a BIC sweep (`runSweepTask`); a worker without it can run local clusterings only. */
  sweep?(task: SweepTask): Promise<SweepResult>;
  /** Computes rows of an exact k-NN graph (`runKnnRowsTask`); a worker without it cannot. */
  knn?(task: KnnRowsTask): Promise<KnnRowsResult>;
  terminate(): void;
}

/** A pool that can be closed (its workers terminated). */
export interface ClosableClusterPool extends ClusterPool {
  /** Terminates every worker; tasks still queued reject. The pool can be used again (new workers start). */
  close(): void;
}

/**
 * Makes a pool of `size` workers started by `start` (at most `size` are ever alive).
 * @param size workers, an integer ≥ 1 (e.g. `navigator.hardwareConcurrency`).
 */
export function createClusterPool(size: number, start: () => ClusterWorker): ClosableClusterPool {
  const count = Math.max(1, Math.floor(size) || 1);
  const idle: ClusterWorker[] = [];
  const all: ClusterWorker[] = [];
  const waiting: ((worker: ClusterWorker) => void)[] = [];

  function acquire(): Promise<ClusterWorker> {
    const worker = idle.pop();
    if (worker) return Promise.resolve(worker);
    if (all.length < count) {
      const started = start();
      all.push(started);
      return Promise.resolve(started);
    }
    return new Promise((resolve) => waiting.push(resolve));
  }

  function release(worker: ClusterWorker): void {
    if (!all.includes(worker)) return;
    const next = waiting.shift();
    if (next) next(worker);
    else idle.push(worker);
  }

  /** Runs `job` on a free worker (waiting for one if all are busy), then frees it. */
  async function onWorker<T>(job: (worker: ClusterWorker) => Promise<T>): Promise<T> {
    const worker = await acquire();
    try {
      return await job(worker);
    } finally {
      release(worker);
    }
  }

  return {
    size: count,
    run: (task) => onWorker((worker) => worker.run(task)),
    sweep: (task) =>
      onWorker(async (worker) => {
        if (!worker.sweep) throw new TypeError('This clustering worker cannot run a BIC sweep.');
        return worker.sweep(task);
      }),
    knn: (task) =>
      onWorker(async (worker) => {
        if (!worker.knn) throw new TypeError('This clustering worker cannot compute k-NN rows.');
        return worker.knn(task);
      }),
    close() {
      for (const worker of all.splice(0)) worker.terminate();
      idle.length = 0;
    },
  };
}

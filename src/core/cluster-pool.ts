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

  return {
    size: count,
    async run(task) {
      const worker = await acquire();
      try {
        return await worker.run(task);
      } finally {
        release(worker);
      }
    },
    async sweep(task) {
      const worker = await acquire();
      try {
        if (!worker.sweep) throw new TypeError('This clustering worker cannot run a BIC sweep.');
        return await worker.sweep(task);
      } finally {
        release(worker);
      }
    },
    async knn(task) {
      const worker = await acquire();
      try {
        if (!worker.knn) throw new TypeError('This clustering worker cannot compute k-NN rows.');
        return await worker.knn(task);
      } finally {
        release(worker);
      }
    },
    close() {
      for (const worker of all.splice(0)) worker.terminate();
      idle.length = 0;
    },
  };
}

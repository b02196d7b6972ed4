/**
 * What the cluster workers do for the build's cluster pool (src/pipeline/cluster-workers.ts): a local
 * mixture of one cluster, a sweep of cluster counts, or rows of the k-NN graph. workers/cluster.worker.ts
 * exposes it; its type is the pool's view of a worker.
 */
import { transfer } from 'comlink';
import { runKnnRowsTask, runLocalClusterTask, runSweepTask } from '../core/cluster';

/** The cluster worker's service (the k-NN rows' buffers are transferred, not copied). */
export const clusterService = {
  run: runLocalClusterTask,
  sweep: (task: Parameters<typeof runSweepTask>[0]) => runSweepTask(task),
  knn: (task: Parameters<typeof runKnnRowsTask>[0]) => {
    const rows = runKnnRowsTask(task);
    return transfer(rows, [rows.indices.buffer, rows.distances.buffer]);
  },
};
/** The cluster worker's API as the page's pool sees it. */
export type ClusterWorkerApi = typeof clusterService;

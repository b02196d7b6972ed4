/**
 * What the cluster workers do for the build's cluster pool (src/pipeline/cluster-workers.ts): a local
 * mixture of one cluster, a sweep of cluster counts, rows of the k-NN graph, or the far side of a split
 * layout. workers/cluster.worker.ts
 * exposes it; its type is the pool's view of a worker.
 */
import { transfer } from 'comlink';
import {
  runKnnRowsTask,
  runLocalClusterTask,
  runSweepTask,
  startFarLayout,
  type FarLayout,
  type FarLayoutSetup,
} from '../core/cluster';

/** The far side of a split layout this worker runs (one at a time: the pool holds the worker for it). */
let far: FarLayout | undefined;

/** The cluster worker's service (the k-NN rows' buffers are transferred, not copied). */
export const clusterService = {
  run: runLocalClusterTask,
  sweep: (task: Parameters<typeof runSweepTask>[0]) => runSweepTask(task),
  knn: (task: Parameters<typeof runKnnRowsTask>[0]) => {
    const rows = runKnnRowsTask(task);
    return transfer(rows, [rows.indices.buffer, rows.distances.buffer]);
  },
  layoutStart: (setup: FarLayoutSetup) => {
    far?.close();
    far = startFarLayout(setup);
  },
  layoutRound: (y: Float64Array, firstEpoch: number, alphas: Float64Array) => {
    if (!far) throw new Error('No layout was started on this clustering worker.');
    const out = far.round(y, firstEpoch, alphas) as Float64Array;
    return transfer(out, [out.buffer]);
  },
  layoutEnd: () => {
    far?.close();
    far = undefined;
  },
};
/** The cluster worker's API as the page's pool sees it. */
export type ClusterWorkerApi = typeof clusterService;

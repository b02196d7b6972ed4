import '../src/rpc/errors';
import { expose, transfer } from 'comlink';
import { runLocalClusterTask } from '../src/core/cluster';
import { runKnnRowsTask } from '../src/core/cluster/knn';
import { runSweepTask } from '../src/core/cluster';

const api = {
  run: runLocalClusterTask,
  sweep: (task: Parameters<typeof runSweepTask>[0]) => runSweepTask(task),
  knn: (task: Parameters<typeof runKnnRowsTask>[0]) => {
    const rows = runKnnRowsTask(task);
    return transfer(rows, [rows.indices.buffer, rows.distances.buffer]);
  },
};
export type ClusterWorkerApi = typeof api;
expose(api);

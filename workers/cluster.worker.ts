import '../src/rpc/errors';
import { expose } from 'comlink';
import { runLocalClusterTask } from '../src/core/cluster';
import { runSweepTask } from '../src/core/select-k';

const api = {
  run: runLocalClusterTask,
  sweep: (task: Parameters<typeof runSweepTask>[0]) => runSweepTask(task),
};
export type ClusterWorkerApi = typeof api;
expose(api);

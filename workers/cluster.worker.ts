import '../src/rpc/errors';
import { expose } from 'comlink';
import { runLocalClusterTask } from '../src/core/cluster';

const api = { run: runLocalClusterTask };
export type ClusterWorkerApi = typeof api;
expose(api);

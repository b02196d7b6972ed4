import '../src/rpc/errors';
import { expose } from 'comlink';
import { createBuildService } from '../src/pipeline/build-service';
import { browserClusterPool } from '../src/pipeline/cluster-workers';

expose(createBuildService({ clusterPool: browserClusterPool }));

import '../src/rpc/errors';
import { expose } from 'comlink';
import { clusterService } from '../src/pipeline/cluster-service';

expose(clusterService);

import '../src/rpc/errors';
import { expose } from 'comlink';
import { createBuildService } from '../src/pipeline/build-service';

expose(createBuildService());

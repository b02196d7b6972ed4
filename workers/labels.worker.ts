import '../src/rpc/errors';
import { expose } from 'comlink';
import { labelsService } from '../src/pipeline/labels-service';

expose(labelsService);

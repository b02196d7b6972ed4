import '../src/rpc/errors';
import { expose } from 'comlink';
import { browserRuntime } from '../src/models/device';
import { createGenerateService } from '../src/models/generate';

expose(createGenerateService(browserRuntime(import.meta.env.BASE_URL)));

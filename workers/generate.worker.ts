import '../src/rpc/errors';
import { expose } from 'comlink';
import { browserRuntime } from '../src/models/browser-runtime';
import { createGenerateService } from '../src/models/generate-service';

expose(createGenerateService(browserRuntime(import.meta.env.BASE_URL)));

import '../src/rpc/errors';
import { expose } from 'comlink';
import { browserRuntime } from '../src/models/browser-runtime';
import { createEmbedService } from '../src/models/embed-service';

expose(createEmbedService(browserRuntime(import.meta.env.BASE_URL)));

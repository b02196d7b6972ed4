import '../src/rpc/errors';
import { expose } from 'comlink';
import { browserRuntime } from '../src/models/browser-runtime';
import { createEmbedService } from '../src/models/embed-service';
import { probeWebGpu } from '../src/models/webgpu';

// ONNX Runtime's asyncify build only where WebGPU can be used; the faster CPU-only build everywhere else.
expose(
  createEmbedService(async () =>
    browserRuntime(import.meta.env.BASE_URL, { webgpu: (await probeWebGpu()).adapter }),
  ),
);

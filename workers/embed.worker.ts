import '../src/rpc/errors';
import { expose } from 'comlink';
import { browserRuntime, probeWebGpu } from '../src/models/device';
import { embedWorkerPlan, startEmbedHelpers, createEmbedService } from '../src/models/embed';

const plan = embedWorkerPlan(navigator.hardwareConcurrency, self.crossOriginIsolated);
let webgpu = false;
// ONNX Runtime's asyncify build only where WebGPU can be used; the faster CPU-only build everywhere else, with
// the cores shared between this worker and its helpers (embed-pool.ts).
expose(
  createEmbedService(
    async () => {
      webgpu = (await probeWebGpu()).adapter;
      const runtime = browserRuntime(import.meta.env.BASE_URL, { webgpu });
      return webgpu ? runtime : { ...runtime, numThreads: plan.threads };
    },
    true,
    () => (webgpu ? [] : startEmbedHelpers(plan.workers - 1)),
  ),
);

import '../src/rpc/errors';
import { expose } from 'comlink';
import { browserRuntime } from '../src/models/device';
import { createHelperService, embedWorkerPlan } from '../src/models/embed';

// Started by the embedding worker only where no WebGPU adapter exists: the CPU-only ORT build, this worker's
// share of the cores as threads.
const { threads } = embedWorkerPlan(navigator.hardwareConcurrency, self.crossOriginIsolated);
expose(
  createHelperService({
    ...browserRuntime(import.meta.env.BASE_URL, { webgpu: false }),
    numThreads: threads,
  }),
);

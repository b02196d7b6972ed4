/// <reference types="vite/client" />
/**
 * Bench-only generation worker: the app's generate service (src/models/generate/generate-service.ts, the object
 * workers/generate.worker.ts exposes) with the app's browser runtime, except that models come from the bench
 * server's cache folder, the thread count is the benchmark's, WebGPU is not probed unless the configuration
 * asks for it (`webgpu`: the bench's WebGPU rows) and Cache Storage is off (loading is not timed, and an incognito context cannot store a 600 MB file anyway).
 */
import { expose } from 'comlink';
import * as ort from 'onnxruntime-web/webgpu';
import type { ChatMessage } from '../../src/core/chat';
import { browserRuntime, probeWebGpu } from '../../src/models/device';
import { createGenerateService, type GenerateApi } from '../../src/models/generate';
import type { GeneratorChoice, GenerationResult, GeneratorInfo } from '../../src/models/generate';
import type { GpuSupport } from '../../src/models/device';

/** What the worker says when WebGPU is not probed. */
const NO_GPU: GpuSupport = { adapter: false, f16: false, fallback: false, name: '' };

/** How the bench configures the worker; set once, before the model loads. */
export interface LlmBenchWorkerConfig {
  /** URL path of the folder holding the bench model folders. */
  modelsPath: string;
  /** WASM threads. Default: the app's choice (every core when cross-origin isolated). */
  threads?: number;
  /** Most summaries written together (RuntimeConfig.generationBatchSize). Default: the app's. */
  batchSize?: number;
  /** ONNX Runtime Web's build: asyncify (WebGPU-capable) or the plain CPU-only one. Default: the app's. */
  ortBuild?: 'asyncify' | 'plain';
  /** Probe WebGPU as the app does (and take the asyncify build it needs): the WebGPU rows. Default off. */
  webgpu?: boolean;
}

/** What the worker reports after loading. */
export interface LlmBenchLoad {
  info: GeneratorInfo;
  crossOriginIsolated: boolean;
  /** `env.wasm.numThreads` as ORT-web sees it after the session was made. */
  ortThreads: number;
  /** The WebGPU adapter the worker found (none when it did not probe: `LlmBenchWorkerConfig.webgpu`). */
  gpu: GpuSupport;
}

let gpu: Promise<GpuSupport> = Promise.resolve(NO_GPU);

let service: GenerateApi | undefined;

function need(): GenerateApi {
  if (!service) throw new Error('open() the bench worker first');
  return service;
}

const api = {
  /** Creates the generate service with the app's browser runtime adjusted for the bench. */
  open(config: LlmBenchWorkerConfig): void {
    const app = browserRuntime(
      import.meta.env.BASE_URL,
      config.ortBuild ? { webgpu: config.ortBuild === 'asyncify' } : {},
    );
    if (config.webgpu) gpu = probeWebGpu();
    service = createGenerateService(
      {
        ...app,
        localModelPath: config.modelsPath,
        numThreads: config.threads ?? app.numThreads,
        useBrowserCache: false,
        ...(config.batchSize ? { generationBatchSize: config.batchSize } : {}),
      },
      { probeGpu: () => gpu },
    );
  },

  /** Loads the model (not timed by the bench). */
  async load(choice: GeneratorChoice): Promise<LlmBenchLoad> {
    const info = await need().load(choice);
    return {
      info,
      crossOriginIsolated: self.crossOriginIsolated,
      ortThreads: Number(ort.env.wasm.numThreads),
      gpu: await gpu,
    };
  },

  /**
   * One generation through the app's service, exactly as the page's answers (`batch` unset) and the build's
   * summaries (`batch`: written together with the other summaries waiting) make it.
   */
  generate(
    messages: ChatMessage[],
    choice: GeneratorChoice,
    maxNewTokens: number,
    batch = false,
  ): Promise<GenerationResult> {
    return need().generate(messages, choice, { maxNewTokens, batch });
  },
};

/** The bench worker's API, as the page sees it through comlink. */
export type LlmBenchWorkerApi = typeof api;

expose(api);

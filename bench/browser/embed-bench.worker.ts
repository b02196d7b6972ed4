/// <reference types="vite/client" />
/**
 * Bench-only embedding worker: the app's embedding service (src/models/embed/embed-service.ts, the object
 * workers/embed.worker.ts exposes) with the app's browser runtime, except that models come from the bench
 * server's cache folder, the thread count is the benchmark's, and Cache Storage is off (loading is not timed,
 * and an incognito context cannot store a 90 MB file anyway).
 *
 * Experiments (bench/browser/embed-sweep.ts) may also replace ORT-web's WASM files or add session options; the
 * benchmark's own configurations use neither, so the timed path is the app's (plus a wrapper that times
 * `session.run`).
 */
import { expose, transfer } from 'comlink';
import * as ort from 'onnxruntime-web/webgpu';
import { browserRuntime, probeWebGpu } from '../../src/models/device';
import type { EmbeddingBatch } from '../../src/models/embed';
import { createEmbedService, type EmbedApi, type ModelChoice } from '../../src/models/embed';
import type { GpuSupport, DeviceFallback, ModelPlacement } from '../../src/models/device';

/** How the bench configures one worker; set once, before the model loads. */
export interface BenchWorkerConfig {
  /** URL path of the folder holding the bench model folders. */
  modelsPath: string;
  /** WASM threads (`env.backends.onnx.wasm.numThreads`). Default: the app's choice (browserRuntime). */
  threads?: number;
  /** Other ORT-web WASM files (experiment): URLs of the `.mjs` and `.wasm`. */
  wasmFiles?: { mjs: string; wasm: string };
  /** ORT session options merged into every session transformers.js creates (experiment). */
  sessionOptions?: Record<string, unknown>;
}

/** What the worker reports about its environment. */
export interface BenchWorkerInfo {
  crossOriginIsolated: boolean;
  hardwareConcurrency: number;
  /** `env.wasm.numThreads` as ORT-web sees it after the first session (it falls back to 1 without isolation). */
  ortThreads: number;
  /** The WebGPU adapter this worker is offered (none in the bench's WASM browser, started with --disable-gpu). */
  gpu: GpuSupport;
  /** Where the model loaded, as the app says it (WebGPU with its adapter, or WASM). */
  placement: ModelPlacement;
  /** Why it loaded on the CPU although WebGPU was asked for. */
  fallback?: DeviceFallback;
}

/** One embed call's result and the time of each of its batches. */
export interface BenchEmbedResult {
  batch: EmbeddingBatch;
  batchMs: number[];
  /** Milliseconds spent inside ONNX Runtime's `session.run` (the rest is transformers.js and the service). */
  runMs: number;
}

type RunFn = (...args: unknown[]) => Promise<unknown>;
let runMs = 0;
// The factory type hides the class behind it; its prototype is where transformers.js's sessions get `run`.
const prototype = (ort.InferenceSession as unknown as { prototype: { run: RunFn } }).prototype;
const ortRun = prototype.run;
// Only measures: every session.run still goes to ONNX Runtime unchanged.
prototype.run = async function (this: unknown, ...args: unknown[]) {
  const start = performance.now();
  try {
    return await ortRun.apply(this, args);
  } finally {
    runMs += performance.now() - start;
  }
};

let service: EmbedApi | undefined;

function need(): EmbedApi {
  if (!service) throw new Error('open() the bench worker first');
  return service;
}

function patchSessionOptions(extra: Record<string, unknown>): void {
  const create = ort.InferenceSession.create.bind(ort.InferenceSession) as (...args: unknown[]) => unknown;
  (ort.InferenceSession as unknown as { create: (...args: unknown[]) => unknown }).create = (
    ...args: unknown[]
  ) => {
    const last = args.length - 1;
    const options = typeof args[last] === 'object' && args[last] !== null && !ArrayBuffer.isView(args[last]);
    if (options) args[last] = { ...(args[last] as object), ...extra };
    else args.push(extra);
    return create(...args);
  };
}

const api = {
  /** Creates the embedding service with the app's browser runtime adjusted for the bench. */
  open(config: BenchWorkerConfig): void {
    if (config.sessionOptions) patchSessionOptions(config.sessionOptions);
    // The app's choice of ORT build (asyncify only where a WebGPU adapter exists), as workers/embed.worker.ts.
    service = createEmbedService(async () => {
      const app = browserRuntime(import.meta.env.BASE_URL, { webgpu: (await probeWebGpu()).adapter });
      const runtime = {
        ...app,
        localModelPath: config.modelsPath,
        numThreads: config.threads ?? app.numThreads,
        useBrowserCache: false,
      };
      if (config.wasmFiles) runtime.wasmPaths = { ...config.wasmFiles };
      return runtime;
    });
  },

  /** Loads the model (not timed by the bench) and reports the threads ORT-web settled on. */
  async load(choice: ModelChoice): Promise<BenchWorkerInfo> {
    const info = await need().load(choice);
    return {
      crossOriginIsolated: self.crossOriginIsolated,
      hardwareConcurrency: navigator.hardwareConcurrency,
      ortThreads: Number(ort.env.wasm.numThreads),
      gpu: await probeWebGpu(),
      placement: info.placement,
      ...(info.fallback ? { fallback: info.fallback } : {}),
    };
  },

  /**
   * The app's embed call (with `sentences`, also each text's sentence vectors, as a build's leaves are
   * embedded for extractive summaries); the result buffer is transferred to the page as in the app. `batchMs` holds each
   * batch's milliseconds (from the service's progress callback), so the page can tell noise from cost.
   */
  async embed(
    texts: string[],
    choice: ModelChoice,
    batchSize: number,
    sentences = false,
  ): Promise<BenchEmbedResult> {
    const ends: number[] = [];
    runMs = 0;
    const start = performance.now();
    const batch = await need().embed(texts, choice, {
      batchSize,
      sentences,
      onProgress: () => ends.push(performance.now()),
    });
    const batchMs = ends.map((end, i) => end - (i ? ends[i - 1] : start));
    return transfer({ batch, batchMs, runMs }, [batch.data.buffer]);
  },
};

/** The bench worker's API, as the page sees it through comlink. */
export type BenchWorkerApi = typeof api;

expose(api);

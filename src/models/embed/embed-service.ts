/**
 * The embedding service a worker exposes: owns at most one loaded model, loads lazily, and embeds for every
 * client (the page, and the build worker over a MessagePort). Plain object so it can be tested in Node.
 */
import { expose, transfer } from 'comlink';
import {
  configureRuntime,
  EmbedderError,
  pickDevice,
  TransformersEmbedder,
  type EmbeddingDevice,
  type EmbedderInfo,
  DEFAULT_BATCH_SIZE,
} from './embedder';
import type { EmbeddingBatch } from './rows';
import { LoadListeners, type ModelLoadProgress, noteModelUse } from '../files';
import { type RuntimeConfig, GpuDevice, addUse, type DeviceUse, loadPlaced } from '../device';
import { ModelSlot, Requests, type CancelPolicy, type LoadPolicy } from '../service';
import { resolveEmbeddingDtype, type EmbeddingDtype, type EmbeddingPrecision } from './embedding-presets';
import { embedOnPool, type PoolRunner } from './embed-pool';
import { CrossEncoder, type RerankerInfo } from './reranker';
import { checkGpuOnKnownInput } from './gpu-check';
import type { TextMemory } from './text-tokens';

/** Which model to use; the service reloads when it changes. */
export interface ModelChoice {
  model: string;
  /** Default q8; 'auto' is settled by the device when the model loads (`resolveEmbeddingDtype`). */
  dtype?: EmbeddingPrecision;
  device?: EmbeddingDevice;
}

function keyOf(choice: ModelChoice): string {
  return `${choice.model}|${choice.dtype ?? 'q8'}|${choice.device ?? 'auto'}`;
}

/** Which cross-encoder reranks (`Reranker` choices are kept apart from the embedding model's). */
export interface RerankerChoice {
  model: string;
  /** Default q8. */
  dtype?: EmbeddingPrecision;
  device?: EmbeddingDevice;
}

/** Another worker's embedding service (a `Remote<EmbedApi>`) that embeds batches for this one. */
export interface EmbedHelper {
  load(choice: ModelChoice): Promise<unknown>;
  embed(
    texts: string[],
    choice: ModelChoice,
    options: { batchSize?: number; sentences?: boolean },
  ): Promise<EmbeddingBatch>;
  /** Forgets the texts its model's tokenizer remembers. */
  forget(): Promise<unknown>;
}

/**
 * How the embedder loads: a new choice replaces it only once loaded (a failed load leaves the one before it,
 * e.g. the offline model a warm-up loaded), never while embed calls are in flight on it, and each loaded model
 * has its own move off WebGPU.
 */
const EMBEDDER_POLICY: LoadPolicy = {
  replace: 'once-loaded',
  exit: 'per-load',
  beforeReplace(current, requested) {
    if (current.inFlight === 0) return;
    // Swapping the model now would pull it from under the calls in flight (a build's batches).
    throw new EmbedderError(
      'BUSY',
      `The embedding worker is busy with ${current.name} (a build is embedding with it), so ` +
        `${requested.name} cannot be loaded now. Try again when the build has finished.`,
      { busyWith: current.name, requested: requested.name },
    );
  },
};
/** The reranker: at most one, freed as soon as another loads; a failed load is forgotten. */
const RERANKER_POLICY: LoadPolicy = { replace: 'at-once', exit: 'per-load' };
/** A cancel holds for its id until the id's last call has ended (a build's later batches stop too). */
const EMBED_CANCEL: CancelPolicy = 'until-idle';

/**
 * Makes the service. `runtime` (or what it resolves to, e.g. after asking for a WebGPU adapter) is applied
 * once, before the first model loads. `transferResults` moves result buffers across the worker boundary
 * instead of copying them. `helpers` (called once, when a CPU model is first chosen) gives other workers'
 * services that load the same model alongside this one and embed some of each call's batches (embed-pool.ts):
 * the same vectors, sooner; a WebGPU model never uses them. `gpu` is the worker's WebGPU device (checked on a
 * known input before a model uses it); a model whose WebGPU work fails (a lost device, an out-of-memory, an
 * operator the adapter cannot run) goes on on the CPU with the same weights from the batch that failed, and every
 * result says where its texts were embedded (`EmbeddingBatch.ranOn`).
 *
 * Long by design: the body is the service's closure (its state, a few short helpers, and the API object that
 * comlink exposes as a plain object, whose type the page derives with `ReturnType`); the longest, `embed`, is 63 lines. Loading once, the move off WebGPU and cancelling are the
 * skeleton's (src/models/service).
 */
// eslint-disable-next-line max-lines-per-function -- the service's closure: its state, short helpers and the API object comlink exposes (the page derives its type); each method is short
export function createEmbedService(
  runtime: RuntimeConfig | (() => Promise<RuntimeConfig>),
  transferResults = true,
  helpers?: () => EmbedHelper[],
  gpu: GpuDevice = new GpuDevice({ check: checkGpuOnKnownInput }),
) {
  let resolvedRuntime: Promise<RuntimeConfig> | undefined;
  const runtimeConfig = () =>
    (resolvedRuntime ??= typeof runtime === 'function' ? runtime() : Promise.resolve(runtime));
  let configured: Promise<void> | undefined;
  /**
   * The loaded model, under the key of the choice that loaded it and, once it has loaded, of the same choice
   * with its settled dtype too (a build asks for 'auto', then embeds with the dtype it settled on).
   */
  const embedderSlot = new ModelSlot<TransformersEmbedder>(gpu, EMBEDDER_POLICY);
  /** The loaded cross-encoder (at most one), under its choice's key. */
  const rerankerSlot = new ModelSlot<CrossEncoder>(gpu, RERANKER_POLICY);
  const requests = new Requests(EMBED_CANCEL);
  const listeners = new LoadListeners();
  let helperList: EmbedHelper[] | undefined;
  /** Each helper's load of the current choice: resolves false when it failed (the helper is then not used). */
  const helperLoads = new Map<EmbedHelper, { key: string; ready: Promise<boolean> }>();

  /** The helpers for `choice`, each loading it (once per choice); none for WebGPU or native CPU choices. */
  function helpersFor(choice: ModelChoice): PoolRunner['ready'][] {
    if (!helpers || choice.device === 'webgpu' || choice.device === 'cpu') return [];
    helperList ??= helpers();
    const key = keyOf(choice);
    return helperList.map((helper) => {
      let load = helperLoads.get(helper);
      if (load?.key !== key) {
        load = {
          key,
          ready: helper.load(choice).then(
            () => true,
            () => false,
          ),
        };
        helperLoads.set(helper, load);
      }
      return load.ready;
    });
  }

  /** The embedder of `choice` (loading it if needed). */
  function ensure(choice: ModelChoice): Promise<TransformersEmbedder> {
    return ensureEntry(choice).model;
  }

  /**
   * The loaded-model entry of `choice`, loading it if it differs (EMBEDDER_POLICY: the previous model is dropped
   * once the new one has loaded; a load that fails leaves the previous one loaded).
   * @throws EmbedderError BUSY while embed calls are in flight on another model.
   */
  function ensureEntry(choice: ModelChoice) {
    noteModelUse(choice.model);
    configured ??= runtimeConfig().then(configureRuntime);
    const ready = configured;
    return embedderSlot.ensure(keyOf(choice), {
      name: choice.model,
      load: () =>
        ready.then(() => {
          // Helpers load the same model at the same time (used only if it runs on the CPU).
          helpersFor(choice);
          return loadPlaced(gpu, choice.device ?? 'auto', (device, handle) =>
            TransformersEmbedder.load(choice.model, {
              dtype: choice.dtype,
              device,
              gpu: handle,
              onProgress: listeners.emit,
            }),
          );
        }),
      aliases: (loaded) => [keyOf({ ...choice, dtype: loaded.info.dtype })],
    });
  }

  function ensureReranker(choice: RerankerChoice, onProgress?: (p: ModelLoadProgress) => void) {
    noteModelUse(choice.model);
    return ensureRerankerEntry(choice, onProgress).model;
  }
  function ensureRerankerEntry(choice: RerankerChoice, onProgress?: (p: ModelLoadProgress) => void) {
    configured ??= runtimeConfig().then(configureRuntime);
    const ready = configured;
    return rerankerSlot.ensure(keyOf(choice), {
      name: choice.model,
      load: () =>
        ready.then(() =>
          loadPlaced(gpu, choice.device ?? 'auto', (device, handle) =>
            CrossEncoder.load(choice.model, { dtype: choice.dtype, device, gpu: handle, onProgress }),
          ),
        ),
    });
  }

  const api = {
    /**
     * Loads (or reuses) a cross-encoder reranker, beside whatever embedding model is loaded; `onProgress`
     * receives per-file download progress of a first load.
     */
    async loadReranker(
      choice: RerankerChoice,
      onProgress?: (p: ModelLoadProgress) => void,
    ): Promise<RerankerInfo> {
      return (await ensureReranker(choice, onProgress)).info;
    },

    /**
     * One relevance logit per passage for `question` (higher is more relevant), loading the reranker if
     * needed. `requestId` lets `cancel` stop it between batches.
     */
    async rerank(
      question: string,
      passages: string[],
      choice: RerankerChoice,
      options: { requestId?: string } = {},
    ): Promise<Float32Array> {
      const entry = ensureRerankerEntry(choice);
      const encoder = await entry.model;
      return requests.run(options.requestId, async (signal) => {
        let scores: Float32Array;
        try {
          scores = await gpu.guard(
            () => encoder.score(question, passages, { signal }),
            encoder.info.device === 'webgpu',
          );
        } catch (error) {
          // On the CPU after a WebGPU failure: the same weights score the question's passages again.
          const moved = await rerankerSlot.leave(entry, encoder, error, (fallback) =>
            CrossEncoder.load(encoder.info.model, { dtype: encoder.info.dtype, device: 'wasm' }).then((e) =>
              e.withFallback(fallback),
            ),
          );
          scores = await moved.score(question, passages, { signal });
        }
        return transferResults ? transfer(scores, [scores.buffer]) : scores;
      });
    },

    /**
     * The device and weights `choice` loads here (a WebGPU adapter decides 'auto'), without loading anything:
     * the page plans a warm-up by the file that will be read.
     */
    async settle(choice: ModelChoice): Promise<{ device: EmbedderInfo['device']; dtype: EmbeddingDtype }> {
      const device = await pickDevice(choice.device ?? 'auto');
      return { device, dtype: resolveEmbeddingDtype(choice.dtype, device) };
    },

    /**
     * Loads (or reuses) a model; `onProgress` receives per-file download progress. On the CPU the helpers load
     * the same model, and loaded means every worker can embed — unless `options.helpers` is 'background': then
     * it resolves once this worker's model is ready, and each helper joins the embed calls when its own load
     * ends (a build starts embedding on one worker instead of waiting for the slowest).
     */
    async load(
      choice: ModelChoice,
      onProgress?: (p: ModelLoadProgress) => void,
      options: { helpers?: 'wait' | 'background' } = {},
    ): Promise<EmbedderInfo> {
      return listeners.during(onProgress, async () => {
        const { info } = await ensure(choice);
        if (info.device === 'wasm' && options.helpers !== 'background') await Promise.all(helpersFor(choice));
        return info;
      });
    },

    /**
     * Embeds texts with the chosen model (loading it if needed). `requestId` lets `cancel` stop it between
     * batches.
     */
    async embed(
      texts: string[],
      choice: ModelChoice,
      options: {
        requestId?: string;
        batchSize?: number;
        onProgress?: (done: number, total: number) => void;
        /** Also each text's sentence vectors from the same pass (see TransformersEmbedder.embed). */
        sentences?: boolean;
      } = {},
    ): Promise<EmbeddingBatch> {
      const entry = ensureEntry(choice);
      return embedderSlot.use(entry, async () => {
        const embedder = await entry.model;
        return await requests.run(options.requestId, async (signal) => {
          const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
          const { sentences } = options;
          let ranOn: DeviceUse[] = [];
          /** One batch on the entry's model, counted where it ran; on the CPU after a WebGPU failure. */
          const own = async (batchTexts: string[]): Promise<EmbeddingBatch> => {
            const model = await entry.model;
            let result: EmbeddingBatch;
            let ranWith = model;
            try {
              const onGpu = model.info.device === 'webgpu';
              result = await gpu.guard(() => model.embed(batchTexts, { batchSize, sentences }), onGpu);
            } catch (error) {
              // The same model and weights on the CPU, so vectors and cache keys stay comparable.
              ranWith = await embedderSlot.leave(entry, model, error, (fallback) =>
                TransformersEmbedder.load(model.info.model, { dtype: model.info.dtype, device: 'wasm' }).then(
                  (e) => e.withFallback(fallback),
                ),
              );
              result = await ranWith.embed(batchTexts, { batchSize, sentences });
            }
            ranOn = addUse(ranOn, ranWith.info.placement, batchTexts.length, ranWith.info.fallback);
            return result;
          };
          const ready = embedder.info.device === 'wasm' && texts.length > batchSize ? helpersFor(choice) : [];
          const batch = await embedOnPool(
            texts,
            embedder.batches(texts, batchSize),
            [
              { run: own },
              ...ready.map((loaded, h) => ({
                run: async (batchTexts: string[]) => {
                  const result = await helperList![h].embed(batchTexts, choice, { batchSize, sentences });
                  ranOn = addUse(ranOn, embedder.info.placement, batchTexts.length);
                  return result;
                },
                ready: loaded,
              })),
            ],
            { signal, onBatch: (done) => options.onProgress?.(done, texts.length) },
          );
          const placed: EmbeddingBatch = { ...batch, ranOn };
          if (!transferResults) return placed;
          const buffers = [placed.data.buffer];
          if (placed.sentences) buffers.push(placed.sentences.data.buffer, placed.sentences.counts.buffer);
          return transfer(placed, buffers);
        });
      });
    },

    /**
     * Each text's length in the chosen model's tokens (loading it if needed): a build embeds texts of similar
     * length together, so the model's batches pad little.
     */
    async lengths(texts: string[], choice: ModelChoice): Promise<number[]> {
      return (await ensure(choice)).tokenCounts(texts);
    },

    /**
     * Forgets the texts (and words) the loaded model's tokenizer remembers, here and in the helpers: called when
     * a build ends and when a tree is deleted, so no document's passages stay in this worker's memory for the
     * tab's life. A cache only: texts embedded later are tokenised again, to the same ids.
     */
    async forget(): Promise<void> {
      (await embedderSlot.loaded())?.forgetTexts();
      await Promise.all((helperList ?? []).map((helper) => helper.forget().catch(() => undefined)));
    },

    /** How many texts and words the loaded model's tokenizer remembers here (none without a model). */
    async textMemory(): Promise<TextMemory> {
      return (await embedderSlot.loaded())?.textMemory() ?? { texts: 0, words: 0 };
    },

    /** Stops the embed calls in flight with this `requestId` at their next batch (later calls are unaffected). */
    cancel(requestId: string): void {
      requests.cancel(requestId);
    },

    /** Serves this same service (and its loaded model) to another worker over `port`. */
    connect(port: MessagePort): void {
      expose(api, port);
    },

    /**
     * How this worker runs models, whether or not one is loaded: whether it is cross-origin isolated (threads
     * and shared memory need it), the WASM threads its model gets, and the cores the browser reports.
     */
    async threads(): Promise<{ threads: number; crossOriginIsolated: boolean; cores: number }> {
      const config = await runtimeConfig();
      const scope = globalThis as {
        crossOriginIsolated?: boolean;
        navigator?: { hardwareConcurrency?: number };
      };
      return {
        threads: config.numThreads ?? 1,
        crossOriginIsolated: scope.crossOriginIsolated === true,
        cores: scope.navigator?.hardwareConcurrency ?? 1,
      };
    },

    /** What is loaded, if anything. */
    async info(): Promise<EmbedderInfo | undefined> {
      return (await embedderSlot.loaded())?.info;
    },
  };
  return api;
}

/** The API type, derived from the implementation (the page and the build worker use `Remote<EmbedApi>`). */
export type EmbedApi = ReturnType<typeof createEmbedService>;

/**
 * Sentence embeddings with transformers.js (feature extraction, mean pooling, L2 normalisation), the
 * SBERT recipe the paper uses. Runs in a Web Worker (ONNX Runtime Web: WebGPU or WASM) and in Node
 * (onnxruntime-node) with the same code.
 */
import {
  env,
  pipeline,
  type FeatureExtractionPipeline,
  type ProgressInfo,
  type Tensor,
} from '@huggingface/transformers';
import { throwIfAborted, type AbortSignalLike } from '../../core/abort';
import { yieldToEventLoop } from '../../core/yield';
import { AerieError } from '../../core/errors';
import { checkModelId, knownLengthFetch, ModelSourceGate, type FetchLike } from '../files';
import {
  locateModel,
  resolveEmbeddingDtype,
  type EmbeddingDtype,
  type EmbeddingPrecision,
} from './embedding-presets';
import { poolRows, sentenceRanges } from '../../core/pooling';
import { sentenceSpans } from '../../core/text/sentences';
import type { EmbeddingBatch } from './rows';
import { TextTokens, type TextMemory } from './text-tokens';
import { meanOfStates } from './model-inputs';
import { GpuDevice, type GpuHandle, autoUsesGpu, probeWebGpu } from '../device';
import type { DeviceFallback, ModelPlacement, RuntimeConfig } from '../device';
import type { ModelLoadProgress } from '../files';

/**
 * Texts per forward pass. 16 was the fastest in WASM in `npm run bench embed` (MiniLM-L6, ~100-token chunks:
 * +6% over 32, which pads more after sorting, and no slower than 8 or 24).
 */
export const DEFAULT_BATCH_SIZE = 16;

/**
 * The order TransformersEmbedder embeds texts in: indices by `lengths` (tokens) longest first, ties in input
 * order, so each batch holds texts of similar length and pads little.
 */
export function longestFirst(lengths: readonly number[]): number[] {
  return lengths.map((_, i) => i).sort((a, b) => lengths[b] - lengths[a] || a - b);
}

/** Where the model runs. `auto` picks WebGPU when the browser offers an adapter, else WASM (CPU in Node). */
export type EmbeddingDevice = 'auto' | 'webgpu' | 'wasm' | 'cpu';

/** Why a model could not be used. */
export class EmbedderError extends AerieError<
  | 'MODEL_NOT_FOUND'
  | 'HUB_UNREACHABLE'
  | 'LOAD_FAILED'
  | 'NOT_LOADED'
  | 'UNSUPPORTED_MODEL'
  | 'EMBED_FAILED'
  | 'BUSY'
> {}

/** What a loaded embedder is. */
export interface EmbedderInfo {
  model: string;
  dtype: EmbeddingDtype;
  device: Exclude<EmbeddingDevice, 'auto'>;
  dim: number;
  threads: number;
  /** Where it runs, for people and records. */
  placement: ModelPlacement;
  /** Why it runs on the CPU although WebGPU was chosen or could have been used. */
  fallback?: DeviceFallback;
}

/** Where a model loaded on `device` runs (threads and isolation read from this realm). */
export function placementOf(device: Exclude<EmbeddingDevice, 'auto'>, adapter = ''): ModelPlacement {
  if (device === 'webgpu') return { device, adapter };
  if (device === 'cpu') return { device };
  const scope = globalThis as { crossOriginIsolated?: boolean };
  return {
    device,
    threads: Number(env.backends.onnx.wasm?.numThreads ?? 1),
    isolated: !!scope.crossOriginIsolated,
  };
}

/** The fetch functions configureRuntime installed (so a second call does not wrap twice). */
const installedFetches = new WeakSet<FetchLike>();

/**
 * Applies `config` to transformers.js's shared environment (fields are mutated, never replaced), and has it
 * fetch through `knownLengthFetch`.
 */
export function configureRuntime(config: RuntimeConfig): void {
  env.localModelPath = config.localModelPath;
  const current = env.fetch as FetchLike | undefined;
  if (current && !installedFetches.has(current)) {
    const wrapped = knownLengthFetch(current);
    installedFetches.add(wrapped);
    env.fetch = wrapped as typeof env.fetch;
  }
  if (config.useBrowserCache !== undefined) env.useBrowserCache = config.useBrowserCache;
  if (config.useWasmCache !== undefined) env.useWasmCache = config.useWasmCache;
  const wasm = env.backends.onnx.wasm;
  if (wasm) {
    if (config.wasmPaths) wasm.wasmPaths = { ...config.wasmPaths };
    if (config.numThreads) wasm.numThreads = config.numThreads;
  }
}

/**
 * The device a model runs on: the requested one, or for 'auto' WebGPU when the browser offers a GPU adapter (never
 * its software fallback adapter, which is slower than WASM), else WASM (the native CPU in Node).
 */
export async function pickDevice(requested: EmbeddingDevice): Promise<Exclude<EmbeddingDevice, 'auto'>> {
  if (requested !== 'auto') return requested;
  const scope = globalThis as { navigator?: unknown; process?: { versions?: { node?: string } } };
  // Node (tests, CLI) runs ONNX Runtime's native CPU backend.
  if (scope.process?.versions?.node || !scope.navigator) return 'cpu';
  return autoUsesGpu(await probeWebGpu()) ? 'webgpu' : 'wasm';
}

/**
 * What a failed load means for the user. Only a hub model can find the hub unreachable: a self-hosted model that
 * fails to load (whatever the error's type) is a LOAD_FAILED with its message, never a reason to fall back.
 */
export function classifyLoadError(
  error: unknown,
  model: string,
  fromHub = true,
  what = 'embedding model',
): EmbedderError {
  const message = error instanceof Error ? error.message : String(error);
  if (/not found|404|could not locate|no such file/i.test(message)) {
    return new EmbedderError('MODEL_NOT_FOUND', `The ${what} "${model}" was not found (${message}).`, {
      model,
    });
  }
  if (
    fromHub &&
    (error instanceof TypeError || /fetch|network|ENOTFOUND|EAI_AGAIN|ECONNREFUSED/i.test(message))
  ) {
    return new EmbedderError(
      'HUB_UNREACHABLE',
      `The model hub could not be reached to download "${model}". Check the connection, or use the offline model.`,
      { model },
    );
  }
  return new EmbedderError('LOAD_FAILED', `The ${what} "${model}" could not be loaded: ${message}`, {
    model,
  });
}

/** How a browser model (embedder or reranker) is asked for. */
export interface LoadOptions {
  /**
   * Default q8; 'auto' settles by the device (`resolveEmbeddingDtype`), and by the model's own files: a model that
   * lacks the weights 'auto' prefers loads the other ones.
   */
  dtype?: EmbeddingPrecision;
  device?: EmbeddingDevice;
  onProgress?: (p: ModelLoadProgress) => void;
  /** The WebGPU device to run on (gpu-device.ts); without one, ONNX Runtime makes its own. */
  gpu?: GpuHandle;
}

/** The weights to try, in order: the one `precision` settles on, then (for 'auto') the other. */
export function dtypeCandidates(
  precision: EmbeddingPrecision | undefined,
  device: Exclude<EmbeddingDevice, 'auto'>,
): EmbeddingDtype[] {
  const first = resolveEmbeddingDtype(precision, device);
  if (precision !== 'auto') return [first];
  return [first, first === 'q8' ? 'fp32' : 'q8'];
}

/**
 * Loads with each dtype in turn until one's weights exist: another dtype is tried only when the file of this one
 * is missing (an error with code MODEL_NOT_FOUND), never after any other failure. When none exists, the last
 * dtype's error is thrown.
 */
export async function loadFirstPresent<D extends string, T>(
  dtypes: readonly D[],
  load: (dtype: D) => Promise<T>,
): Promise<T> {
  let lastError: unknown;
  for (const dtype of dtypes) {
    try {
      return await load(dtype);
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code !== 'MODEL_NOT_FOUND') throw error;
      lastError = error;
    }
  }
  throw lastError;
}

/**
 * transformers.js's local/remote switches for this realm, set for each load by its source (a local model must
 * never fall back to the hub silently, and a hub model should not probe our origin), and held while it loads:
 * loads from the app's folder and from the hub take turns (source-gate.ts).
 */
const modelSources = new ModelSourceGate((source) => {
  env.allowLocalModels = source === 'local';
  env.allowRemoteModels = source === 'hub';
});

/**
 * What loading browser model `model` takes: the name transformers.js looks it up by, the device and dtype it
 * settles on, where its files come from (`source`), and a progress callback forwarding per-file bytes.
 * @throws EmbedderError UNSUPPORTED_MODEL for an endpoint model; ModelIdError INVALID_MODEL_ID for an id that
 *   is not a model id (model-id.ts).
 */
export async function loadTarget(model: string, options: LoadOptions, what = 'embedding model') {
  const location = locateModel(model);
  if (location.kind === 'endpoint') {
    throw new EmbedderError('UNSUPPORTED_MODEL', `"${model}" is an endpoint model, not a browser model.`, {
      model,
    });
  }
  // Before any file is fetched: a `local:` id must stay inside the app's models folder, a hub id be owner/name.
  checkModelId(model, what);
  const device = await pickDevice(options.device ?? 'auto');
  const dtypes = dtypeCandidates(options.dtype ?? 'q8', device);
  const progress_callback = (p: ProgressInfo) => {
    if (!options.onProgress || !('file' in p)) return;
    options.onProgress({
      file: p.file,
      loaded: 'loaded' in p ? p.loaded : 0,
      total: 'total' in p ? p.total : 0,
      status: p.status as ModelLoadProgress['status'],
    });
  };
  const name = location.kind === 'local' ? location.folder : location.repo;
  const session_options =
    device === 'webgpu' && options.gpu ? GpuDevice.sessionOptionsFor(options.gpu) : undefined;
  const placement = placementOf(device, options.gpu?.adapter);
  return {
    name,
    device,
    dtypes,
    source: location.kind,
    fromHub: location.kind === 'hub',
    progress_callback,
    placement,
    ...(session_options ? { session_options } : {}),
  };
}

/**
 * Loads browser model `model` (see `loadTarget`) with each of its dtypes in turn until one's weights exist
 * (`loadFirstPresent`): `load` gets the name transformers.js looks it up by and the options of one dtype; a
 * failure is told as the user should read it (`classifyLoadError`, naming `what`). It starts once no load from
 * the other source runs in this realm (`modelSources`).
 */
export async function loadEachDtype<T>(
  model: string,
  options: LoadOptions,
  what: string,
  load: (name: string, pretrained: PretrainedOptions) => Promise<T>,
): Promise<{
  loaded: T;
  dtype: EmbeddingDtype;
  device: Exclude<EmbeddingDevice, 'auto'>;
  placement: ModelPlacement;
}> {
  const { name, device, dtypes, source, fromHub, progress_callback, placement, session_options } =
    await loadTarget(model, options, what);
  return modelSources.run(source, () =>
    loadFirstPresent(dtypes, async (dtype) => {
      try {
        const pretrained = {
          dtype,
          device,
          progress_callback,
          ...(session_options ? { session_options } : {}),
        };
        return { loaded: await load(name, pretrained), dtype, device, placement };
      } catch (error) {
        throw classifyLoadError(error, model, fromHub, what);
      }
    }),
  );
}

/** The options of one dtype's load that transformers.js's `pipeline` and `from_pretrained` take. */
export interface PretrainedOptions {
  dtype: EmbeddingDtype;
  device: Exclude<EmbeddingDevice, 'auto'>;
  progress_callback: (p: ProgressInfo) => void;
  session_options?: ReturnType<typeof GpuDevice.sessionOptionsFor>;
}

/**
 * One loaded embedding model. Create with `TransformersEmbedder.load`.
 */
export class TransformersEmbedder {
  /**
   * Each text's token ids, made once (text-tokens.ts): a build's call is counted for its order (`tokenCounts`),
   * for its batches (`batches`) and padded into its pass (`embed`) — the same texts three times. Tokenising in
   * JavaScript was most of what embedding cost with a light model (a trace of `npm run bench build`, issue #44):
   * with the BERT-style tokenizers the ids come from our own encoder (wordpiece.ts), the same ids in a
   * twentieth of transformers.js's time.
   */
  private readonly tokens: TextTokens;

  private constructor(
    private readonly extractor: FeatureExtractionPipeline,
    readonly info: EmbedderInfo,
  ) {
    this.tokens = new TextTokens(extractor.tokenizer);
  }

  /** Whether this model's texts are tokenised by our own encoder (else by transformers.js's tokenizer). */
  get ownTokenizer(): boolean {
    return this.tokens.encoder !== undefined;
  }

  /**
   * The model's output for a batch of texts: token states (`none`), or their mean, L2-normalised (`mean`), as
   * transformers.js's feature-extraction pipeline gives them; the model's inputs are built from the remembered
   * ids when our encoder made them (the same tensors as the pipeline's tokenizer call), else by the pipeline.
   */
  private async forward(texts: string[], pooling: 'none' | 'mean'): Promise<Tensor> {
    const inputs = this.tokens.inputs(texts);
    if (!inputs) return this.extractor(texts, { pooling, normalize: pooling === 'mean' });
    const outputs = (await this.extractor.model(inputs)) as Record<string, Tensor | undefined>;
    const states = outputs.last_hidden_state ?? outputs.logits ?? outputs.token_embeddings;
    if (!states) throw new Error('The model gave no token states.');
    return pooling === 'none' ? states : meanOfStates(states, inputs.attention_mask).normalize(2, -1);
  }

  /**
   * Loads a model (see embedding-presets.ts for model strings) and measures its dimension with one tiny input.
   * @param onProgress per-file download progress in bytes.
   */
  static async load(model: string, options: LoadOptions = {}): Promise<TransformersEmbedder> {
    const {
      loaded: extractor,
      dtype,
      device,
      placement,
    } = await loadEachDtype(
      model,
      options,
      'embedding model',
      async (name, pretrained) =>
        (await pipeline('feature-extraction', name, pretrained)) as FeatureExtractionPipeline,
    );
    const probe = await extractor(['dimension probe'], { pooling: 'mean', normalize: true });
    const dim = probe.dims[1];
    const threads = device === 'wasm' ? Number(env.backends.onnx.wasm?.numThreads ?? 1) : 1;
    return new TransformersEmbedder(extractor, { model, dtype, device, dim, threads, placement });
  }

  /** The same embedder, said to run on the CPU because of `fallback` (the service records why). */
  withFallback(fallback: DeviceFallback): this {
    (this.info as EmbedderInfo).fallback = fallback;
    return this;
  }

  /** How many texts and words this model's tokenizer remembers (text-tokens.ts). */
  textMemory(): TextMemory {
    return this.tokens.memory();
  }

  /** Forgets the texts and words its tokenizer remembers (a build ended, a tree was deleted). */
  forgetTexts(): void {
    this.tokens.forget();
  }

  /** Each text's length in this model's tokens (special tokens included), as `embed` counts them. */
  tokenCounts(texts: readonly string[]): number[] {
    return texts.map((text) => this.tokens.count(text));
  }

  /**
   * The batches `embed` forms for `texts`: indices in `longestFirst` order of their token counts, `batchSize`
   * at a time. Embedding each batch's texts, in that order, with `embed(…, { batchSize })` gives exactly the
   * vectors `embed(texts)` gives them (embed-pool.ts spreads the batches over workers this way).
   */
  batches(texts: readonly string[], batchSize = DEFAULT_BATCH_SIZE): number[][] {
    const order = longestFirst(texts.map((text) => this.tokens.count(text)));
    const out: number[][] = [];
    for (let start = 0; start < order.length; start += batchSize)
      out.push(order.slice(start, start + batchSize));
    return out;
  }

  /**
   * Embeds texts in `longestFirst` order of their token counts, so each batch pads little; rows come back in
   * input order. With `sentences`, the same pass also gives each text's sentence vectors (`sentenceSpans`
   * order; see core/pooling.ts): the mean of each sentence's token states, L2-normalised.
   * @param onProgress texts done so far.
   * @returns one row per text, unit length.
   */
  async embed(
    texts: string[],
    options: {
      batchSize?: number;
      signal?: AbortSignalLike;
      onProgress?: (done: number, total: number) => void;
      sentences?: boolean;
    } = {},
  ): Promise<EmbeddingBatch> {
    const { dim } = this.info;
    const out = new Float32Array(texts.length * dim);
    // Token counts, not characters: a batch is padded to its longest text in tokens (bench: 9% padding at
    // batch 32 when sorted by characters, 1–3% by tokens).
    const lengths = texts.map((text) => this.tokens.count(text));
    const order = longestFirst(lengths);
    const plan = options.sentences ? this.sentencePlan(texts, lengths) : undefined;
    const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
    for (let start = 0; start < order.length; start += batchSize) {
      // On one WASM thread a batch resolves without a macrotask in between: yield, so that messages (a
      // cancel, another worker's results) get through between batches.
      if (start > 0) await yieldToEventLoop();
      throwIfAborted(options.signal);
      const ids = order.slice(start, start + batchSize);
      try {
        const batchTexts = ids.map((i) => texts[i]);
        if (plan) {
          // Token states (padded on the right to the batch's longest), pooled here per text and per sentence.
          const states = await this.forward(batchTexts, 'none');
          const data = states.data as Float32Array;
          const width = states.dims[1];
          ids.forEach((textIndex, row) => {
            const base = row * width * dim;
            poolRows(data, base, dim, 0, lengths[textIndex], out, textIndex * dim);
            plan.ranges[textIndex]?.forEach(([from, to], k) =>
              poolRows(data, base, dim, from, to, plan.data, (plan.first[textIndex] + k) * dim),
            );
          });
          states.dispose?.();
        } else {
          const tensor = await this.forward(batchTexts, 'mean');
          const data = tensor.data as Float32Array;
          ids.forEach((textIndex, row) =>
            out.set(data.subarray(row * dim, (row + 1) * dim), textIndex * dim),
          );
          tensor.dispose?.();
        }
      } catch (error) {
        throw new EmbedderError(
          'EMBED_FAILED',
          `Embedding failed: ${error instanceof Error ? error.message : String(error)}`,
          { batch: ids.length },
        );
      }
      options.onProgress?.(Math.min(start + batchSize, texts.length), texts.length);
    }
    if (!plan) return { data: out, dim };
    return { data: out, dim, sentences: { data: plan.data, dim, counts: plan.counts } };
  }

  /**
   * Where each text's sentences lie among its tokens, and where their vectors go. A text whose sentences,
   * encoded one by one, do not add up to its own tokens (or a tokenizer that pads on the left) gets none.
   */
  private sentencePlan(texts: string[], lengths: number[]) {
    const tokenizer = this.extractor.tokenizer;
    const [leading, trailing] = this.specialTokens();
    const counts = new Int32Array(texts.length).fill(-1);
    const first = new Int32Array(texts.length);
    const ranges: (Array<[number, number]> | undefined)[] = [];
    let rows = 0;
    texts.forEach((text, i) => {
      const spans = sentenceSpans(text);
      const sentenceTokens = spans.map((span) => this.tokens.countWithin(text.slice(span.start, span.end)));
      const found =
        tokenizer.padding_side === 'right' && spans.length > 0
          ? sentenceRanges(lengths[i], sentenceTokens, leading, trailing)
          : undefined;
      ranges.push(found);
      if (!found) return;
      counts[i] = found.length;
      first[i] = rows;
      rows += found.length;
    });
    return { counts, first, ranges, data: new Float32Array(rows * this.info.dim) };
  }

  /** How many special tokens the tokenizer puts before and after a text (1 and 1 for BERT). */
  private specialTokens(): [number, number] {
    const tokenizer = this.extractor.tokenizer;
    const inner = tokenizer.encode('word', { add_special_tokens: false });
    const full = tokenizer.encode('word');
    const leading = Math.max(0, full.indexOf(inner[0]));
    return [leading, full.length - leading - inner.length];
  }

  /** Frees the ONNX session. */
  async dispose(): Promise<void> {
    await this.extractor.dispose();
  }
}

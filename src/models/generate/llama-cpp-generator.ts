/**
 * Text generation with llama.cpp compiled to WebAssembly (@wllama/wllama): a GGUF model, its own chat template,
 * greedy decoding with a KV cache, text streamed as it is written, cancellation between tokens, and the time of
 * prompt processing and of generation — the same contract as the ONNX generator (generator.ts). It runs in the
 * generate worker: wllama starts its own worker from a `blob:` URL, and that worker its threads (one per core
 * when the page is cross-origin isolated). Its WebAssembly file comes from the app (build/wllama-assets.ts), the
 * model from the app (`local:`) or the hub, cached in Cache Storage.
 *
 * On WebGPU (`gpu` given to `load`) every layer is offered to llama.cpp's WebGPU backend (ggml-webgpu in the same
 * wllama.wasm), which picks its own adapter and device in wllama's worker. Whether it took them is read from
 * llama.cpp's own load log ("offloaded N/M layers to GPU"): a backend that found no usable device runs on the
 * CPU without an error, and the generator then says it runs on WASM, and why.
 *
 * `npm run bench llm` measured it at several times the ONNX path's speed on the CPU (docs/builtin-model.md).
 */
import { Wllama, type ChatCompletionChunk } from '@wllama/wllama';
import { AbortError, onAbort, throwIfAborted } from '../../core/abort';
import type { ChatMessage } from '../../core/chat';
import type { ModelLoadProgress } from '../files';
import type { DeviceFallback } from '../device';
import {
  classifyLoadError,
  GeneratorError,
  messageOf,
  QueuedGenerator,
  type BuiltinGenerator,
  type GenerateOptions,
  type GenerationResult,
  type GeneratorInfo,
} from './generator-contract';
import { builtinModelTag, type ResolvedGeneratorChoice } from './generator-presets';
import { GGUF_CACHE, ggufUrl, probeLlamaCpp } from './gguf';

/**
 * Tokens of prompt plus reply the context holds: the longest summary request (a cluster re-clustered above
 * 3,500 tokens, plus instructions) and an answer over 2,000 tokens of passages fit with room to spare. Its KV
 * cache costs 12 kB a token for Qwen2.5-0.5B (96 MB in all).
 */
export const LLAMA_CPP_CONTEXT_TOKENS = 8192;

/** Where the runtime's files are and how many threads it may use. */
export interface LlamaCppRuntime {
  /** URL of wllama's `wllama.wasm`, served by the app. */
  wasmUrl: string;
  /** URL path of the app's self-hosted models (`/models/`), for `local:` ids. */
  localModelPath: string;
  /** Threads (1 unless the page is cross-origin isolated). */
  threads: number;
  /** Keep downloaded files in Cache Storage. Default true. */
  useBrowserCache?: boolean;
}

const CONTEXT_FULL = /context|kv cache|exceeds|n_ctx/i;

/** The logger wllama takes. */
type WllamaLogger = Record<'debug' | 'log' | 'warn' | 'error', (...args: unknown[]) => void>;

/** `n_gpu_layers` that offers every layer to the GPU (wllama's own default). */
const ALL_LAYERS = 99999;
/** llama.cpp's load log line that says how many layers went to the GPU. */
const OFFLOADED = /offloaded (\d+)\/\d+ layers to GPU/;

/** Reads llama.cpp's load log for the layers it put on the GPU (wllama forwards it to its logger). */
function offloadWatcher(): { logger: WllamaLogger; layersOnGpu: () => number } {
  let onGpu = 0;
  const read = (...args: unknown[]) => {
    const match = OFFLOADED.exec(args.map(String).join(' '));
    if (match) onGpu = Number(match[1]);
  };
  return { logger: { debug: read, log: read, warn: read, error: read }, layersOnGpu: () => onGpu };
}

/** Downloads `url` (or reads it from Cache Storage), reporting progress as transformers.js does per file. */
async function fetchModel(
  url: string,
  file: string,
  useCache: boolean,
  onProgress?: (p: ModelLoadProgress) => void,
): Promise<Blob> {
  const cache =
    useCache && typeof caches !== 'undefined'
      ? await caches.open(GGUF_CACHE).catch(() => undefined)
      : undefined;
  const cached = await cache?.match(url);
  if (cached) {
    const blob = await cached.blob();
    onProgress?.({ file, loaded: blob.size, total: blob.size, status: 'done' });
    return blob;
  }
  onProgress?.({ file, loaded: 0, total: 0, status: 'initiate' });
  const response = await fetch(url);
  if (!response.ok) {
    const error = new Error(`${response.status} ${response.statusText} for ${url}`);
    error.name = response.status === 404 ? 'ModelFileNotFoundError' : 'Error';
    throw error;
  }
  const total = Number(response.headers.get('content-length') ?? 0);
  const parts: Uint8Array[] = [];
  let loaded = 0;
  const reader = response.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    loaded += value.byteLength;
    onProgress?.({ file, loaded, total: Math.max(total, loaded), status: 'progress' });
  }
  const blob = new Blob(parts as BlobPart[]);
  onProgress?.({ file, loaded, total: loaded, status: 'done' });
  // A full quota only costs the next load a download.
  await cache
    ?.put(url, new Response(blob, { headers: { 'content-length': String(blob.size) } }))
    .catch(() => undefined);
  return blob;
}

/** The text a stream chunk adds, and whether it ends the reply and how. */
function chunkParts(chunk: ChatCompletionChunk): { delta: string; finish?: 'stop' | 'length' | null } {
  const choice = chunk.choices?.[0];
  return { delta: choice?.delta?.content ?? '', finish: choice?.finish_reason as 'stop' | 'length' | null };
}

/**
 * One loaded GGUF model in llama.cpp. Create with `LlamaCppGenerator.load`. Generations run one at a time; later
 * calls wait their turn, and leave the queue when cancelled.
 */
export class LlamaCppGenerator extends QueuedGenerator implements BuiltinGenerator {
  private constructor(
    private readonly wllama: Wllama,
    private settled: GeneratorInfo,
  ) {
    super();
  }

  /** What is loaded and where it runs. */
  get info(): GeneratorInfo {
    return this.settled;
  }

  /** The same generator, said to run on the CPU because of `fallback`. */
  withFallback(fallback: DeviceFallback): this {
    this.settled = { ...this.settled, fallback };
    return this;
  }

  /**
   * Downloads (or reads from the cache) the GGUF file and loads it into llama.cpp: on the CPU, or with every
   * layer offered to WebGPU when `gpu` names the adapter the app checked (see the module comment).
   * @throws GeneratorError: NO_LLAMA_CPP when the browser lacks what llama.cpp needs, else classifyLoadError's codes.
   */
  static async load(
    choice: ResolvedGeneratorChoice,
    runtime: LlamaCppRuntime,
    options: { onProgress?: (p: ModelLoadProgress) => void; gpu?: { adapter: string } } = {},
  ): Promise<LlamaCppGenerator> {
    const { model } = choice;
    const support = probeLlamaCpp();
    if (!support.ok) {
      throw new GeneratorError(
        'NO_LLAMA_CPP',
        `"${model}" is a GGUF model for llama.cpp, which needs ${support.missing.join(', ')}: this browser ` +
          'lacks them. Choose a preset or another ONNX model (they run on ONNX Runtime).',
        { model, missing: support.missing },
      );
    }
    const url = ggufUrl(model, runtime.localModelPath);
    if (!url) {
      throw new GeneratorError(
        'MODEL_NOT_FOUND',
        `"${model}" does not name a GGUF file: write owner/repository/file.gguf.`,
        { model },
      );
    }
    const threads = support.threads ? Math.max(1, runtime.threads) : 1;
    let wllama: Wllama | undefined;
    const { gpu } = options;
    const watch = offloadWatcher();
    try {
      const file = url.split('/').pop()!;
      const blob = await fetchModel(url, file, runtime.useBrowserCache ?? true, options.onProgress);
      // On WebGPU llama.cpp's log is read (and dropped) for the layers it offloaded.
      wllama = new Wllama(
        { default: runtime.wasmUrl },
        gpu
          ? { suppressNativeLog: false, logger: watch.logger }
          : { suppressNativeLog: true, logger: QUIET_LOGGER },
      );
      // Never the CDN build: a browser without JSPI or memory64 was refused above.
      wllama.setCompat(null);
      await wllama.loadModel([blob], {
        n_ctx: LLAMA_CPP_CONTEXT_TOKENS,
        n_threads: threads,
        n_gpu_layers: gpu ? ALL_LAYERS : 0,
        n_parallel: 1,
      });
    } catch (error) {
      await wllama?.exit().catch(() => undefined);
      throw classifyLoadError(error, model);
    }
    const trained = wllama.getModelMetadata().hparams.nCtxTrain;
    const onGpu = !!gpu && watch.layersOnGpu() > 0;
    const running = wllama.getNumThreads();
    const generator = new LlamaCppGenerator(wllama, {
      ...choice,
      device: onGpu ? 'webgpu' : 'wasm',
      runtime: 'llama.cpp',
      tag: builtinModelTag(choice),
      threads: running,
      contextTokens: Math.min(LLAMA_CPP_CONTEXT_TOKENS, trained > 0 ? trained : LLAMA_CPP_CONTEXT_TOKENS),
      // One sequence at a time (n_parallel 1); llama.cpp's WebAssembly was measured too slow to batch for.
      batchSize: 1,
      placement:
        onGpu && gpu
          ? { device: 'webgpu', adapter: gpu.adapter }
          : {
              device: 'wasm',
              threads: running,
              isolated: !!(globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated,
            },
    });
    if (!gpu || onGpu) return generator;
    return generator.withFallback({
      kind: 'failed',
      message: `llama.cpp put none of the model's layers on WebGPU (${gpu.adapter}): its WebGPU backend found no device it can use`,
    });
  }

  protected async run(messages: readonly ChatMessage[], options: GenerateOptions): Promise<GenerationResult> {
    const { signal, maxNewTokens } = options;
    throwIfAborted(signal);
    const abort = new AbortController();
    const stop = onAbort(signal, () => abort.abort());
    let text = '';
    let generated = 0;
    let finish: 'stop' | 'length' | null | undefined;
    let last: ChatCompletionChunk | undefined;
    const started = performance.now();
    let firstTokenAt = 0;
    let lastTokenAt = 0;
    const greedy = !(options.temperature !== undefined && options.temperature > 0);
    try {
      await this.wllama.createChatCompletion({
        messages: messages.map((m) => ({ role: m.role, content: m.content })),
        max_tokens: maxNewTokens,
        temperature: greedy ? 0 : options.temperature,
        ...(greedy ? { top_k: 1 } : {}),
        // Every prompt is processed whole, so the measured rates are the real ones.
        cache_prompt: false,
        stream: true,
        abortSignal: abort.signal,
        onData: (chunk: ChatCompletionChunk) => {
          last = chunk;
          const parts = chunkParts(chunk);
          if (parts.finish) finish = parts.finish;
          if (!parts.delta) return;
          lastTokenAt = performance.now();
          if (generated === 0) firstTokenAt = lastTokenAt;
          generated++;
          text += parts.delta;
          options.onText?.(parts.delta);
          options.onToken?.(generated);
        },
      } as Parameters<Wllama['createChatCompletion']>[0] & {
        stream: true;
        onData: (c: ChatCompletionChunk) => void;
      });
    } catch (error) {
      if (signal?.aborted || (error as Error | undefined)?.name === 'AbortError') throw new AbortError();
      throw this.generationError(error);
    } finally {
      stop();
    }
    throwIfAborted(signal);
    const finished = performance.now();
    const timings = last?.timings;
    const usage = last?.usage;
    const promptTokens = usage?.prompt_tokens ?? (timings ? timings.prompt_n + timings.cache_n : 0);
    const completionTokens = usage?.completion_tokens ?? timings?.predicted_n ?? generated;
    return {
      text,
      promptTokens,
      completionTokens,
      finishReason:
        finish === 'length' || (finish !== 'stop' && completionTokens >= maxNewTokens) ? 'length' : 'stop',
      timing: {
        prefillMs: (generated ? firstTokenAt : finished) - started,
        decodeMs: generated ? lastTokenAt - firstTokenAt : 0,
        totalMs: finished - started,
      },
    };
  }

  private generationError(error: unknown): GeneratorError {
    const message = messageOf(error);
    const { model, contextTokens } = this.info;
    if (CONTEXT_FULL.test(message)) {
      return new GeneratorError(
        'CONTEXT_TOO_LONG',
        `The prompt and the reply do not fit in ${model}'s context of ${contextTokens} tokens (${message}).`,
        { contextTokens },
      );
    }
    const load = classifyLoadError(error, model);
    if (load.code === 'OUT_OF_MEMORY') return load;
    return new GeneratorError('GENERATION_FAILED', `The built-in model "${model}" failed: ${message}`, {
      model,
    });
  }

  /** Ends llama.cpp's worker (and its threads), freeing the model's memory. */
  async dispose(): Promise<void> {
    await this.wllama.exit();
  }
}

/** wllama's own messages stay out of the console; errors reach the caller as GeneratorError. */
const QUIET_LOGGER: WllamaLogger = {
  debug: () => undefined,
  log: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

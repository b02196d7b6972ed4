/**
 * The text-generation service the generate worker exposes: owns at most one loaded language model, loads it
 * lazily with download progress, writes replies for every client (the page's answers one at a time and first;
 * the build worker's summaries, over a MessagePort, several together where the model batches:
 * transformers-generator.ts), cancels by request id, and measures this device's speed with a short warm-up. A
 * plain object, so Node tests drive it directly.
 */
import { expose } from 'comlink';
import { AbortError } from '../../core/abort';
import { countTokens } from '../../core/text';
import { summaryMessages, type ChatMessage } from '../../core/chat';
import { configureRuntime, checkGpuOnKnownInput } from '../embed';
import { LoadListeners, type ModelLoadProgress, checkModelId, noteModelUse } from '../files';
import {
  type RuntimeConfig,
  type GpuSupport,
  isNodeRuntime,
  probeWebGpu,
  GpuDevice,
  GpuExit,
  type GpuHandle,
  isGpuProblem,
  addUse,
  type DeviceFallback,
  type DeviceUse,
} from '../device';
import { probeLlamaCpp, type LlamaCppSupport } from './gguf';
import { speedOf, type SpeedSample } from './generation-speed';
import {
  defaultPreset,
  llamaCppWebGpuGap,
  resolveRuntime,
  type GeneratorChoice,
  type ResolvedGeneratorChoice,
} from './generator-presets';
import {
  GeneratorError,
  messageOf,
  type BuiltinGenerator,
  type GenerateOptions,
  type GenerationResult,
  type GeneratorInfo,
} from './generator-contract';
import { TransformersGenerator } from './transformers-generator';
import type { LlamaCppGenerator } from './llama-cpp-generator';

/** New tokens of the timed warm-up: 15 decoding steps, enough for a steady rate, a few seconds on a CPU. */
export const WARMUP_NEW_TOKENS = 16;
/** New tokens of the untimed first run (first-run allocations, shader or WASM warm-up). */
const PRIMING_NEW_TOKENS = 2;
/** The untimed first run's prompt. */
const PRIMING_MESSAGES: ChatMessage[] = [{ role: 'user', content: 'Reply with the word OK.' }];
const MS_PER_S = 1000;

/** What the service needs besides the runtime; injectable for tests. */
export interface GenerateServiceDeps {
  /** What WebGPU the realm offers. Default: `probeWebGpu`. */
  probeGpu?: () => Promise<GpuSupport>;
  /** What llama.cpp's WebAssembly needs that the realm offers. Default: `probeLlamaCpp`. */
  probeLlamaCpp?: () => LlamaCppSupport;
  /** The worker's WebGPU device. Default: one checked on a known input (gpu-check.ts). */
  gpu?: GpuDevice;
}

/**
 * Options of one `generate` call through the service: plain data (callbacks are separate arguments, since comlink
 * turns only top-level arguments into proxies).
 */
export interface ServiceGenerateOptions extends Omit<GenerateOptions, 'signal' | 'onText' | 'onToken'> {
  /** Lets `cancel(requestId)` stop this call (while it waits, or between tokens). */
  requestId?: string;
}

function keyOf(choice: Pick<ResolvedGeneratorChoice, 'model' | 'dtype' | 'device' | 'runtime'>): string {
  return `${choice.model}|${choice.dtype}|${choice.device}|${choice.runtime}`;
}

/**
 * The weights an ONNX model loaded for WebGPU runs with on the CPU: the same file, except q4f16 and fp16 (half-
 * precision activations, which ONNX Runtime's CPU kernels do not run), which become q4 and fp32.
 */
export function cpuDtypeOf(dtype: string): string {
  if (dtype === 'q4f16') return 'q4';
  if (dtype === 'fp16') return 'fp32';
  return dtype;
}

/**
 * A WebGPU choice moved to the CPU: the same weights (`cpuDtypeOf`), and of an `auto` dtype's fallbacks those the
 * CPU runs, in the same order.
 */
export function movedToCpu(resolved: ResolvedGeneratorChoice): ResolvedGeneratorChoice {
  const dtype = cpuDtypeOf(resolved.dtype);
  const fallbacks = resolved.dtypeFallbacks && [
    ...new Set(resolved.dtypeFallbacks.map(cpuDtypeOf).filter((d) => d !== dtype)),
  ];
  return { ...resolved, device: 'wasm', dtype, ...(fallbacks ? { dtypeFallbacks: fallbacks } : {}) };
}

/** A generator of either runtime; each can be said to run on the CPU because of a fallback (`withFallback`). */
type LoadedGenerator = TransformersGenerator | LlamaCppGenerator;

/** Loads a resolved choice with its runtime (wllama is imported only when a GGUF model is loaded). */
async function loadGenerator(
  resolved: ResolvedGeneratorChoice,
  runtime: RuntimeConfig,
  onProgress: (p: ModelLoadProgress) => void,
  gpu?: GpuHandle,
): Promise<LoadedGenerator> {
  if (resolved.runtime === 'onnx') {
    return TransformersGenerator.load(resolved, { onProgress, batchSize: runtime.generationBatchSize, gpu });
  }
  if (!runtime.llamaCppWasmUrl) {
    throw new GeneratorError(
      'NO_LLAMA_CPP',
      `"${resolved.model}" is a GGUF model for llama.cpp, which runs only in a browser.`,
      { model: resolved.model, missing: ['a browser'] },
    );
  }
  const { LlamaCppGenerator } = await import('./llama-cpp-generator');
  return LlamaCppGenerator.load(
    resolved,
    {
      wasmUrl: runtime.llamaCppWasmUrl,
      localModelPath: runtime.localModelPath,
      threads: runtime.numThreads ?? 1,
      useBrowserCache: runtime.useBrowserCache,
    },
    { onProgress, ...(gpu ? { gpu: { adapter: gpu.adapter } } : {}) },
  );
}

/** Rejects with an AbortError as soon as `signal` fires, else settles as `promise` does. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new AbortError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new AbortError());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * The sample's tokens in the model's vocabulary: counted by its tokenizer where it has one in JavaScript (ONNX
 * models), else (llama.cpp) the warm-up prompt's own count scaled by the sample's share of the prompt's cl100k
 * tokens — off by the few tokens of the chat template's markup, with no second pass over the sample.
 */
function modelTokensOf(
  generator: BuiltinGenerator,
  sampleText: string,
  messages: readonly ChatMessage[],
  promptTokens: number,
): number {
  if (generator.countTextTokens) return generator.countTextTokens(sampleText);
  const promptCl100k = messages.reduce((sum, m) => sum + countTokens(m.content), 0);
  return promptCl100k > 0 ? (promptTokens * countTokens(sampleText)) / promptCl100k : 0;
}

/**
 * Makes the service. `runtime` is applied once before the first model loads (the same ONNX Runtime files and
 * threads as the embedder's).
 *
 * Long by design: the body is the service's closure (its state, a few short helpers, and the API object that
 * comlink exposes as a plain object, whose type the page derives with `ReturnType`); the longest, `generate`, is 63 lines.
 */
export function createGenerateService(runtime: RuntimeConfig, deps: GenerateServiceDeps = {}) {
  let configured = false;
  let gpu: Promise<GpuSupport> | undefined;
  const device = deps.gpu ?? new GpuDevice({ check: checkGpuOnKnownInput });
  /**
   * The loaded model, under the keys of the choices it serves: the one that loaded it and, after it left WebGPU,
   * its CPU copy's (calls settled on either find it).
   */
  let current: { keys: Set<string>; generator: Promise<BuiltinGenerator> } | undefined;
  const listeners = new LoadListeners();
  /** Calls in flight by request id (several calls may share one id, e.g. all the summaries of a build). */
  const active = new Map<string, Set<AbortController>>();

  async function resolve(choice: GeneratorChoice): Promise<ResolvedGeneratorChoice> {
    // Before anything else, on either runtime (ids also come from stored trees and older settings).
    checkModelId(choice.model, 'built-in model', { gguf: true });
    gpu ??= (deps.probeGpu ?? probeWebGpu)();
    return resolveRuntime(choice, await gpu, isNodeRuntime(), (deps.probeLlamaCpp ?? probeLlamaCpp)());
  }

  function ensure(resolved: ResolvedGeneratorChoice): Promise<BuiltinGenerator> {
    noteModelUse(resolved.model);
    if (!configured) {
      configureRuntime(runtime);
      configured = true;
    }
    const key = keyOf(resolved);
    if (!current?.keys.has(key)) {
      const previous = current;
      const generator = loadOnDevice(resolved, listeners.emit);
      const entry = { keys: new Set([key]), generator };
      current = entry;
      // A model that left WebGPU while loading answers for its CPU choice too.
      void generator.then(
        (g) => entry.keys.add(keyOf(g.info)),
        () => undefined,
      );
      // A failed load is forgotten, so the next call retries instead of replaying the failure.
      generator.catch(() => {
        if (current?.generator === generator) current = undefined;
      });
      void previous?.generator.then((g) => g.dispose()).catch(() => undefined);
    }
    return current.generator;
  }

  /**
   * Loads on the resolved device: on WebGPU on the worker's checked device, and on the CPU with the same weights
   * (`cpuDtypeOf`) when WebGPU cannot be used (no device, a wrong known-input check, a load that fails there).
   */
  async function loadOnDevice(
    resolved: ResolvedGeneratorChoice,
    onProgress: (p: ModelLoadProgress) => void,
  ): Promise<BuiltinGenerator> {
    if (resolved.device !== 'webgpu') return loadGenerator(resolved, runtime, onProgress);
    if (resolved.runtime === 'llama.cpp') return loadLlamaCppOnGpu(resolved, onProgress);
    try {
      const handle = await device.acquire();
      return await device.guard(() => loadGenerator(resolved, runtime, onProgress, handle));
    } catch (error) {
      if (!isGpuProblem(error)) throw error;
      const fault = device.fail(error);
      return (await loadGenerator(movedToCpu(resolved), runtime, onProgress)).withFallback(fault.fallback);
    }
  }

  /**
   * Loads a GGUF model on WebGPU: on the adapter of the worker's checked device (a failed request or known-input
   * check is the worker's fault, as for ONNX models), if llama.cpp's backend can run there (`llamaCppWebGpuGap`);
   * else, or when the load fails, on WASM with the reason. A failure of llama.cpp's own WebGPU device is not the
   * worker's fault: ONNX models keep WebGPU.
   */
  async function loadLlamaCppOnGpu(
    resolved: ResolvedGeneratorChoice,
    onProgress: (p: ModelLoadProgress) => void,
  ): Promise<BuiltinGenerator> {
    const onCpu = async (fallback: DeviceFallback) =>
      (await loadGenerator({ ...resolved, device: 'wasm' }, runtime, onProgress)).withFallback(fallback);
    let handle: GpuHandle;
    try {
      handle = await device.acquire();
    } catch (error) {
      if (!isGpuProblem(error)) throw error;
      return onCpu(device.fail(error).fallback);
    }
    const gap = llamaCppWebGpuGap({ f16: handle.f16, name: handle.adapter });
    if (gap) return onCpu({ kind: 'request-device', message: gap });
    try {
      return await loadGenerator(resolved, runtime, onProgress, handle);
    } catch (error) {
      if (!isGpuProblem(error)) throw error;
      return onCpu({
        kind: 'failed',
        message: `llama.cpp failed to load on WebGPU (${handle.adapter}): ${messageOf(error)}`,
      });
    }
  }

  /** The last move from WebGPU to the CPU: calls that fail on the same model share its reload. */
  const exit = new GpuExit<BuiltinGenerator>(device);

  /**
   * Moves the loaded model from WebGPU to the CPU after `error` (one reload however many calls fail at once).
   * Rejects with `error` when it is not a GPU problem or the model was not on WebGPU.
   */
  function leaveGpu(from: BuiltinGenerator, error: unknown): Promise<BuiltinGenerator> {
    const entry = current;
    const cpu = movedToCpu(from.info);
    return exit.leave(from, error, {
      loadOnCpu: (fallback) =>
        loadGenerator(cpu, runtime, () => undefined).then((g) => g.withFallback(fallback)),
      onMove: (to) => {
        if (!entry) return;
        entry.generator = to;
        entry.keys.add(keyOf(cpu));
      },
      // Unloaded meanwhile: the earlier CPU copy was freed with it.
      reuse: entry !== undefined,
    });
  }

  /** An AbortController registered under `requestId` until `done` is called. */
  function track(requestId: string | undefined): { signal: AbortSignal; done: () => void } {
    const controller = new AbortController();
    if (requestId === undefined) return { signal: controller.signal, done: () => undefined };
    let set = active.get(requestId);
    if (!set) active.set(requestId, (set = new Set()));
    set.add(controller);
    return {
      signal: controller.signal,
      done: () => {
        set.delete(controller);
        if (set.size === 0 && active.get(requestId) === set) active.delete(requestId);
      },
    };
  }

  async function loaded(choice: GeneratorChoice, signal: AbortSignal): Promise<BuiltinGenerator> {
    return untilAborted(ensure(await resolve(choice)), signal);
  }

  const api = {
    /** What WebGPU this device offers, and the preset that suits it (for the settings). */
    async probe(): Promise<GpuSupport & { defaultModel: string }> {
      gpu ??= (deps.probeGpu ?? probeWebGpu)();
      const support = await gpu;
      return { ...support, defaultModel: defaultPreset(support).id };
    },

    /**
     * Loads (or reuses) a model; `onProgress` receives per-file download progress. `cancel(requestId)`
     * rejects this call with an AbortError at once; the download itself goes on (end the worker to stop it).
     * @throws GeneratorError (HUB_UNREACHABLE, MODEL_NOT_FOUND, NOT_TEXT_GENERATION, OUT_OF_MEMORY, …).
     */
    async load(
      choice: GeneratorChoice,
      onProgress?: (p: ModelLoadProgress) => void,
      requestId?: string,
    ): Promise<GeneratorInfo> {
      const call = track(requestId);
      try {
        return await listeners.during(onProgress, async () => (await loaded(choice, call.signal)).info);
      } finally {
        call.done();
      }
    },

    /**
     * Writes the assistant's reply to `messages` with the chosen model (loading it if needed), streaming the
     * text to `onText` and counting tokens through `onToken` (`onTokenId` gets each token's id, for tests that
     * compare devices token by token). A question is written alone, after the forward pass in progress;
     * summaries (`options.batch`) are written together, up to the model's `batchSize`.
     * @throws GeneratorError, or an AbortError after `cancel(requestId)`.
     */
    async generate(
      messages: ChatMessage[],
      choice: GeneratorChoice,
      options: ServiceGenerateOptions,
      onText?: (delta: string) => void,
      onToken?: (generated: number) => void,
      onTokenId?: (id: number) => void,
    ): Promise<GenerationResult> {
      const call = track(options.requestId);
      // Through comlink each callback call is a message on its own channel, answered with a promise: the
      // reply waits for the last piece of text to have been delivered, so the pieces join to the text by then.
      let delivered: Promise<unknown> = Promise.resolve();
      const text =
        onText && ((delta: string) => (delivered = Promise.resolve(onText(delta)).catch(() => undefined)));
      let idsDelivered: Promise<unknown> = Promise.resolve();
      try {
        const generator = await loaded(choice, call.signal);
        const { requestId: _requestId, ...rest } = options;
        const tokens: number[] = [];
        let streamed = '';
        const run = (model: BuiltinGenerator, resume?: { tokens: number[]; text: string }) =>
          model.generate(messages, {
            ...rest,
            signal: call.signal,
            onText:
              text &&
              ((delta: string) => {
                streamed += delta;
                text(delta);
              }),
            onToken,
            onTokenId: (id) => {
              tokens.push(id);
              if (onTokenId) idsDelivered = Promise.resolve(onTokenId(id)).catch(() => undefined);
            },
            ...(resume ? { resume } : {}),
          });
        let reply: GenerationResult;
        let ranOn: DeviceUse[] = [];
        try {
          reply = await device.guard(() => run(generator), generator.info.device === 'webgpu');
          ranOn = addUse(ranOn, generator.info.placement, reply.completionTokens);
        } catch (error) {
          // WebGPU failed mid-reply: the CPU copy reads the prompt and the tokens written so far, and goes on.
          const cpu = await leaveGpu(generator, error);
          const written = [...tokens];
          if (written.length > 0) ranOn = addUse(ranOn, generator.info.placement, written.length);
          tokens.length = 0;
          tokens.push(...written);
          reply = await run(cpu, { tokens: written, text: streamed });
          ranOn = addUse(
            ranOn,
            cpu.info.placement,
            reply.completionTokens - written.length,
            cpu.info.fallback,
          );
        }
        await Promise.all([delivered, idsDelivered]);
        return { ...reply, ranOn };
      } finally {
        call.done();
      }
    },

    /**
     * The short measured warm-up: one untimed tiny run, then the paper's summary prompt over `sampleText` (a
     * typical cluster's text, e.g. the document's first ~600 tokens), timed: its reading, then `newTokens`
     * tokens written, half by its one reply alone and half by `batchSize` replies together where the model
     * batches summaries. Its rates and token ratio feed `estimateSummarySeconds`.
     */
    async measureSpeed(
      choice: GeneratorChoice,
      options: { sampleText: string; newTokens?: number; requestId?: string },
    ): Promise<SpeedSample> {
      const call = track(options.requestId);
      try {
        const loadedModel = await loaded(choice, call.signal);
        // Measured where the summaries will be written: on the CPU if WebGPU fails during the warm-up.
        return await device
          .guard(() => measure(loadedModel, call.signal))
          .catch(async (error: unknown) => measure(await leaveGpu(loadedModel, error), call.signal));
      } finally {
        call.done();
      }

      async function measure(generator: BuiltinGenerator, signal: AbortSignal): Promise<SpeedSample> {
        const messages = summaryMessages([options.sampleText]);
        const newTokens = options.newTokens ?? WARMUP_NEW_TOKENS;
        const cl100k = countTokens(options.sampleText);
        const ratio = (promptTokens: number) =>
          cl100k > 0 ? modelTokensOf(generator, options.sampleText, messages, promptTokens) / cl100k : 1;
        const rows = generator.info.batchSize;
        if (generator.measureBatch && rows > 1) {
          const steps = { singleSteps: PRIMING_NEW_TOKENS, batchedSteps: PRIMING_NEW_TOKENS, rows, signal };
          await generator.measureBatch(PRIMING_MESSAGES, steps);
          const half = Math.max(1, Math.floor(newTokens / 2));
          const m = await generator.measureBatch(messages, {
            ...steps,
            singleSteps: half,
            batchedSteps: half,
          });
          const alone = (m.single.steps * MS_PER_S) / m.single.ms;
          const batched = m.paddingMasked;
          return {
            prefillTokensPerSecond: (m.promptTokens * MS_PER_S) / m.prefillMs,
            decodeTokensPerSecond: alone,
            batch: batched
              ? {
                  rows: m.batched.rows,
                  decodeTokensPerSecond: (m.batched.rows * m.batched.steps * MS_PER_S) / m.batched.ms,
                }
              : { rows: 1, decodeTokensPerSecond: alone },
            promptTokens: m.promptTokens,
            completionTokens: 1 + m.single.steps,
            modelTokensPerToken: ratio(m.promptTokens),
            seconds: (m.prefillMs + m.single.ms + m.batched.ms) / MS_PER_S,
            placement: generator.info.placement,
          };
        }
        await generator.generate(PRIMING_MESSAGES, { maxNewTokens: PRIMING_NEW_TOKENS, signal });
        const reply = await generator.generate(messages, { maxNewTokens: newTokens, signal });
        const speed = speedOf(reply);
        return {
          ...speed,
          batch: { rows: 1, decodeTokensPerSecond: speed.decodeTokensPerSecond },
          promptTokens: reply.promptTokens,
          completionTokens: reply.completionTokens,
          modelTokensPerToken: ratio(reply.promptTokens),
          seconds: reply.timing.totalMs / MS_PER_S,
          placement: generator.info.placement,
        };
      }
    },

    /** Stops every call in flight with this `requestId` (later calls with the same id are unaffected). */
    cancel(requestId: string): void {
      for (const controller of active.get(requestId) ?? []) controller.abort(new AbortError());
    },

    /** Serves this same service (and its loaded model) to another worker over `port`. */
    connect(port: MessagePort): void {
      expose(api, port);
    },

    /** What is loaded, if anything. */
    async info(): Promise<GeneratorInfo | undefined> {
      return current ? (await current.generator.catch(() => undefined))?.info : undefined;
    },

    /** Frees the loaded model (its files stay in the browser's cache). */
    async unload(): Promise<void> {
      const previous = current;
      current = undefined;
      await previous?.generator.then((g) => g.dispose()).catch(() => undefined);
    },
  };
  return api;
}

/** The API type, derived from the implementation (the page and the build worker use `Remote<GenerateApi>`). */
export type GenerateApi = ReturnType<typeof createGenerateService>;

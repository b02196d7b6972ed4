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
  addUse,
  type DeviceUse,
} from '../device';
import { ModelSlot, Requests, type CancelPolicy, type LoadPolicy } from '../service';
import { probeLlamaCpp, type LlamaCppSupport } from './gguf';
import { speedOf, type SpeedSample } from './generation-speed';
import {
  defaultPreset,
  resolveRuntime,
  type GeneratorChoice,
  type ResolvedGeneratorChoice,
} from './generator-presets';
import type {
  BuiltinGenerator,
  GenerateOptions,
  GenerationResult,
  GeneratorInfo,
} from './generator-contract';
import { loadGenerator, loadOnDevice, movedToCpu } from './generator-loader';

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
 * How the built-in model loads: another choice frees the loaded model at once (two language models need not fit
 * in memory together), a failed load leaves none, and the calls that fail on WebGPU share one move per service.
 */
const GENERATOR_POLICY: LoadPolicy = { replace: 'at-once', exit: 'per-service' };
/** A cancel stops the calls in flight with its id; later calls with the same id run. */
const GENERATE_CANCEL: CancelPolicy = 'calls-in-flight';

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
 * comlink exposes as a plain object, whose type the page derives with `ReturnType`); the longest, `generate`, is 63 lines. Loading once, the move off WebGPU and cancelling are
 * the skeleton's (src/models/service), loading on a device is generator-loader.ts's.
 */
// eslint-disable-next-line max-lines-per-function -- the service's closure: its state, short helpers and the API object comlink exposes (the page derives its type); each method is short
export function createGenerateService(runtime: RuntimeConfig, deps: GenerateServiceDeps = {}) {
  let configured = false;
  let gpu: Promise<GpuSupport> | undefined;
  const device = deps.gpu ?? new GpuDevice({ check: checkGpuOnKnownInput });
  /**
   * The loaded model, under the keys of the choices it serves: the one that loaded it and, after it left WebGPU,
   * its CPU copy's (calls settled on either find it).
   */
  const slot = new ModelSlot<BuiltinGenerator>(device, GENERATOR_POLICY);
  const listeners = new LoadListeners();
  /** Calls in flight by request id (several calls may share one id, e.g. all the summaries of a build). */
  const requests = new Requests(GENERATE_CANCEL);

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
    return slot.ensure(keyOf(resolved), {
      name: resolved.model,
      load: () => loadOnDevice(resolved, runtime, device, listeners.emit),
      // A model that left WebGPU while loading answers for its CPU choice too.
      aliases: (g) => [keyOf(g.info)],
    }).model;
  }

  /**
   * Moves the loaded model from WebGPU to the CPU after `error` (one reload however many calls fail at once).
   * Rejects with `error` when it is not a GPU problem or the model was not on WebGPU.
   */
  function leaveGpu(from: BuiltinGenerator, error: unknown): Promise<BuiltinGenerator> {
    const cpu = movedToCpu(from.info);
    return slot.leave(
      slot.current,
      from,
      error,
      (fallback) => loadGenerator(cpu, runtime, () => undefined).then((g) => g.withFallback(fallback)),
      [keyOf(cpu)],
    );
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
      const call = requests.track(requestId);
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
      const call = requests.track(options.requestId);
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
      const call = requests.track(options.requestId);
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
      requests.cancel(requestId);
    },

    /** Serves this same service (and its loaded model) to another worker over `port`. */
    connect(port: MessagePort): void {
      expose(api, port);
    },

    /** What is loaded, if anything. */
    async info(): Promise<GeneratorInfo | undefined> {
      return (await slot.loaded())?.info;
    },

    /** Frees the loaded model (its files stay in the browser's cache). */
    async unload(): Promise<void> {
      await slot.unload();
    },
  };
  return api;
}

/** The API type, derived from the implementation (the page and the build worker use `Remote<GenerateApi>`). */
export type GenerateApi = ReturnType<typeof createGenerateService>;

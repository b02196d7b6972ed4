/**
 * Text generation with transformers.js: an instruct model's chat template, greedy decoding with a KV cache,
 * text streamed as it is written, cancellation between tokens, and the timing of prompt processing and of
 * generation. Runs in a Web Worker (ONNX Runtime Web: WebGPU or WASM) and in Node (onnxruntime-node) with the
 * same code; only the device and the dtype differ.
 */
import {
  AutoModelForCausalLM,
  AutoTokenizer,
  env,
  StoppingCriteria,
  TextStreamer,
  type PreTrainedModel,
  type PreTrainedTokenizer,
  type ProgressInfo,
  type Tensor,
} from '@huggingface/transformers';
import { isAbortError, throwIfAborted, type AbortSignalLike } from '../core/abort';
import { AerieError } from '../core/errors';
import { Limiter } from '../llm/limiter';
import type { ChatMessage } from '../llm/types';
import { placementOf, type ModelLoadProgress } from './embedder';
import { GpuDevice, type GpuHandle } from './gpu-device';
import type { DeviceFallback, DeviceUse, ModelPlacement } from './placement';
import {
  builtinModelTag,
  type GenerationDevice,
  type GenerationDtype,
  type OnnxDtype,
  type ResolvedGeneratorChoice,
} from './generator-presets';
import { DecodeScheduler, type BatchMeasurement } from './decode-scheduler';
import { fileProgress } from './load-progress';
import { canDecode, OnnxDecodeEngine, type OnnxJob, type OnnxRow } from './onnx-decoder';
import { locateModel } from './presets';

/** Stable codes of `GeneratorError`; the UI keys its sentences on them. */
export type GeneratorErrorCode =
  /** huggingface.co could not be reached (offline, blocked): the caller falls back to extractive summaries. */
  | 'HUB_UNREACHABLE'
  /** No such model, or it lacks the ONNX file of the chosen dtype. */
  | 'MODEL_NOT_FOUND'
  /** The model is not a text-generation (causal LM) model, or has no chat template. */
  | 'NOT_TEXT_GENERATION'
  /** The browser or the GPU ran out of memory loading or running the model. */
  | 'OUT_OF_MEMORY'
  /** WebGPU was asked for and this browser has no adapter. */
  | 'NO_WEBGPU'
  /** A GGUF model was asked for and this browser lacks what llama.cpp's WebAssembly needs (details.missing). */
  | 'NO_LLAMA_CPP'
  /** The prompt and the answer do not fit in the model's context window. */
  | 'CONTEXT_TOO_LONG'
  /** A request the generator cannot serve (e.g. a token limit that is not a positive integer). */
  | 'INVALID_REQUEST'
  /** Loading failed for another reason (message included). */
  | 'LOAD_FAILED'
  /** Generation failed for another reason (message included). */
  | 'GENERATION_FAILED';

/** Why the built-in model could not load or answer. `details` holds the model, the numbers involved. */
export class GeneratorError extends AerieError<GeneratorErrorCode> {}

/** What a loaded generator is. */
export interface GeneratorInfo extends ResolvedGeneratorChoice {
  /** What a tree records as the writer of its summaries (`builtinModelTag`). */
  tag: string;
  /** WASM threads (1 on other devices). */
  threads: number;
  /** Prompt plus generated tokens the model accepts (its `max_position_embeddings`). */
  contextTokens: number;
  /**
   * Most summaries written together in one batch (`GenerateOptions.batch`); 1 where the runtime writes one reply
   * at a time (llama.cpp, WebGPU, a model whose cache cannot be batched).
   */
  batchSize: number;
  /** Where it runs, for people and records. */
  placement: ModelPlacement;
  /** Why it runs on the CPU although WebGPU was chosen or could have been used. */
  fallback?: DeviceFallback;
}

/** A reply written partly elsewhere (on WebGPU before it failed): its tokens and the text streamed for them. */
export interface ResumeFrom {
  tokens: readonly number[];
  text: string;
}

/** Options of one generation. */
export interface GenerateOptions {
  /** Most tokens to generate (the model's tokens); a positive integer. */
  maxNewTokens: number;
  /** Sampling temperature; unset or 0 is greedy decoding (repeatable: same prompt, same text). */
  temperature?: number;
  /** Stops generation before the next token (prompt processing itself runs to its end). */
  signal?: AbortSignalLike;
  /** Receives the text as it is written, whole words at a time; the pieces join to `GenerationResult.text`. */
  onText?: (delta: string) => void;
  /** Called after each generated token with the count so far (for tokens/s while it runs). */
  onToken?: (generated: number) => void;
  /**
   * A build's summary: it may be written together with other such replies (`GeneratorInfo.batchSize`). Unset
   * for a person's question, which is written alone and before any waiting summary.
   */
  batch?: boolean;
  /** Receives each generated token's id (a caller that may have to continue the reply elsewhere keeps them). */
  onTokenId?: (id: number) => void;
  /**
   * Continues a reply another model wrote the start of: its tokens are read after the prompt and count towards
   * `maxNewTokens`, `onText` receives only what follows `text`, and the result is the whole reply.
   */
  resume?: ResumeFrom;
}

/** Where the time of a generation went, in milliseconds. */
export interface GenerationTiming {
  /** From the start until the first generated token: prompt processing (the prefill) and one sampling step. */
  prefillMs: number;
  /** From the first generated token to the last (completionTokens − 1 decoding steps), wall time. */
  decodeMs: number;
  /**
   * This reply's share of the decoding steps it took part in: each step's time divided among the replies it
   * wrote. Equals `decodeMs` when the reply was written alone; summed over a batch's replies, it is the batch's
   * decoding time (so tokens per second over a build count each step once).
   */
  decodeShareMs?: number;
  totalMs: number;
}

/** What the warm-up's batched timing runs (`BuiltinGenerator.measureBatch`). */
export interface MeasureOptions {
  /** Decoding steps of the prompt's one row, then of `rows` rows continuing it. */
  singleSteps: number;
  batchedSteps: number;
  rows: number;
  signal?: AbortSignalLike;
}

/** A finished generation. */
export interface GenerationResult {
  /** The generated text, special tokens removed (not trimmed). */
  text: string;
  /** Tokens of the chat-templated prompt. */
  promptTokens: number;
  /** Tokens generated, an end-of-turn token included. */
  completionTokens: number;
  /** `stop`: the model ended its turn; `length`: it reached `maxNewTokens`. */
  finishReason: 'stop' | 'length';
  timing: GenerationTiming;
  /** Where its tokens were written (the generate service says; two entries when WebGPU failed mid-reply). */
  ranOn?: DeviceUse[];
}

/**
 * A loaded language model of either runtime: `TransformersGenerator` (ONNX) or `LlamaCppGenerator` (GGUF,
 * llama-cpp-generator.ts). The generate service holds one.
 */
export interface BuiltinGenerator {
  readonly info: GeneratorInfo;
  /** See `TransformersGenerator.generate`. */
  generate(messages: readonly ChatMessage[], options: GenerateOptions): Promise<GenerationResult>;
  /**
   * Tokens of plain text in the model's vocabulary (no template, no special tokens), where the runtime has its
   * tokenizer in JavaScript (ONNX models; llama.cpp's would cost a pass of the model over the text).
   */
  countTextTokens?(text: string): number;
  /**
   * The warm-up's timing of batched decoding (see `DecodeScheduler.measure`), where the runtime batches; the
   * service times a plain generation otherwise.
   */
  measureBatch?(messages: readonly ChatMessage[], options: MeasureOptions): Promise<BatchMeasurement>;
  /** Frees the model. */
  dispose(): Promise<void>;
}

/** Refuses a token limit that is not a positive integer (INVALID_REQUEST), before a generation waits its turn. */
export function checkMaxNewTokens(maxNewTokens: number): void {
  if (!Number.isInteger(maxNewTokens) || maxNewTokens <= 0) {
    throw new GeneratorError(
      'INVALID_REQUEST',
      `maxNewTokens must be a positive integer (got ${maxNewTokens}).`,
      {
        maxNewTokens,
      },
    );
  }
}

/**
 * Generations one at a time (llama.cpp's context runs one inference at a time): later calls wait their turn
 * and leave the queue when cancelled; a person's question (no `batch`) waits ahead of every waiting summary, so
 * it waits for the reply in progress only. Subclasses write one reply in `run`.
 */
export abstract class QueuedGenerator {
  private readonly queue = new Limiter(1);

  /**
   * Writes the assistant's reply to `messages` (greedy unless `temperature` > 0), streaming it through
   * `onText`. Waits for the generation in progress, and a summary for earlier ones and every question.
   * @throws GeneratorError (CONTEXT_TOO_LONG, OUT_OF_MEMORY, GENERATION_FAILED, INVALID_REQUEST), or an
   *   AbortError when `signal` fires (while waiting, or between tokens).
   */
  async generate(messages: readonly ChatMessage[], options: GenerateOptions): Promise<GenerationResult> {
    checkMaxNewTokens(options.maxNewTokens);
    return this.queue.run(() => this.run(messages, options), options.signal, { first: !options.batch });
  }

  /** One reply, once it is this call's turn. */
  protected abstract run(
    messages: readonly ChatMessage[],
    options: GenerateOptions,
  ): Promise<GenerationResult>;
}

/** Error messages of ONNX Runtime, WebAssembly and WebGPU when memory runs out. */
const OUT_OF_MEMORY =
  /out of memory|bad_alloc|array buffer allocation failed|could not allocate|failed to allocate|allocation failed|memory access out of bounds|maximum memory size exceeded|WebAssembly\.Memory|device (?:was )?lost|OOM/i;
const NOT_FOUND = /could not locate file|not found|404|no such file|ENOENT|ModelFileNotFoundError/i;
const NOT_CAUSAL =
  /unsupported model type|unrecognized configuration|model_type|does not support|cannot generate|not a (?:causal|text)/i;
const NETWORK = /fetch|network|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|unreachable|offline/i;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function outOfMemory(model: string, message: string, phase: 'load' | 'generate'): GeneratorError {
  return new GeneratorError(
    'OUT_OF_MEMORY',
    `The built-in model "${model}" ran out of memory while ${phase === 'load' ? 'loading' : 'writing'} ` +
      `(${message}). Close other tabs, choose a smaller model, or use an LLM endpoint.`,
    { model, phase },
  );
}

/** Turns a loading failure into the error a user can act on. */
export function classifyLoadError(error: unknown, model: string): GeneratorError {
  if (error instanceof GeneratorError) return error;
  const message = messageOf(error);
  if (OUT_OF_MEMORY.test(message) || error instanceof RangeError) return outOfMemory(model, message, 'load');
  if ((error as Error | undefined)?.name === 'ModelFileNotFoundError' || NOT_FOUND.test(message)) {
    return new GeneratorError(
      'MODEL_NOT_FOUND',
      `The language model "${model}" was not found, or has no ONNX weights of the chosen precision (${message}).`,
      { model },
    );
  }
  if (NOT_CAUSAL.test(message)) {
    return new GeneratorError(
      'NOT_TEXT_GENERATION',
      `"${model}" is not a text-generation model that Aerie can run (${message}). Choose an instruct model ` +
        'with ONNX weights, such as one of the presets.',
      { model },
    );
  }
  if (error instanceof TypeError || NETWORK.test(message)) {
    return new GeneratorError(
      'HUB_UNREACHABLE',
      `The model hub (huggingface.co) could not be reached to download "${model}". Aerie uses its extractive ` +
        'summaries until it can; check the connection and try again.',
      { model },
    );
  }
  return new GeneratorError('LOAD_FAILED', `The language model "${model}" could not be loaded: ${message}`, {
    model,
  });
}

/** Stops `generate` before the next token once the signal has fired. */
class AbortCriteria extends StoppingCriteria {
  constructor(private readonly signal: AbortSignalLike | undefined) {
    super();
  }

  override _call(inputIds: number[][]): boolean[] {
    return inputIds.map(() => !!this.signal?.aborted);
  }
}

/** The chat template's text for `messages`, with the assistant's header appended. */
function chatPrompt(tokenizer: PreTrainedTokenizer, messages: readonly ChatMessage[], model: string): string {
  try {
    return tokenizer.apply_chat_template(
      messages.map((m) => ({ role: m.role, content: m.content })),
      { tokenize: false, add_generation_prompt: true },
    ) as string;
  } catch (error) {
    throw new GeneratorError(
      'NOT_TEXT_GENERATION',
      `"${model}" has no usable chat template (${messageOf(error)}): choose an instruct (chat) model.`,
      { model },
    );
  }
}

function now(): number {
  return performance.now();
}

/** Replies decoded together on the CPU (WASM or Node) unless the runtime says otherwise (`npm run bench llm`). */
export const DEFAULT_CPU_BATCH_SIZE = 8;
/**
 * Most bytes a batch's key/value cache may reach (twice that while a step copies it into the next): 8 summary
 * prompts of ~1,500 tokens with their 100-token summaries for Qwen2.5-0.5B (24 kB a position).
 */
export const BATCH_CACHE_BUDGET_BYTES = 320 * 1024 * 1024;

/** Options of `TransformersGenerator.load`. */
export interface TransformersLoadOptions {
  onProgress?: (p: ModelLoadProgress) => void;
  /** Most summaries written together on the CPU. Default DEFAULT_CPU_BATCH_SIZE; WebGPU always writes one. */
  batchSize?: number;
  /** The WebGPU device to run on (gpu-device.ts); without one, ONNX Runtime makes its own. */
  gpu?: GpuHandle;
}

/** Classifies an error of a forward pass (OUT_OF_MEMORY, GENERATION_FAILED); cancellations pass through. */
function generationError(error: unknown, model: string): unknown {
  if (isAbortError(error) || error instanceof GeneratorError) return error;
  const message = messageOf(error);
  if (OUT_OF_MEMORY.test(message) || error instanceof RangeError)
    return outOfMemory(model, message, 'generate');
  return new GeneratorError('GENERATION_FAILED', `The built-in model "${model}" failed: ${message}`, {
    model,
  });
}

/**
 * One loaded instruct model. Create with `TransformersGenerator.load`. Replies are written by a
 * `DecodeScheduler` over the model (onnx-decoder.ts): a person's question alone and first, a build's summaries
 * (`batch: true`) up to `info.batchSize` together. A model whose cache the loop cannot batch (a hybrid
 * architecture) keeps transformers.js's own `generate`, one reply at a time.
 */
export class TransformersGenerator implements BuiltinGenerator {
  private readonly eosIds: Set<number>;
  private readonly scheduler?: DecodeScheduler<OnnxJob, OnnxRow>;
  /** One `generate` at a time, for a model the scheduler cannot decode. */
  private readonly queue = new Limiter(1);

  private constructor(
    private readonly model: PreTrainedModel,
    private readonly tokenizer: PreTrainedTokenizer,
    private settled: GeneratorInfo,
    decodable: boolean,
  ) {
    const ids = [
      (model.generation_config as { eos_token_id?: number | number[] } | null)?.eos_token_id,
      (model.config as { eos_token_id?: number | number[] }).eos_token_id,
    ].flat();
    this.eosIds = new Set(ids.filter((id): id is number => typeof id === 'number'));
    if (decodable) {
      this.scheduler = new DecodeScheduler(new OnnxDecodeEngine(model), {
        batchSize: settled.batchSize,
        cacheBudgetBytes: BATCH_CACHE_BUDGET_BYTES,
      });
    }
  }

  /**
   * Loads the tokenizer and the model (downloads from the hub are cached by transformers.js in browsers).
   * `choice` must be resolved (resolveRuntime). Cancel a download by ending the worker: transformers.js cannot
   * stop a fetch; files already complete stay cached, so the next load resumes from them.
   * @throws GeneratorError (classifyLoadError's codes).
   */
  static async load(
    choice: Omit<ResolvedGeneratorChoice, 'runtime'> & Partial<Pick<ResolvedGeneratorChoice, 'runtime'>>,
    options: TransformersLoadOptions = {},
  ): Promise<TransformersGenerator> {
    const { model, device, dtype } = choice;
    const location = locateModel(model);
    if (location.kind === 'endpoint') {
      throw new GeneratorError('NOT_TEXT_GENERATION', `"${model}" names an endpoint, not a browser model.`, {
        model,
      });
    }
    if (device === 'webgpu' && !(globalThis as { navigator?: { gpu?: unknown } }).navigator?.gpu) {
      throw new GeneratorError('NO_WEBGPU', 'This browser has no WebGPU: choose a CPU model.', { model });
    }
    // A local model must never fall back to the hub silently, and a hub model should not probe our origin.
    env.allowLocalModels = location.kind === 'local';
    env.allowRemoteModels = location.kind === 'hub';
    const name = location.kind === 'local' ? location.folder : location.repo;
    const progress_callback = (info: ProgressInfo) => {
      const p = options.onProgress && fileProgress(info);
      if (p) options.onProgress!(p);
    };
    const session_options =
      device === 'webgpu' && options.gpu ? GpuDevice.sessionOptionsFor(options.gpu) : undefined;
    const [tokenizerLoad, modelLoad] = await Promise.allSettled([
      AutoTokenizer.from_pretrained(name, { progress_callback }),
      AutoModelForCausalLM.from_pretrained(name, {
        dtype: dtype as OnnxDtype,
        device,
        progress_callback,
        ...(session_options ? { session_options } : {}),
      }),
    ]);
    // The model's failure explains more (a missing tokenizer config surfaces as a bare TypeError).
    if (modelLoad.status === 'rejected') throw classifyLoadError(modelLoad.reason, model);
    const lm = modelLoad.value;
    if (tokenizerLoad.status === 'rejected') {
      await lm.dispose().catch(() => undefined);
      throw classifyLoadError(tokenizerLoad.reason, model);
    }
    const tokenizer = tokenizerLoad.value;
    if (typeof (lm as { generate?: unknown }).generate !== 'function' || !tokenizer.chat_template) {
      await lm.dispose().catch(() => undefined);
      throw new GeneratorError(
        'NOT_TEXT_GENERATION',
        `"${model}" ${tokenizer.chat_template ? 'cannot generate text' : 'has no chat template'}: choose an ` +
          'instruct (chat) model.',
        { model },
      );
    }
    const config = lm.config as { max_position_embeddings?: number };
    const threads = device === 'wasm' ? Number(env.backends.onnx.wasm?.numThreads ?? 1) : 1;
    const decodable = canDecode(lm);
    // WebGPU keeps its cache on the GPU, where rows cannot be regrouped here: one reply at a time.
    const batchSize =
      decodable && device !== 'webgpu'
        ? Math.max(1, Math.floor(options.batchSize ?? DEFAULT_CPU_BATCH_SIZE))
        : 1;
    return new TransformersGenerator(
      lm,
      tokenizer,
      {
        model,
        runtime: 'onnx',
        ...(choice.note ? { note: choice.note } : {}),
        device: device as GenerationDevice,
        dtype: dtype as GenerationDtype,
        tag: builtinModelTag(choice),
        threads,
        contextTokens:
          config.max_position_embeddings ?? tokenizer.model_max_length ?? Number.MAX_SAFE_INTEGER,
        batchSize,
        placement: placementOf(device as GenerationDevice, options.gpu?.adapter),
      },
      decodable,
    );
  }

  /** The same generator, said to run on the CPU because of `fallback`. */
  withFallback(fallback: DeviceFallback): this {
    this.settled = { ...this.settled, fallback };
    return this;
  }

  /** What is loaded; `batchSize` drops to 1 if the warm-up finds the model cannot be batched. */
  get info(): GeneratorInfo {
    return this.settled;
  }

  /** Tokens of `messages` once chat-templated (with the assistant's header), as `generate` counts them. */
  countPromptTokens(messages: readonly ChatMessage[]): number {
    return this.encode(messages).input_ids.dims[1];
  }

  /** Tokens of plain text in this model's tokenizer (no template, no special tokens). */
  countTextTokens(text: string): number {
    return this.tokenizer.encode(text, { add_special_tokens: false }).length;
  }

  private encode(messages: readonly ChatMessage[]): { input_ids: Tensor; attention_mask: Tensor } {
    const prompt = chatPrompt(this.tokenizer, messages, this.info.model);
    return this.tokenizer(prompt, { add_special_tokens: false }) as {
      input_ids: Tensor;
      attention_mask: Tensor;
    };
  }

  /** The prompt's tokens, refused when it and the reply do not fit in the context. */
  private promptOf(messages: readonly ChatMessage[], maxNewTokens: number) {
    const inputs = this.encode(messages);
    const promptTokens = inputs.input_ids.dims[1];
    const { contextTokens, model } = this.info;
    if (promptTokens + maxNewTokens > contextTokens) {
      throw new GeneratorError(
        'CONTEXT_TOO_LONG',
        `The prompt (${promptTokens} tokens) and the reply (up to ${maxNewTokens}) do not fit in ` +
          `${model}'s context of ${contextTokens} tokens.`,
        { promptTokens, maxNewTokens, contextTokens },
      );
    }
    return { inputs, promptTokens };
  }

  /**
   * The streamer of a reply (its prompt already skipped), which collects the reply's text: for a resumed reply,
   * fed the earlier tokens first, silently up to the text already streamed for them (the same tokens stream the
   * same text, so it then holds back what the first streamer held back, and goes on exactly as it would have).
   */
  private resumableStreamer(options: GenerateOptions): TextStreamer & { readonly text: string } {
    let skip = options.resume?.text.length ?? 0;
    let text = options.resume?.text ?? '';
    const streamer = this.streamer((piece) => {
      const cut = Math.min(skip, piece.length);
      skip -= cut;
      const delta = piece.slice(cut);
      if (!delta) return;
      text += delta;
      options.onText?.(delta);
    });
    streamer.put([[]]);
    for (const id of options.resume?.tokens ?? []) streamer.put([[BigInt(id)]]);
    return Object.defineProperty(streamer, 'text', { get: () => text }) as TextStreamer & {
      readonly text: string;
    };
  }

  /** A streamer that turns tokens into text whole words at a time, as `generate`'s TextStreamer does. */
  private streamer(onText: (delta: string) => void, onToken?: (tokens: bigint[]) => void): TextStreamer {
    return new TextStreamer(this.tokenizer, {
      skip_prompt: true,
      skip_special_tokens: true,
      callback_function: onText,
      token_callback_function: onToken,
    });
  }

  /**
   * Writes the assistant's reply to `messages` (greedy unless `temperature` > 0), streaming it through
   * `onText`. A question waits only for the forward pass in progress; a summary (`batch`) waits for a free row.
   * @throws GeneratorError (CONTEXT_TOO_LONG, OUT_OF_MEMORY, GENERATION_FAILED, INVALID_REQUEST), or an
   *   AbortError when `signal` fires (while waiting, or between tokens).
   */
  async generate(messages: readonly ChatMessage[], options: GenerateOptions): Promise<GenerationResult> {
    checkMaxNewTokens(options.maxNewTokens);
    throwIfAborted(options.signal);
    const { inputs, promptTokens } = this.promptOf(messages, options.maxNewTokens);
    const resumed = options.resume?.tokens ?? [];
    const left = options.maxNewTokens - resumed.length;
    if (left <= 0) {
      // The reply had reached its limit where it was written.
      return {
        text: options.resume?.text ?? '',
        promptTokens,
        completionTokens: resumed.length,
        finishReason: 'length',
        timing: { prefillMs: 0, decodeMs: 0, totalMs: 0 },
      };
    }
    if (!this.scheduler) {
      if (resumed.length > 0) {
        // transformers.js's own generate cannot be primed with the reply's start: only the decode loop resumes.
        throw new GeneratorError(
          'GENERATION_FAILED',
          `The built-in model "${this.info.model}" cannot continue a reply begun elsewhere; ask again.`,
          { model: this.info.model },
        );
      }
      return this.queue.run(() => this.generateWhole(inputs, promptTokens, options), options.signal, {
        first: !options.batch,
      });
    }
    const streamer = this.resumableStreamer(options);
    const job: OnnxJob = {
      promptIds: [...Array.from(inputs.input_ids.data as BigInt64Array, Number), ...resumed],
      promptTokens: promptTokens + resumed.length,
      maxNewTokens: left,
      lane: options.batch ? 'bulk' : 'interactive',
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      onToken: (token, count) => {
        streamer.put([[BigInt(token)]]);
        options.onTokenId?.(token);
        options.onToken?.(resumed.length + count);
      },
    };
    try {
      const outcome = await this.scheduler.submit(job);
      streamer.end();
      return {
        text: streamer.text,
        promptTokens,
        completionTokens: resumed.length + outcome.tokens.length,
        finishReason: outcome.finishReason,
        timing: {
          prefillMs: outcome.timing.prefillMs,
          decodeMs: outcome.timing.decodeMs,
          decodeShareMs: outcome.timing.decodeShareMs,
          totalMs: outcome.timing.totalMs,
        },
      };
    } catch (error) {
      throw generationError(error, this.info.model);
    }
  }

  /**
   * Times a prompt read alone, `singleSteps` decoding steps of its row, then `batchedSteps` steps of `rows`
   * rows continuing it (padded, so a model that ignored its attention mask would write other tokens).
   */
  async measureBatch(messages: readonly ChatMessage[], options: MeasureOptions): Promise<BatchMeasurement> {
    if (!this.scheduler) throw new GeneratorError('INVALID_REQUEST', 'This model is not decoded in batches.');
    const { inputs, promptTokens } = this.promptOf(messages, options.singleSteps + options.batchedSteps + 1);
    const job: OnnxJob = {
      promptIds: Array.from(inputs.input_ids.data as BigInt64Array, Number),
      promptTokens,
      maxNewTokens: options.singleSteps + options.batchedSteps + 1,
      lane: 'interactive',
      ...(options.signal ? { signal: options.signal } : {}),
    };
    let measured: BatchMeasurement;
    try {
      measured = await this.scheduler.measure(job, {
        singleSteps: options.singleSteps,
        batchedSteps: options.batchedSteps,
        rows: Math.min(options.rows, this.info.batchSize),
      });
    } catch (error) {
      throw generationError(error, this.info.model);
    }
    if (!measured.paddingMasked) {
      this.scheduler.batchSize = 1;
      const why = 'summaries are written one at a time (together, this model wrote other words than alone)';
      this.settled = {
        ...this.settled,
        batchSize: 1,
        note: this.settled.note ? `${this.settled.note}; ${why}` : why,
      };
    }
    return measured;
  }

  /** One whole reply through transformers.js's `generate` (models the scheduler cannot decode). */
  private async generateWhole(
    inputs: { input_ids: Tensor; attention_mask: Tensor },
    promptTokens: number,
    options: GenerateOptions,
  ): Promise<GenerationResult> {
    const { signal, maxNewTokens } = options;
    throwIfAborted(signal);
    let text = '';
    let generated = 0;
    let firstTokenAt = 0;
    let lastTokenAt = 0;
    const streamer = this.streamer(
      (delta) => {
        text += delta;
        options.onText?.(delta);
      },
      (tokens: bigint[]) => {
        lastTokenAt = now();
        if (generated === 0) firstTokenAt = lastTokenAt;
        generated++;
        for (const id of tokens) options.onTokenId?.(Number(id));
        options.onToken?.(generated);
      },
    );
    const sampling =
      options.temperature !== undefined && options.temperature > 0
        ? { do_sample: true, temperature: options.temperature }
        : { do_sample: false };
    const started = now();
    let output: Tensor;
    try {
      output = (await this.model.generate({
        ...inputs,
        ...sampling,
        max_new_tokens: maxNewTokens,
        streamer,
        stopping_criteria: [new AbortCriteria(signal)],
      } as Parameters<PreTrainedModel['generate']>[0])) as Tensor;
    } catch (error) {
      throw generationError(error, this.info.model);
    }
    const finished = now();
    throwIfAborted(signal);
    const ids = output.data as BigInt64Array;
    const lastId = ids.length > promptTokens ? Number(ids[ids.length - 1]) : -1;
    output.dispose?.();
    return {
      text,
      promptTokens,
      completionTokens: generated,
      finishReason: this.eosIds.has(lastId) ? 'stop' : 'length',
      timing: {
        prefillMs: (generated ? firstTokenAt : finished) - started,
        decodeMs: generated ? lastTokenAt - firstTokenAt : 0,
        totalMs: finished - started,
      },
    };
  }

  /** Frees the ONNX session (replies still waiting are cancelled). */
  async dispose(): Promise<void> {
    this.scheduler?.close();
    await this.model.dispose();
  }
}

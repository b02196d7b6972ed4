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
import { throwIfAborted, type AbortSignalLike } from '../core/abort';
import { AerieError } from '../core/errors';
import { Limiter } from '../llm/limiter';
import type { ChatMessage } from '../llm/types';
import type { ModelLoadProgress } from './embedder';
import {
  builtinModelTag,
  type GenerationDevice,
  type GenerationDtype,
  type OnnxDtype,
  type ResolvedGeneratorChoice,
} from './generator-presets';
import { fileProgress } from './load-progress';
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
}

/** Where the time of a generation went, in milliseconds. */
export interface GenerationTiming {
  /** From the start until the first generated token: prompt processing (the prefill) and one sampling step. */
  prefillMs: number;
  /** From the first generated token to the last (completionTokens − 1 decoding steps). */
  decodeMs: number;
  totalMs: number;
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
 * Generations one at a time (an ONNX session and llama.cpp's context each run one inference at a time): later
 * calls wait their turn and leave the queue when cancelled. Subclasses write one reply in `run`.
 */
export abstract class QueuedGenerator {
  private readonly queue = new Limiter(1);

  /**
   * Writes the assistant's reply to `messages` (greedy unless `temperature` > 0), streaming it through
   * `onText`. Waits for earlier generations to finish first.
   * @throws GeneratorError (CONTEXT_TOO_LONG, OUT_OF_MEMORY, GENERATION_FAILED, INVALID_REQUEST), or an
   *   AbortError when `signal` fires (while waiting, or between tokens).
   */
  async generate(messages: readonly ChatMessage[], options: GenerateOptions): Promise<GenerationResult> {
    checkMaxNewTokens(options.maxNewTokens);
    return this.queue.run(() => this.run(messages, options), options.signal);
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

/**
 * One loaded instruct model. Create with `TransformersGenerator.load`. Generations run one at a time (an ONNX
 * session runs one inference at a time); later calls wait their turn, and leave the queue when cancelled.
 */
export class TransformersGenerator extends QueuedGenerator implements BuiltinGenerator {
  private readonly eosIds: Set<number>;

  private constructor(
    private readonly model: PreTrainedModel,
    private readonly tokenizer: PreTrainedTokenizer,
    readonly info: GeneratorInfo,
  ) {
    super();
    const ids = [
      (model.generation_config as { eos_token_id?: number | number[] } | null)?.eos_token_id,
      (model.config as { eos_token_id?: number | number[] }).eos_token_id,
    ].flat();
    this.eosIds = new Set(ids.filter((id): id is number => typeof id === 'number'));
  }

  /**
   * Loads the tokenizer and the model (downloads from the hub are cached by transformers.js in browsers).
   * `choice` must be resolved (resolveRuntime). Cancel a download by ending the worker: transformers.js cannot
   * stop a fetch; files already complete stay cached, so the next load resumes from them.
   * @throws GeneratorError (classifyLoadError's codes).
   */
  static async load(
    choice: Omit<ResolvedGeneratorChoice, 'runtime'> & Partial<Pick<ResolvedGeneratorChoice, 'runtime'>>,
    options: { onProgress?: (p: ModelLoadProgress) => void } = {},
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
    const [tokenizerLoad, modelLoad] = await Promise.allSettled([
      AutoTokenizer.from_pretrained(name, { progress_callback }),
      AutoModelForCausalLM.from_pretrained(name, {
        dtype: dtype as OnnxDtype,
        device,
        progress_callback,
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
    return new TransformersGenerator(lm, tokenizer, {
      model,
      runtime: 'onnx',
      ...(choice.note ? { note: choice.note } : {}),
      device: device as GenerationDevice,
      dtype: dtype as GenerationDtype,
      tag: builtinModelTag(choice),
      threads,
      contextTokens: config.max_position_embeddings ?? tokenizer.model_max_length ?? Number.MAX_SAFE_INTEGER,
    });
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

  protected async run(messages: readonly ChatMessage[], options: GenerateOptions): Promise<GenerationResult> {
    const { signal, maxNewTokens } = options;
    throwIfAborted(signal);
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
    let text = '';
    let generated = 0;
    let firstTokenAt = 0;
    let lastTokenAt = 0;
    const streamer = new TextStreamer(this.tokenizer, {
      skip_prompt: true,
      skip_special_tokens: true,
      callback_function: (delta: string) => {
        text += delta;
        options.onText?.(delta);
      },
      token_callback_function: () => {
        lastTokenAt = now();
        if (generated === 0) firstTokenAt = lastTokenAt;
        generated++;
        options.onToken?.(generated);
      },
    });
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
      const message = messageOf(error);
      if (OUT_OF_MEMORY.test(message) || error instanceof RangeError)
        throw outOfMemory(model, message, 'generate');
      throw new GeneratorError('GENERATION_FAILED', `The built-in model "${model}" failed: ${message}`, {
        model,
      });
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

  /** Frees the ONNX session. */
  async dispose(): Promise<void> {
    await this.model.dispose();
  }
}

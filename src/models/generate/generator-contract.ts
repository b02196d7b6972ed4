/**
 * The built-in generator's contract, shared by every runtime (transformers.js: transformers-generator.ts;
 * llama.cpp: llama-cpp-generator.ts): what a loaded generator is and does (`BuiltinGenerator`, its options and
 * results), its typed errors and how a runtime's failures become them, and the one-at-a-time queue a runtime
 * may write its replies through. No model code.
 */
import { isAbortError, type AbortSignalLike } from '../../core/abort';
import { AerieError } from '../../core/errors';
import { Limiter } from '../../core/limiter';
import type { ChatMessage } from '../../core/chat';
import type { BatchMeasurement } from './decode-scheduler';
import type { ResolvedGeneratorChoice } from './generator-presets';
import type { DeviceFallback, DeviceUse, ModelPlacement } from '../device';

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
  /** See `QueuedGenerator.generate`: the same contract. */
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

/** The message of a thrown value. */
export function messageOf(error: unknown): string {
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

/** Classifies an error of a forward pass (OUT_OF_MEMORY, GENERATION_FAILED); cancellations pass through. */
export function generationError(error: unknown, model: string): unknown {
  if (isAbortError(error) || error instanceof GeneratorError) return error;
  const message = messageOf(error);
  if (OUT_OF_MEMORY.test(message) || error instanceof RangeError)
    return outOfMemory(model, message, 'generate');
  return new GeneratorError('GENERATION_FAILED', `The built-in model "${model}" failed: ${message}`, {
    model,
  });
}

/**
 * One reply of a `ChatGenerator` (the fields of the generator's GenerationResult that src/llm/builtin.ts needs).
 */
export interface GeneratedReply {
  text: string;
  promptTokens: number;
  completionTokens: number;
  finishReason: 'stop' | 'length';
  /** Milliseconds of prompt processing and of generation (see GenerationTiming). */
  timing: { prefillMs: number; decodeMs: number; decodeShareMs?: number; totalMs: number };
  /** Where its tokens were written (several entries when WebGPU failed mid-reply). */
  ranOn?: DeviceUse[];
}

/**
 * A loaded language model that writes chat replies: `TransformersGenerator` itself (Node, tests), or a client
 * of the generate worker (`remoteGenerator` in generate-client.ts); what src/llm/builtin.ts puts behind the
 * endpoints' functions.
 */
export interface ChatGenerator {
  /** `model`: the model string; `tag`: what a tree records as the writer of its summaries. */
  readonly info: { model: string; tag: string };
  generate(
    messages: readonly ChatMessage[],
    options: Pick<
      GenerateOptions,
      'maxNewTokens' | 'temperature' | 'signal' | 'onText' | 'onToken' | 'batch'
    >,
  ): Promise<GeneratedReply>;
}

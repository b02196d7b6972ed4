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
import { throwIfAborted, type AbortSignalLike } from '../../core/abort';
import { Limiter } from '../../core/limiter';
import type { ChatMessage } from '../../core/chat';
import { loadFirstPresent, placementOf } from '../embed';
import { type ModelLoadProgress, fileProgress } from '../files';
import { GpuDevice, type GpuHandle } from '../device';
import type { DeviceFallback } from '../device';
import {
  checkMaxNewTokens,
  classifyLoadError,
  generationError,
  GeneratorError,
  messageOf,
  type BuiltinGenerator,
  type GenerateOptions,
  type GenerationResult,
  type GeneratorInfo,
  type MeasureOptions,
} from './generator-contract';
import {
  builtinModelTag,
  type GenerationDevice,
  type OnnxDtype,
  type ResolvedGeneratorChoice,
} from './generator-presets';
import { DecodeScheduler, type BatchMeasurement } from './decode-scheduler';
import { canDecode, OnnxDecodeEngine, type OnnxJob, type OnnxRow } from './onnx-decoder';
import { locateModel } from '../embed/embedding-presets';

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
    // An `auto` dtype whose file the model lacks loads the next weights it has (`dtypeFallbacks`).
    const weights = [dtype, ...(choice.dtypeFallbacks ?? [])];
    const [tokenizerLoad, modelLoad] = await Promise.allSettled([
      AutoTokenizer.from_pretrained(name, { progress_callback }),
      loadFirstPresent(weights, async (tried) => {
        try {
          const lm = await AutoModelForCausalLM.from_pretrained(name, {
            dtype: tried as OnnxDtype,
            device,
            progress_callback,
            ...(session_options ? { session_options } : {}),
          });
          return { lm, loaded: tried };
        } catch (error) {
          throw classifyLoadError(error, model);
        }
      }),
    ]);
    // The model's failure explains more (a missing tokenizer config surfaces as a bare TypeError).
    if (modelLoad.status === 'rejected') throw classifyLoadError(modelLoad.reason, model);
    const { lm, loaded } = modelLoad.value;
    // Weights other than those asked for: the model's files decided, and the user is told which were missing.
    // The device's reason is said only where it holds: a copy moved to the CPU keeps the weights, not the reason.
    const missing = weights.slice(0, weights.indexOf(loaded));
    const dtypeWhy = [
      device === 'webgpu' ? choice.dtypeWhy : undefined,
      missing.length ? `the model has no ${missing.join(' or ')} weights` : undefined,
    ]
      .filter(Boolean)
      .join('; ');
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
        ...(dtypeWhy ? { dtypeWhy } : {}),
        device: device as GenerationDevice,
        dtype: loaded,
        tag: builtinModelTag({ model, dtype: loaded }),
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

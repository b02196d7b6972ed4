/**
 * A cross-encoder reranker with transformers.js (e.g. Xenova/ms-marco-MiniLM-L-6-v2): each (question, passage)
 * pair is read by the model together and given one relevance logit. Runs in the embedding worker (ONNX Runtime
 * Web) and in Node (onnxruntime-node) with the same code. Model strings as embedding-presets.ts names them (a
 * hub id or `local:<folder>`); a local model never falls back to the hub.
 */
import {
  AutoModelForSequenceClassification,
  AutoTokenizer,
  type PreTrainedModel,
  type PreTrainedTokenizer,
} from '@huggingface/transformers';
import { throwIfAborted, type AbortSignalLike } from '../../core/abort';
import { yieldToEventLoop } from '../../core/yield';
import { EmbedderError, loadEachDtype, type EmbeddingDevice, type LoadOptions } from './embedder';
import type { DeviceFallback, ModelPlacement } from '../device';
import type { EmbeddingDtype } from './embedding-presets';

/** Pairs per forward pass. */
export const RERANK_BATCH_SIZE = 16;
/**
 * Characters of the question a pair keeps: a 10,000-character question would otherwise crowd the passage out
 * of the model's 512 tokens (pairs are truncated to the model's length as a last resort).
 */
export const RERANK_QUESTION_CHARS = 1000;

/** What a loaded reranker is. */
export interface RerankerInfo {
  model: string;
  dtype: EmbeddingDtype;
  device: Exclude<EmbeddingDevice, 'auto'>;
  /** Where it runs, for people. */
  placement: ModelPlacement;
  /** Why it runs on the CPU although WebGPU was chosen or could have been used. */
  fallback?: DeviceFallback;
}

/** One loaded cross-encoder. Create with `CrossEncoder.load`. */
export class CrossEncoder {
  private constructor(
    private readonly tokenizer: PreTrainedTokenizer,
    private readonly model: PreTrainedModel,
    readonly info: RerankerInfo,
  ) {}

  /**
   * Loads a cross-encoder.
   * @throws EmbedderError MODEL_NOT_FOUND, HUB_UNREACHABLE (hub models only), LOAD_FAILED, UNSUPPORTED_MODEL;
   *   ModelIdError INVALID_MODEL_ID.
   */
  static async load(model: string, options: LoadOptions = {}): Promise<CrossEncoder> {
    const { loaded, dtype, device, placement } = await loadEachDtype(
      model,
      options,
      'reranker model',
      async (name, pretrained) => ({
        tokenizer: await AutoTokenizer.from_pretrained(name, {
          progress_callback: pretrained.progress_callback,
        }),
        model: await AutoModelForSequenceClassification.from_pretrained(name, pretrained),
      }),
    );
    return new CrossEncoder(loaded.tokenizer, loaded.model, { model, dtype, device, placement });
  }

  /** The same reranker, said to run on the CPU because of `fallback`. */
  withFallback(fallback: DeviceFallback): this {
    (this.info as RerankerInfo).fallback = fallback;
    return this;
  }

  /**
   * One relevance logit per passage for `question` (higher is more relevant), in passage order.
   * @throws EmbedderError EMBED_FAILED when the model fails; AbortError when `signal` fires (between batches).
   */
  async score(
    question: string,
    passages: readonly string[],
    options: { batchSize?: number; signal?: AbortSignalLike } = {},
  ): Promise<Float32Array> {
    const out = new Float32Array(passages.length);
    const query = question.slice(0, RERANK_QUESTION_CHARS);
    const batchSize = options.batchSize ?? RERANK_BATCH_SIZE;
    for (let start = 0; start < passages.length; start += batchSize) {
      if (start > 0) await yieldToEventLoop();
      throwIfAborted(options.signal);
      const batch = passages.slice(start, start + batchSize);
      try {
        const inputs = this.tokenizer(
          batch.map(() => query),
          { text_pair: [...batch], padding: true, truncation: true },
        );
        const { logits } = (await this.model(inputs)) as { logits: { data: Float32Array; dims: number[] } };
        const width = logits.dims[1] ?? 1;
        for (let row = 0; row < batch.length; row++) out[start + row] = logits.data[row * width];
      } catch (error) {
        throw new EmbedderError(
          'EMBED_FAILED',
          `Reranking failed: ${error instanceof Error ? error.message : String(error)}`,
          { batch: batch.length },
        );
      }
    }
    return out;
  }

  /** Frees the ONNX session. */
  async dispose(): Promise<void> {
    await this.model.dispose();
  }
}

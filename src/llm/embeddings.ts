/**
 * An embedder on an OpenAI-compatible embeddings endpoint (OpenAI, Ollama /v1, LM Studio, llama.cpp, vLLM):
 * an alternative to the in-browser SBERT models, with the same `EmbedFn` shape.
 */
import { onAbort, type AbortSignalLike } from '../core/abort';
import type { EmbedFn } from '../core/types';
import { endpointUrl, requestHeaders, resolveEndpoint } from './endpoint';
import { LlmError } from './errors';
import { boundedTokenCount, maxEmbeddingReplyBytes, MAX_EMBEDDING_DIM } from './limits';
import { asRecord, malformed } from './protocol';
import { withRetries } from './transport';
import type { LlmEndpoint, RetryInfo } from './types';
import { UsageAccumulator } from './usage';

/** Default texts per request: well under every server's input limit (OpenAI allows 2,048). */
export const DEFAULT_EMBEDDING_BATCH_SIZE = 64;

/** Options of `createOpenAiEmbedder`. */
export interface OpenAiEmbedderOptions {
  /** Texts per request; batches run concurrently within the endpoint's limiter. Default 64. */
  batchSize?: number;
  /** Requested vector length (OpenAI `dimensions`, for models that can shorten); also checked on replies. */
  dimensions?: number;
  /** Where prompt-token usage goes. Default a new accumulator, exposed as `.usage`. */
  usage?: UsageAccumulator;
  /** Called before each retry sleep. */
  onRetry?: (info: RetryInfo) => void;
}

/** An `EmbedFn` that also exposes its token usage. */
export type OpenAiEmbedder = EmbedFn & { readonly usage: UsageAccumulator };

/** Reads one reply: vectors ordered by their `index`, one per input. */
function parseEmbeddings(json: unknown, count: number): { vectors: Float32Array[]; promptTokens?: number } {
  const data = asRecord(json)?.data;
  if (!Array.isArray(data)) malformed('the reply has no data array');
  if (data.length !== count) malformed(`${data.length} embeddings for ${count} inputs`);
  const vectors: Float32Array[] = new Array(count);
  for (let i = 0; i < data.length; i++) {
    const item = asRecord(data[i]);
    // Servers may return items in any order; `index` says which input each belongs to.
    const index = typeof item?.index === 'number' ? item.index : i;
    const embedding = item?.embedding;
    if (!Number.isInteger(index) || index < 0 || index >= count || vectors[index]) {
      malformed(`embedding index ${String(item?.index)} is missing, repeated or out of range`);
    }
    if (!Array.isArray(embedding) || !embedding.every((x) => typeof x === 'number')) {
      malformed(`embedding ${index} is not an array of numbers (base64 replies are not supported)`);
    }
    if (embedding.length > MAX_EMBEDDING_DIM) {
      malformed(
        `embedding ${index} has ${embedding.length} dimensions, more than the ${MAX_EMBEDDING_DIM} any model has`,
      );
    }
    vectors[index] = Float32Array.from(embedding as number[]);
  }
  return { vectors, promptTokens: boundedTokenCount(asRecord(asRecord(json)?.usage)?.prompt_tokens) };
}

/**
 * Makes an `EmbedFn` that POSTs `{model, input: string[]}` to `{baseUrl}/embeddings` in batches and returns
 * one Float32Array per text, in input order.
 * @throws LlmError INVALID_CONFIG at once for an Anthropic endpoint (it has no embeddings API).
 */
export function createOpenAiEmbedder(
  endpoint: LlmEndpoint,
  options: OpenAiEmbedderOptions = {},
): OpenAiEmbedder {
  const ep = resolveEndpoint(endpoint);
  const url = endpointUrl(ep, 'embeddings');
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? DEFAULT_EMBEDDING_BATCH_SIZE));
  const usage = options.usage ?? new UsageAccumulator();

  const embedBatch = (input: string[], signal: AbortSignalLike) => {
    const body: Record<string, unknown> = { model: ep.model, input, encoding_format: 'float' };
    if (options.dimensions !== undefined) body.dimensions = options.dimensions;
    return withRetries(
      ep,
      url,
      requestHeaders(ep, true),
      { signal, onRetry: options.onRetry },
      async (io) => {
        const response = await io.send('POST', body);
        const text = await io.text(response, maxEmbeddingReplyBytes(input.length, options.dimensions));
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          malformed('the embeddings reply is not JSON');
        }
        return parseEmbeddings(json, input.length);
      },
    );
  };

  const embed: EmbedFn = async (texts, { signal } = {}) => {
    if (texts.length === 0) return [];
    // The first failure cancels the other batches.
    const inner = new AbortController();
    const unlink = onAbort(signal, () => inner.abort(signal?.reason));
    try {
      const batches: Promise<Awaited<ReturnType<typeof embedBatch>>>[] = [];
      for (let start = 0; start < texts.length; start += batchSize) {
        const batch = embedBatch(texts.slice(start, start + batchSize), inner.signal);
        batches.push(
          batch.catch((error: unknown) => {
            inner.abort();
            throw error;
          }),
        );
      }
      const replies = await Promise.all(batches);
      const vectors = replies.flatMap((r) => r.vectors);
      const dim = options.dimensions ?? vectors[0].length;
      const wrong = vectors.findIndex((v) => v.length !== dim);
      if (wrong >= 0) {
        throw new LlmError(
          'BAD_RESPONSE',
          `The embeddings server returned vectors of ${vectors[wrong].length} dimensions where ${dim} were ` +
            'expected. Check the embedding model setting.',
          { expected: dim, actual: vectors[wrong].length, index: wrong, model: ep.model },
        );
      }
      for (const r of replies) {
        usage.add(
          r.promptTokens === undefined ? undefined : { promptTokens: r.promptTokens, completionTokens: 0 },
        );
      }
      return vectors;
    } finally {
      unlink();
    }
  };
  return Object.assign(embed, { usage });
}

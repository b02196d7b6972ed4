/**
 * Shapes of the LLM clients: the endpoint a user configures, the chat request we send and what comes back.
 * Everything in src/llm runs in browsers, workers and Node 20 (fetch, streams, TextDecoder, timers only).
 */
import type { AbortSignalLike } from '../core/abort';
import type { ChatMessage } from '../core/chat';
import type { RandomFn } from '../core/random';
import type { TokenUsage, UsageAccumulator } from './usage';

/** The wire protocol an endpoint speaks. */
export type LlmProtocol = 'openai' | 'anthropic';

/**
 * An LLM endpoint configured by the user.
 *
 * - `openai`: any OpenAI-compatible chat-completions server (OpenAI, Ollama's `/v1`, LM Studio, llama.cpp
 *   server, vLLM, OpenRouter). `baseUrl` is the part before `/chat/completions`, e.g.
 *   `http://localhost:11434/v1`; a trailing slash or the full `…/chat/completions` URL is accepted too.
 * - `anthropic`: the Anthropic Messages API. `baseUrl` is the host, e.g. `https://api.anthropic.com`
 *   (`…/v1` and `…/v1/messages` are accepted too).
 */
export interface LlmEndpoint {
  protocol: LlmProtocol;
  baseUrl: string;
  /** Sent as `Authorization: Bearer …` (openai) or `x-api-key` (anthropic) when set. Never logged. */
  apiKey?: string;
  /** Model name as the server knows it, e.g. `gpt-4o-mini`, `llama3.2`, `claude-3-5-haiku-latest`. */
  model: string;
  /** Per-request timeout in ms: until the response headers, then the longest silence between stream chunks and
   *  the time to read a non-streamed body. Default 60,000. */
  timeoutMs?: number;
  /** Most requests in flight at once to this endpoint (shared by every client of the same URL). Default 4. */
  maxConcurrency?: number;
  /** Retries after a 429, 5xx or network failure. Default 5 (so at most 6 attempts). */
  maxRetries?: number;
  /** First backoff ceiling in ms; attempt k waits a uniform random time in [0, min(max, base·2^k)]. Default 1,000. */
  retryBaseDelayMs?: number;
  /** Largest backoff ceiling in ms. Default 20,000 (the reference implementation's `max=20` seconds). */
  retryMaxDelayMs?: number;
  /** A server's Retry-After longer than this (ms) ends the retries at once with a rate-limit error. Default 120,000. */
  maxRetryAfterMs?: number;
  /** Sampling temperature; left to the server's default when unset. */
  temperature?: number;
  /** OpenAI only: the name of the output-limit field. Newer OpenAI reasoning models accept only
   *  `max_completion_tokens`; local servers know `max_tokens`. Default `max_tokens`. */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  /** Extra request headers, e.g. OpenRouter's `HTTP-Referer` and `X-Title`. */
  headers?: Record<string, string>;
}

/** A chat request, independent of the protocol. */
export interface ChatRequest {
  messages: ChatMessage[];
  /** Upper bound on generated tokens (the server's tokenizer). */
  maxTokens: number;
  /** Overrides `LlmEndpoint.temperature` for this request. */
  temperature?: number;
}

/** The outcome of one chat request. */
export interface ChatResult {
  /** The generated text, as sent (not trimmed). */
  text: string;
  /** Model name the server reports, or the requested one when it reports none. */
  model: string;
  /** Why generation stopped as the server says it (`stop`, `length`, `end_turn`, `max_tokens`, …). */
  finishReason?: string;
  /** Undefined when the server reported no usage. */
  usage?: TokenUsage;
  /**
   * Set when the server went on past the request's limit (it ignored `max_tokens`): Aerie stopped reading at
   * `maxChars` characters (`maxTokens` × 8) and `text` is that much.
   */
  overLimit?: { maxChars: number };
}

/** Information passed to `onRetry` before each backoff sleep. */
export interface RetryInfo {
  /** 1 for the first retry. */
  retry: number;
  /** How long the client will wait before the retry, in ms. */
  delayMs: number;
  /** Why: the HTTP status (429, 5xx) or 0 for a network failure. */
  status: number;
  /** The failure explained for a person (never contains the API key). */
  reason: string;
}

/** Options of one call to an endpoint. */
export interface CallOptions {
  /** Cancels at once, including queued, sleeping and streaming calls; rejects with an error named AbortError. */
  signal?: AbortSignalLike;
  /** Adds the response's token usage. */
  usage?: UsageAccumulator;
  /** Called before each backoff sleep (e.g. to show "rate limited, retrying in 3 s"). */
  onRetry?: (info: RetryInfo) => void;
  /** Overrides `LlmEndpoint.maxRetries` for this call. */
  maxRetries?: number;
  /** Source of backoff jitter; defaults to a generator from src/core/random.ts shared by the endpoint. */
  random?: RandomFn;
}

/** Options of a streamed call. */
export interface StreamOptions extends CallOptions {
  /** Receives each piece of generated text as it arrives. */
  onDelta?: (delta: string) => void;
}

/**
 * Something that answers chat requests: an endpoint (see `endpointChat`) or the built-in model (src/llm/builtin.ts).
 * Streams through `options.onDelta` when given; rejects with an `AbortError` when `options.signal` fires.
 */
export type ChatFn = (request: ChatRequest, options: StreamOptions) => Promise<ChatResult>;

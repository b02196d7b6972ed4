/**
 * Endpoint settings: validation, defaults, the URLs of each protocol, request headers, and the limiter and
 * jitter source shared by every client of the same server.
 */
import { deriveSeed, seededRandom, type RandomFn } from '../core/random';
import { LlmError } from './errors';
import { DEFAULT_MAX_CONCURRENCY, Limiter } from '../core/limiter';
import {
  DEFAULT_MAX_RETRIES,
  DEFAULT_MAX_RETRY_AFTER_MS,
  DEFAULT_RETRY_BASE_DELAY_MS,
  DEFAULT_RETRY_MAX_DELAY_MS,
} from './retry';
import type { LlmEndpoint, LlmProtocol } from './types';

/** Default per-request timeout (ms). */
export const DEFAULT_TIMEOUT_MS = 60_000;
/** The Anthropic API version we speak. */
export const ANTHROPIC_VERSION = '2023-06-01';
/** Seed of the backoff jitter (all randomness goes through src/core/random.ts). */
const JITTER_SEED = 0x6a177e4;

/** An endpoint with defaults filled in, a normalised root URL and its shared limiter. */
export interface ResolvedEndpoint {
  protocol: LlmProtocol;
  model: string;
  /** Trimmed; undefined when empty. */
  apiKey?: string;
  timeoutMs: number;
  maxRetries: number;
  retryBaseDelayMs: number;
  retryMaxDelayMs: number;
  maxRetryAfterMs: number;
  temperature?: number;
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
  /** Root the protocol's paths are appended to: `…/v1` for openai, the host for anthropic. */
  root: string;
  /** Query string of the configured URL (kept on every request, e.g. Azure's `api-version`). */
  search: string;
  extraHeaders: Record<string, string>;
  limiter: Limiter;
  random: RandomFn;
}

/** Suffixes a user may paste with the base URL; the first that matches, in this order, is removed. */
const OPENAI_SUFFIXES = ['/chat/completions', '/completions', '/embeddings', '/models'];
const ANTHROPIC_SUFFIXES = ['/v1/messages', '/v1/models', '/messages', '/models', '/v1'];

/** Header values must be visible ASCII; a pasted key with a newline or a non-ASCII character cannot be sent. */
const SENDABLE_KEY = /^[\x21-\x7e]+$/;

const shared = new Map<string, { limiter: Limiter; random: RandomFn }>();

function invalid(message: string, details: Record<string, unknown>): LlmError {
  return new LlmError('INVALID_CONFIG', message, details);
}

function positive(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}

function nonNegativeInt(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value >= 0 ? Math.floor(value) : fallback;
}

/** Splits the configured URL into the protocol's root and query string. */
function normaliseBase(protocol: LlmProtocol, baseUrl: string): { root: string; search: string } {
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    throw invalid(
      `The base URL "${baseUrl}" is not a valid URL. Enter it in full, e.g. ` +
        (protocol === 'openai' ? 'http://localhost:11434/v1' : 'https://api.anthropic.com') +
        '.',
      { protocol },
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalid(`The base URL must start with http:// or https:// (got ${url.protocol}).`, { protocol });
  }
  let path = url.pathname.replace(/\/+$/, '');
  for (const suffix of protocol === 'openai' ? OPENAI_SUFFIXES : ANTHROPIC_SUFFIXES) {
    if (path.endsWith(suffix)) {
      path = path.slice(0, -suffix.length);
      break;
    }
  }
  return { root: `${url.origin}${path}`, search: url.search };
}

/**
 * Validates an endpoint and fills in the defaults. Endpoints with the same protocol and root URL share one
 * limiter (the last-resolved `maxConcurrency` wins), so separate clients together respect the bound.
 * @param requireModel false for calls that need no model (the model list). Default true.
 * @throws LlmError INVALID_CONFIG with a message saying what to fix (never the key).
 */
export function resolveEndpoint(endpoint: LlmEndpoint, requireModel = true): ResolvedEndpoint {
  const { protocol } = endpoint;
  if (protocol !== 'openai' && protocol !== 'anthropic') {
    throw invalid(`Unknown protocol "${String(protocol)}": choose "openai" or "anthropic".`, {});
  }
  const { root, search } = normaliseBase(protocol, endpoint.baseUrl ?? '');
  const model = (endpoint.model ?? '').trim();
  if (!model && requireModel)
    throw invalid('No model is set: enter the model name the server knows (e.g. llama3.2).', { protocol });
  const apiKey = endpoint.apiKey?.trim() || undefined;
  if (apiKey && !SENDABLE_KEY.test(apiKey)) {
    throw invalid(
      'The API key contains spaces, line breaks or non-ASCII characters and cannot be sent: paste it again.',
      { protocol, keyLength: apiKey.length },
    );
  }
  const key = `${protocol} ${root}`;
  let entry = shared.get(key);
  if (!entry) {
    entry = { limiter: new Limiter(), random: seededRandom(deriveSeed(JITTER_SEED, shared.size)) };
    shared.set(key, entry);
  }
  entry.limiter.max = positive(endpoint.maxConcurrency, DEFAULT_MAX_CONCURRENCY);
  return {
    protocol,
    model,
    apiKey,
    timeoutMs: positive(endpoint.timeoutMs, DEFAULT_TIMEOUT_MS),
    maxRetries: nonNegativeInt(endpoint.maxRetries, DEFAULT_MAX_RETRIES),
    retryBaseDelayMs: positive(endpoint.retryBaseDelayMs, DEFAULT_RETRY_BASE_DELAY_MS),
    retryMaxDelayMs: positive(endpoint.retryMaxDelayMs, DEFAULT_RETRY_MAX_DELAY_MS),
    maxRetryAfterMs: positive(endpoint.maxRetryAfterMs, DEFAULT_MAX_RETRY_AFTER_MS),
    temperature: endpoint.temperature,
    maxTokensField: endpoint.maxTokensField ?? 'max_tokens',
    root,
    search,
    extraHeaders: { ...endpoint.headers },
    limiter: entry.limiter,
    random: entry.random,
  };
}

/** The URL of a protocol path: `chat` is /chat/completions or /v1/messages. */
export function endpointUrl(ep: ResolvedEndpoint, what: 'chat' | 'embeddings' | 'models'): string {
  let path: string;
  if (ep.protocol === 'openai') {
    path = what === 'chat' ? '/chat/completions' : what === 'embeddings' ? '/embeddings' : '/models';
  } else {
    if (what === 'embeddings')
      throw invalid('Anthropic endpoints have no embeddings API.', { protocol: ep.protocol });
    path = what === 'chat' ? '/v1/messages' : '/v1/models';
  }
  return `${ep.root}${path}${ep.search}`;
}

/** Request headers, authentication included. */
export function requestHeaders(ep: ResolvedEndpoint, withBody: boolean): Record<string, string> {
  const headers: Record<string, string> = {};
  if (withBody) headers['content-type'] = 'application/json';
  if (ep.protocol === 'openai') {
    if (ep.apiKey) headers.authorization = `Bearer ${ep.apiKey}`;
  } else {
    if (ep.apiKey) headers['x-api-key'] = ep.apiKey;
    headers['anthropic-version'] = ANTHROPIC_VERSION;
    // Without it Anthropic rejects cross-origin requests from browsers.
    headers['anthropic-dangerous-direct-browser-access'] = 'true';
  }
  return { ...headers, ...ep.extraHeaders };
}

/** The limiter shared by every client of `endpoint`'s server (e.g. to show its queue length). */
export function endpointLimiter(endpoint: LlmEndpoint): Limiter {
  return resolveEndpoint(endpoint).limiter;
}

/** Chat requests to an endpoint, whole or streamed, plus the connection test and the model list. */
import { anthropicProtocol } from './anthropic';
import { endpointUrl, requestHeaders, resolveEndpoint, type ResolvedEndpoint } from './endpoint';
import { AttemptFailure, LlmError } from './errors';
import { MAX_MODEL_LIST_BYTES, maxReplyChars } from './limits';
import { openaiProtocol } from './openai';
import { malformed, type ProtocolAdapter } from './protocol';
import type { AttemptIo } from './transport';
import { withRetries } from './transport';
import type { AbortSignalLike } from '../core/abort';
import type { CallOptions, ChatRequest, ChatResult, LlmEndpoint, StreamOptions } from './types';

/** Output limit of the connection test: enough for "OK" on any tokenizer. */
const TEST_MAX_TOKENS = 8;
/** Characters of an unreadable body quoted in the error. */
const BODY_EXCERPT_CHARS = 60;

/** Extra switches of a chat call. */
export interface ChatCallOptions {
  /** Accept a reply with no text instead of failing with EMPTY_RESPONSE. Default false. */
  allowEmpty?: boolean;
}

function adapterOf(ep: ResolvedEndpoint): ProtocolAdapter {
  return ep.protocol === 'openai' ? openaiProtocol : anthropicProtocol;
}

function checkRequest(request: ChatRequest): void {
  if (!Number.isInteger(request.maxTokens) || request.maxTokens <= 0) {
    throw new LlmError('INVALID_CONFIG', `maxTokens must be a positive integer (got ${request.maxTokens}).`, {
      maxTokens: request.maxTokens,
    });
  }
  if (request.messages.length === 0)
    throw new LlmError('INVALID_CONFIG', 'A chat request needs a message.', {});
}

async function readJson(io: AttemptIo, response: Response, maxBytes?: number): Promise<unknown> {
  const text = await io.text(response, maxBytes);
  try {
    return JSON.parse(text);
  } catch {
    if (/^\s*</.test(text)) malformed('an HTML page instead of JSON; is the base URL the API address?');
    return malformed(`not JSON: "${text.slice(0, BODY_EXCERPT_CHARS)}"`);
  }
}

function requireText(result: ChatResult, options: ChatCallOptions): ChatResult {
  if (!options.allowEmpty && result.text.trim() === '') {
    throw new AttemptFailure({ kind: 'empty', finishReason: result.finishReason });
  }
  return result;
}

/** The reply held to its request's limit: text past `maxReplyChars(maxTokens)` is dropped and marked. */
function withinLimit(result: ChatResult, maxTokens: number): ChatResult {
  const maxChars = maxReplyChars(maxTokens);
  if (result.text.length <= maxChars) return result;
  return { ...result, text: sliceWhole(result.text, maxChars), overLimit: { maxChars } };
}

/** The first `length` UTF-16 units of `text`, one fewer when that would split a surrogate pair. */
function sliceWhole(text: string, length: number): string {
  const last = text.charCodeAt(length - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? length - 1 : length);
}

/**
 * Sends one chat request and waits for the whole reply.
 * @throws LlmError (EMPTY_RESPONSE for a blank reply unless `allowEmpty`), or an AbortError.
 */
export async function chat(
  endpoint: LlmEndpoint,
  request: ChatRequest,
  options: CallOptions & ChatCallOptions = {},
): Promise<ChatResult> {
  const ep = resolveEndpoint(endpoint);
  checkRequest(request);
  const protocol = adapterOf(ep);
  const body = protocol.chatBody(ep, request, false);
  const result = await withRetries(
    ep,
    endpointUrl(ep, 'chat'),
    requestHeaders(ep, true),
    options,
    async (io) => {
      const response = await io.send('POST', body);
      const parsed = protocol.parseChat(await readJson(io, response), ep);
      return requireText(withinLimit(parsed, request.maxTokens), options);
    },
  );
  options.usage?.add(result.usage);
  return result;
}

/**
 * Sends one chat request with `stream: true`, passing each piece of text to `onDelta`; resolves with the whole
 * reply. Failures before the first piece are retried; after it they are final (CLOSED_MID_REPLY, TIMEOUT…).
 * A server that ignores `stream` and answers with JSON is accepted (one delta). A server that writes on past
 * the limit is stopped there: reading ends at `maxReplyChars(maxTokens)` characters and the result says so
 * (`overLimit`).
 */
export async function streamChat(
  endpoint: LlmEndpoint,
  request: ChatRequest,
  options: StreamOptions & ChatCallOptions = {},
): Promise<ChatResult> {
  const ep = resolveEndpoint(endpoint);
  checkRequest(request);
  const protocol = adapterOf(ep);
  const body = protocol.chatBody(ep, request, true);
  const result = await withRetries(
    ep,
    endpointUrl(ep, 'chat'),
    requestHeaders(ep, true),
    options,
    async (io) => {
      const response = await io.send('POST', body);
      if ((response.headers.get('content-type') ?? '').includes('json')) {
        const parsed = protocol.parseChat(await readJson(io, response), ep);
        const whole = requireText(withinLimit(parsed, request.maxTokens), options);
        if (whole.text) {
          io.markOutput(whole.text.length);
          options.onDelta?.(whole.text);
        }
        return whole;
      }
      const decoder = protocol.streamDecoder(ep);
      const maxChars = maxReplyChars(request.maxTokens);
      let text = '';
      for await (const event of io.events(response)) {
        let delta = decoder.onEvent(event);
        if (delta && text.length + delta.length > maxChars) {
          // The server ignores the limit: stop reading (leaving the loop releases the connection).
          delta = sliceWhole(delta, maxChars - text.length);
          text += delta;
          if (delta) options.onDelta?.(delta);
          return { text, model: ep.model, overLimit: { maxChars } };
        }
        if (delta) {
          text += delta;
          io.markOutput(text.length);
          options.onDelta?.(delta);
        }
        if (decoder.finished) break;
      }
      return requireText(decoder.result(text), options);
    },
  );
  options.usage?.add(result.usage);
  return result;
}

/** A successful connection test. */
export interface ConnectionOk {
  ok: true;
  /** The model the server says answered. */
  model: string;
  /** Time of the whole test request in ms. */
  latencyMs: number;
}

/**
 * Sends a tiny chat request (no retries) to check the URL, key, model and CORS.
 * @throws LlmError explaining what to fix, or an AbortError.
 */
export async function testConnection(endpoint: LlmEndpoint, signal?: AbortSignalLike): Promise<ConnectionOk> {
  const started = Date.now();
  const result = await chat(
    endpoint,
    { messages: [{ role: 'user', content: 'Reply with the word OK.' }], maxTokens: TEST_MAX_TOKENS },
    { signal, maxRetries: 0, allowEmpty: true },
  );
  return { ok: true, model: result.model, latencyMs: Date.now() - started };
}

/** The model ids the server lists (GET …/models), e.g. to offer a choice in the settings; `model` may be empty. */
export async function listModels(endpoint: LlmEndpoint, options: CallOptions = {}): Promise<string[]> {
  const ep = resolveEndpoint(endpoint, false);
  const protocol = adapterOf(ep);
  return withRetries(ep, endpointUrl(ep, 'models'), requestHeaders(ep, false), options, async (io) =>
    protocol.parseModels(await readJson(io, await io.send('GET'), MAX_MODEL_LIST_BYTES)),
  );
}

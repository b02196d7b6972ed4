/** What differs between the OpenAI and Anthropic wire formats, behind one interface. */
import { AttemptFailure, tidyServerMessage } from './errors';
import type { ResolvedEndpoint } from './endpoint';
import { boundedTokenCount, MAX_LISTED_MODELS, MAX_MODEL_NAME_CHARS } from './limits';
import type { SseEvent } from './sse';
import type { ChatRequest, ChatResult } from './types';
import type { TokenUsage } from './usage';

/** Decodes one streamed reply event by event. */
export interface StreamDecoder {
  /** Handles an event; returns the text it adds ('' for none). Throws AttemptFailure for error events. */
  onEvent(event: SseEvent): string;
  /** True once the protocol's terminator (`[DONE]`, `message_stop`) arrived. */
  readonly finished: boolean;
  /** The result after the stream ended; throws AttemptFailure when it ended before the reply was complete. */
  result(text: string): ChatResult;
}

/** A wire protocol. */
export interface ProtocolAdapter {
  /** The JSON body of a chat request. */
  chatBody(ep: ResolvedEndpoint, request: ChatRequest, stream: boolean): Record<string, unknown>;
  /** Reads a non-streamed reply; throws AttemptFailure('malformed') when fields are missing. */
  parseChat(json: unknown, ep: ResolvedEndpoint): ChatResult;
  /** A decoder for one streamed reply. */
  streamDecoder(ep: ResolvedEndpoint): StreamDecoder;
  /** Model ids from the server's model list. */
  parseModels(json: unknown): string[];
}

/** Throws the "cannot read this reply" failure. */
export function malformed(reason: string): never {
  throw new AttemptFailure({ kind: 'malformed', reason });
}

/** Throws the "stream ended before the reply was complete" failure. */
export function interrupted(): never {
  throw new AttemptFailure({ kind: 'interrupted', receivedChars: 0 });
}

/** A plain object, or undefined. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** Parses one SSE data payload as a JSON object. */
export function parseEventJson(data: string): Record<string, unknown> {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    malformed(`a stream event that is not JSON: ${data.slice(0, 80)}`);
  }
  return asRecord(json) ?? malformed('a stream event that is not a JSON object');
}

/** Usage from two numeric fields, or undefined when either is missing or not a plausible token count. */
export function usageFrom(
  record: Record<string, unknown> | undefined,
  promptField: string,
  completionField: string,
): TokenUsage | undefined {
  const p = boundedTokenCount(record?.[promptField]);
  const c = boundedTokenCount(record?.[completionField]);
  return p !== undefined && c !== undefined ? { promptTokens: p, completionTokens: c } : undefined;
}

/** Model ids of a model list: strings of a sensible length, at most `MAX_LISTED_MODELS` of them. */
export function modelIds(data: unknown[]): string[] {
  return data
    .map((m) => asRecord(m)?.id)
    .filter(
      (id): id is string => typeof id === 'string' && id.length > 0 && id.length <= MAX_MODEL_NAME_CHARS,
    )
    .slice(0, MAX_LISTED_MODELS);
}

/** HTTP status equivalent of an error type sent inside a stream, so it is classified like an HTTP error. */
const STATUS_OF_ERROR_TYPE: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};
const DEFAULT_STREAM_ERROR_STATUS = 500;

/** Throws the failure of an error object received inside a stream (`{message, type, code}`). */
export function streamError(error: unknown): never {
  const e = asRecord(error) ?? {};
  const type = typeof e.type === 'string' ? e.type : undefined;
  const code = typeof e.code === 'string' ? e.code : type;
  const status =
    typeof e.code === 'number'
      ? e.code
      : ((type ? STATUS_OF_ERROR_TYPE[type] : undefined) ?? DEFAULT_STREAM_ERROR_STATUS);
  throw new AttemptFailure({
    kind: 'http',
    status,
    serverMessage: tidyServerMessage(
      typeof e.message === 'string' ? e.message : typeof error === 'string' ? error : '',
    ),
    serverCode: code,
  });
}

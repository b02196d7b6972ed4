/**
 * Typed LLM errors whose messages tell the user what to do. Every message and detail passes through
 * `redactSecret`, so an API key never reaches the UI, a log or a bug report — even when a server echoes it.
 */
import { AerieError } from '../core/errors';
import type { LlmProtocol } from './types';

/** Stable codes of `LlmError`; the UI may key its help on them. */
export type LlmErrorCode =
  /** The endpoint settings cannot work (bad URL, missing model, unusable key characters). */
  | 'INVALID_CONFIG'
  /** 401/403: key missing, wrong, revoked or not allowed. */
  | 'AUTH'
  /** The account has no credit or quota left (OpenAI `insufficient_quota`). */
  | 'QUOTA_EXCEEDED'
  /** 404: unknown model or wrong base URL. */
  | 'NOT_FOUND'
  /** fetch failed, no response at all: server down, wrong host, or cross-origin requests blocked (CORS). */
  | 'UNREACHABLE'
  /** No response, or a stalled stream, within the timeout. */
  | 'TIMEOUT'
  /** The prompt does not fit in the model's context window. */
  | 'CONTEXT_TOO_LONG'
  /** Still 429 after every retry, or the server asks to wait too long. */
  | 'RATE_LIMITED'
  /** Still 5xx after every retry. */
  | 'SERVER_ERROR'
  /** Any other HTTP error status. */
  | 'HTTP_ERROR'
  /** A response that is not JSON, lacks the fields of the protocol, or is far larger than any reply can be. */
  | 'BAD_RESPONSE'
  /** A well-formed response with no text. */
  | 'EMPTY_RESPONSE'
  /**
   * The server answered (status and headers arrived), then closed the connection before the reply was complete:
   * after every retry, or after part of a streamed answer had already reached the caller.
   */
  | 'CLOSED_MID_REPLY';

/** An error talking to an LLM endpoint. `details` holds status, model, URL (never the key). */
export class LlmError extends AerieError<LlmErrorCode> {
  /** True when the same request may succeed later (rate limits, server errors, network, timeouts). */
  readonly transient: boolean;
  constructor(code: LlmErrorCode, message: string, details: Record<string, unknown> = {}, transient = false) {
    super(code, message, details);
    this.transient = transient;
  }
}

/** Bytes in the megabytes messages count in. */
const MEGABYTE = 1_000_000;
/** Keys shorter than this are not treated as secrets (redacting "ab" would garble every message). */
const MIN_REDACTED_KEY_LENGTH = 4;
/** Longest excerpt of a server's error message we show. */
export const MAX_SERVER_MESSAGE_CHARS = 300;
const REDACTED = '[redacted]';

/** Replaces every occurrence of `secret` in `text`. */
export function redactSecret(text: string, secret: string | undefined): string {
  if (!secret || secret.length < MIN_REDACTED_KEY_LENGTH) return text;
  return text.split(secret).join(REDACTED);
}

/** The URL without credentials, query or fragment (a key may hide in any of them). */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** What went wrong in one attempt, before it becomes a user-facing `LlmError`. */
export type Failure =
  | { kind: 'http'; status: number; serverMessage: string; serverCode?: string; retryAfterMs?: number }
  | { kind: 'network'; cause: string }
  | { kind: 'timeout'; phase: 'response' | 'stream' }
  | { kind: 'malformed'; reason: string }
  | { kind: 'empty'; finishReason?: string }
  /** The response's headers came (`status`), then the body broke off after `receivedChars` of output. */
  | { kind: 'interrupted'; receivedChars: number; status?: number }
  /** A body longer than anything the request could produce. */
  | { kind: 'too-large'; limitBytes: number };

/** Thrown inside an attempt; the retry loop decides whether to retry and then builds the `LlmError`. */
export class AttemptFailure extends Error {
  constructor(readonly failure: Failure) {
    super(failure.kind);
  }
}

/** Statuses worth retrying: rate limits, gateway and overload errors (529 is Anthropic's "overloaded"). */
const RETRYABLE_STATUSES = new Set([429, 500, 502, 503, 504, 529]);

const CONTEXT_PATTERN =
  /context_length_exceeded|maximum context length|prompt is too long|context (?:window|size|length)|exceed_context_size|input is too long|too many input tokens/i;
const QUOTA_PATTERN = /insufficient_quota|credit balance is too low/i;

/** True for a failure of the prompt's length, whatever the server's dialect. */
function isContextTooLong(f: Failure): boolean {
  if (f.kind !== 'http' || f.status === 429 || f.status === 401 || f.status === 403) return false;
  return f.status === 413 || CONTEXT_PATTERN.test(`${f.serverCode ?? ''} ${f.serverMessage}`);
}

function isQuota(f: Failure): boolean {
  return f.kind === 'http' && QUOTA_PATTERN.test(`${f.serverCode ?? ''} ${f.serverMessage}`);
}

/** Whether another attempt may succeed (before any output reached the caller). */
export function isRetryable(f: Failure): boolean {
  if (f.kind === 'network' || f.kind === 'interrupted') return true;
  if (f.kind !== 'http') return false;
  return RETRYABLE_STATUSES.has(f.status) && !isContextTooLong(f) && !isQuota(f);
}

/** What the message builder knows about the request. */
export interface ErrorContext {
  protocol: LlmProtocol;
  model: string;
  url: string;
  /** Only used to redact; never copied into the error. */
  apiKey?: string;
  timeoutMs: number;
  attempts: number;
  /** Set when output had reached the caller, so a retry was impossible. */
  outputStarted?: boolean;
  /** Set when retries stopped because Retry-After exceeded the allowed wait. */
  retryAfterTooLong?: boolean;
}

/** This page's origin, for the CORS fixes (workers have `location` too); undefined in Node. */
function appOrigin(): string | undefined {
  const loc = (globalThis as { location?: { origin?: string } }).location;
  return loc?.origin && loc.origin !== 'null' ? loc.origin : undefined;
}

/** True when the browser says it has no network (`navigator.onLine`, in pages and workers); false in Node. */
function browserOffline(): boolean {
  return (globalThis as { navigator?: { onLine?: boolean } }).navigator?.onLine === false;
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function mixedContentHint(url: string): string {
  const page = appOrigin();
  try {
    const u = new URL(url);
    if (page?.startsWith('https:') && u.protocol === 'http:' && !LOCAL_HOSTS.has(u.hostname)) {
      return ' This page is served over https, so the browser also blocks plain http:// servers other than localhost: use https or run the server on this machine.';
    }
  } catch {
    // An invalid URL is reported by the endpoint validation.
  }
  return '';
}

function notFoundHint(protocol: LlmProtocol): string {
  return protocol === 'openai'
    ? 'OpenAI-compatible base URLs usually end in /v1, e.g. http://localhost:11434/v1 (Ollama), http://localhost:1234/v1 (LM Studio), https://api.openai.com/v1'
    : 'e.g. https://api.anthropic.com';
}

// eslint-disable-next-line max-lines-per-function -- one case per error code, each a sentence for the user: a table, not steps
function describe(
  f: Failure,
  ctx: ErrorContext,
): { code: LlmErrorCode; message: string; transient: boolean } {
  const origin = originOf(ctx.url);
  const retries = Math.max(0, ctx.attempts - 1);
  const said = f.kind === 'http' && f.serverMessage ? `: "${f.serverMessage}"` : '';
  switch (f.kind) {
    case 'network': {
      const page = appOrigin() ?? "<this app's origin>";
      const attempts = `${ctx.attempts} attempt${ctx.attempts === 1 ? '' : 's'}`;
      if (browserOffline()) {
        return {
          code: 'UNREACHABLE',
          transient: true,
          message:
            `This browser is offline, so the LLM server at ${origin} could not be reached (${attempts}). It ` +
            'needs the network: try again once you are back online, or, to work offline, choose the built-in ' +
            'model or no LLM (extractive summaries, the retrieved passages as answers) in Settings.',
        };
      }
      return {
        code: 'UNREACHABLE',
        transient: true,
        message:
          `Could not reach the LLM server at ${origin} (${attempts}). ` +
          'Either it is not running or not reachable at that address, or it refuses cross-origin requests from ' +
          'this page (CORS). Start the server and check the URL; for Ollama set the environment variable ' +
          `OLLAMA_ORIGINS=${page} and restart it; in LM Studio turn on "Enable CORS" in the server settings; ` +
          `other servers must list ${page} among their allowed origins.${mixedContentHint(ctx.url)}`,
      };
    }
    case 'timeout':
      return {
        code: 'TIMEOUT',
        transient: true,
        message:
          `The LLM server at ${origin} did not answer within ${ctx.timeoutMs / 1000} s` +
          `${f.phase === 'stream' ? ' (the stream stalled)' : ''}. It may be overloaded or still loading the ` +
          'model: try again, raise the timeout in the endpoint settings, or use a smaller model.',
      };
    case 'malformed':
      return {
        code: 'BAD_RESPONSE',
        transient: false,
        message:
          `The LLM server at ${origin} sent a response Aerie cannot read (${f.reason}). Check that the protocol ` +
          `setting (${ctx.protocol}) matches the server and that the base URL points at its API.`,
      };
    case 'empty':
      return {
        code: 'EMPTY_RESPONSE',
        transient: true,
        message:
          `Model "${ctx.model}" returned an empty reply${f.finishReason ? ` (finish reason: ${f.finishReason})` : ''}. ` +
          'Try again or choose another model; reasoning models may need a larger token limit.',
      };
    case 'interrupted': {
      const answered = f.status === undefined ? 'it answered' : `it answered (HTTP ${f.status})`;
      const attempts = `${ctx.attempts} attempt${ctx.attempts === 1 ? '' : 's'}`;
      return {
        code: 'CLOSED_MID_REPLY',
        transient: true,
        message: ctx.outputStarted
          ? `The LLM server at ${origin} closed the connection mid-reply, after ${f.receivedChars} characters ` +
            'of the answer had arrived. Try again; if it keeps happening, check the server’s log.'
          : `The LLM server at ${origin} closed the connection mid-reply (${attempts}): ${answered}, then the ` +
            'reply broke off before its end. The server is reachable, so this is not a network or CORS setting: ' +
            'it may have crashed, restarted or run out of memory, or a proxy cut the reply. Check the server’s ' +
            'log and try again.',
      };
    }
    case 'too-large':
      return {
        code: 'BAD_RESPONSE',
        transient: false,
        message:
          `The LLM server at ${origin} sent a reply of more than ${Math.round(f.limitBytes / MEGABYTE)} MB, far ` +
          'more than the request asked for; Aerie stopped reading it. Check that the server and model ' +
          `("${ctx.model}") honour the output limit and that the base URL points at the API.`,
      };
    case 'http':
      break;
  }
  if (f.status === 401 || f.status === 403) {
    return {
      code: 'AUTH',
      transient: false,
      message: ctx.apiKey
        ? `The LLM server at ${origin} rejected the API key (HTTP ${f.status}${said}). Check that the key in the ` +
          `endpoint settings is correct, not revoked, and allowed to use model "${ctx.model}".`
        : `The LLM server at ${origin} requires an API key (HTTP ${f.status}${said}): add one in the endpoint settings.`,
    };
  }
  if (isQuota(f)) {
    return {
      code: 'QUOTA_EXCEEDED',
      transient: false,
      message: `The account behind the API key has no credit or quota left at ${origin} (HTTP ${f.status}${said}). Add credit or use another key.`,
    };
  }
  if (f.status === 404) {
    return {
      code: 'NOT_FOUND',
      transient: false,
      message:
        `The LLM server answered 404 Not Found for ${safeUrl(ctx.url)}${said}: either model "${ctx.model}" is ` +
        `unknown to it or the base URL is wrong. Check the model name against the server's model list and the ` +
        `base URL (${notFoundHint(ctx.protocol)}).`,
    };
  }
  if (isContextTooLong(f)) {
    return {
      code: 'CONTEXT_TOO_LONG',
      transient: false,
      message:
        `The request is too long for the context window of model "${ctx.model}" (HTTP ${f.status}${said}). Use a ` +
        'model with a larger context, lower the cluster token limit, or retrieve fewer passages.',
    };
  }
  if (f.status === 429) {
    const wait = ctx.retryAfterTooLong && f.retryAfterMs !== undefined;
    return {
      code: 'RATE_LIMITED',
      transient: true,
      message: wait
        ? `The LLM server at ${origin} is rate-limiting requests and asks to wait ${Math.ceil(f.retryAfterMs! / 1000)} s${said}. Try again later or lower the concurrency in the endpoint settings.`
        : `The LLM server at ${origin} was still rate-limiting requests (HTTP 429) after ${retries} retries${said}. ` +
          'Wait a minute and try again, or lower the concurrency in the endpoint settings.',
    };
  }
  if (RETRYABLE_STATUSES.has(f.status)) {
    return {
      code: 'SERVER_ERROR',
      transient: true,
      message:
        `The LLM server at ${origin} failed with HTTP ${f.status} after ${retries} retries${said}. It may be ` +
        'overloaded or have crashed: try again later.',
    };
  }
  const fieldHint = /max_completion_tokens/.test(f.serverMessage)
    ? ' This model wants max_completion_tokens: change the output-limit field in the endpoint settings.'
    : '';
  return {
    code: 'HTTP_ERROR',
    transient: false,
    message:
      `The LLM server at ${origin} answered HTTP ${f.status}${said}. Check the endpoint settings ` +
      `(protocol, model, parameters).${fieldHint}`,
  };
}

/** Turns an attempt's failure into the user-facing error, with the key redacted everywhere. */
export function llmErrorFrom(f: Failure, ctx: ErrorContext): LlmError {
  const { code, message, transient } = describe(f, ctx);
  const details: Record<string, unknown> = {
    protocol: ctx.protocol,
    model: ctx.model,
    url: safeUrl(ctx.url),
    attempts: ctx.attempts,
  };
  if (f.kind === 'http') {
    details.status = f.status;
    if (f.serverMessage) details.serverMessage = f.serverMessage;
    if (f.serverCode) details.serverCode = f.serverCode;
    if (f.retryAfterMs !== undefined) details.retryAfterMs = f.retryAfterMs;
  } else if (f.kind === 'network') details.cause = f.cause;
  else if (f.kind === 'timeout') details.timeoutMs = ctx.timeoutMs;
  else if (f.kind === 'malformed') details.reason = f.reason;
  else if (f.kind === 'empty' && f.finishReason) details.finishReason = f.finishReason;
  else if (f.kind === 'interrupted') {
    details.receivedChars = f.receivedChars;
    if (f.status !== undefined) details.status = f.status;
  } else if (f.kind === 'too-large') details.limitBytes = f.limitBytes;
  for (const [k, v] of Object.entries(details)) {
    if (typeof v === 'string') details[k] = redactSecret(v, ctx.apiKey);
  }
  return new LlmError(code, redactSecret(message, ctx.apiKey), details, transient);
}

/** Reads the error text and code out of an error body in the dialects servers use. */
export function parseErrorBody(body: string): { message: string; code?: string } {
  let message = '';
  let code: string | undefined;
  try {
    const json = JSON.parse(body) as Record<string, unknown>;
    const err = json.error;
    if (err && typeof err === 'object') {
      const e = err as Record<string, unknown>;
      message = typeof e.message === 'string' ? e.message : '';
      const c = e.code ?? e.type;
      if (typeof c === 'string') code = c;
      if (!message && typeof e.type === 'string') message = e.type;
    } else if (typeof err === 'string') message = err;
    else if (typeof json.message === 'string') message = json.message;
    else if (json.detail !== undefined)
      message = typeof json.detail === 'string' ? json.detail : JSON.stringify(json.detail);
  } catch {
    message = /^\s*</.test(body) ? '(an HTML page)' : body;
  }
  return { message: tidyServerMessage(message), code };
}

/** A server message on one line, cut to `MAX_SERVER_MESSAGE_CHARS`. */
export function tidyServerMessage(message: string): string {
  const flat = message.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_SERVER_MESSAGE_CHARS ? `${flat.slice(0, MAX_SERVER_MESSAGE_CHARS)}…` : flat;
}

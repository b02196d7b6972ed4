/**
 * One logical request to an endpoint: a slot from the endpoint's limiter per attempt, a timeout per attempt
 * (reset by every stream chunk), retries with full-jitter backoff or the server's Retry-After, and
 * cancellation that wins over everything else and is never retried.
 */
import { abortErrorOf, onAbort, type AbortSignalLike } from '../core/abort';
import { AttemptFailure, isRetryable, llmErrorFrom, parseErrorBody, type Failure } from './errors';
import type { ResolvedEndpoint } from './endpoint';
import { MAX_CHAT_REPLY_BYTES, MAX_ERROR_BODY_BYTES } from './limits';
import { backoffDelayMs, retryAfterMs } from './retry';
import { readSseEvents, SseTooLongError, type SseEvent } from './sse';
import type { CallOptions } from './types';

/** What an attempt may do; every network step goes through it so failures are classified in one place. */
export interface AttemptIo {
  /** Sends a request; non-2xx answers become failures (with the server's message and Retry-After). */
  send(method: 'GET' | 'POST', body?: unknown): Promise<Response>;
  /**
   * Reads a whole body as text under the attempt's timeout, at most `maxBytes` of it (default
   * `MAX_CHAT_REPLY_BYTES`): a longer body is a `too-large` failure. A connection that closes mid-body is an
   * `interrupted` failure (the server answered: not a network or CORS problem).
   */
  text(response: Response, maxBytes?: number): Promise<string>;
  /** Reads a body as SSE events; each chunk resets the idle timeout. */
  events(response: Response): AsyncGenerator<SseEvent, void, undefined>;
  /** Records that output reached the caller: from then on a failure is final. */
  markOutput(receivedChars: number): void;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Waits `ms` milliseconds (a backoff); rejects with an AbortError as soon as `signal` fires. */
function sleep(ms: number, signal?: AbortSignalLike): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortErrorOf(signal));
      return;
    }
    const timer = setTimeout(() => {
      unsubscribe();
      resolve();
    }, ms);
    const unsubscribe = onAbort(signal, () => {
      clearTimeout(timer);
      reject(abortErrorOf(signal));
    });
  });
}

/**
 * The body as text, reading at most `maxBytes`. Beyond it the read stops and the connection is released:
 * `truncate` returns what was read, otherwise the body is refused as `too-large`.
 */
async function readBounded(response: Response, maxBytes: number, truncate: boolean): Promise<string> {
  const body = response.body;
  if (!body) return '';
  const reader = body.getReader();
  const decoder = new TextDecoder('utf-8');
  let bytes = 0;
  let text = '';
  let done = false;
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      const room = maxBytes - bytes;
      if (next.value.byteLength > room) {
        if (!truncate) throw new AttemptFailure({ kind: 'too-large', limitBytes: maxBytes });
        text += decoder.decode(next.value.subarray(0, room));
        return text;
      }
      bytes += next.value.byteLength;
      text += decoder.decode(next.value, { stream: true });
    }
    done = true;
    return text + decoder.decode();
  } finally {
    if (!done) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

/**
 * Runs `attempt` until it succeeds, a failure is final, retries run out, or the caller aborts.
 * @throws LlmError for failures, an error named AbortError for cancellation.
 */
export async function withRetries<T>(
  ep: ResolvedEndpoint,
  url: string,
  headers: Record<string, string>,
  options: CallOptions,
  attempt: (io: AttemptIo) => Promise<T>,
): Promise<T> {
  const { signal: userSignal } = options;
  const maxRetries = options.maxRetries ?? ep.maxRetries;
  const random = options.random ?? ep.random;
  for (let attemptNo = 1; ; attemptNo++) {
    const release = await ep.limiter.acquire(userSignal);
    const controller = new AbortController();
    const unlink = onAbort(userSignal, () => controller.abort());
    let timedOut = false;
    let streaming = false;
    let output: number | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, ep.timeoutMs);
    };
    const io: AttemptIo = {
      async send(method, body) {
        let response: Response;
        try {
          response = await fetch(url, {
            method,
            headers,
            body: body === undefined ? undefined : JSON.stringify(body),
            signal: controller.signal,
          });
        } catch (error) {
          throw new AttemptFailure({ kind: 'network', cause: message(error) });
        }
        if (!response.ok) {
          const text = await readBounded(response, MAX_ERROR_BODY_BYTES, true).catch(() => '');
          const { message: serverMessage, code } = parseErrorBody(text);
          throw new AttemptFailure({
            kind: 'http',
            status: response.status,
            serverMessage,
            serverCode: code,
            retryAfterMs: retryAfterMs(response.headers),
          });
        }
        return response;
      },
      async text(response, maxBytes = MAX_CHAT_REPLY_BYTES) {
        try {
          return await readBounded(response, maxBytes, false);
        } catch (error) {
          if (error instanceof AttemptFailure) throw error;
          // The headers came, then the connection broke: the server is reachable (no CORS problem).
          throw new AttemptFailure({ kind: 'interrupted', receivedChars: 0, status: response.status });
        }
      },
      async *events(response) {
        if (!response.body)
          throw new AttemptFailure({ kind: 'malformed', reason: 'a stream without a body' });
        streaming = true;
        try {
          yield* readSseEvents(response.body, arm);
        } catch (error) {
          if (error instanceof AttemptFailure) throw error;
          if (error instanceof SseTooLongError)
            throw new AttemptFailure({ kind: 'malformed', reason: error.message });
          throw new AttemptFailure({
            kind: 'interrupted',
            receivedChars: output ?? 0,
            status: response.status,
          });
        }
      },
      markOutput(receivedChars) {
        output = receivedChars;
      },
    };
    let failure: Failure;
    try {
      if (userSignal?.aborted) throw abortErrorOf(userSignal);
      arm();
      return await attempt(io);
    } catch (error) {
      if (userSignal?.aborted) throw abortErrorOf(userSignal);
      if (!(error instanceof AttemptFailure)) throw error;
      failure = timedOut ? { kind: 'timeout', phase: streaming ? 'stream' : 'response' } : error.failure;
    } finally {
      clearTimeout(timer);
      unlink();
      release();
    }
    const context = {
      protocol: ep.protocol,
      model: ep.model,
      url,
      apiKey: ep.apiKey,
      timeoutMs: ep.timeoutMs,
    };
    if (output !== undefined) {
      if (failure.kind === 'interrupted') failure = { ...failure, receivedChars: output };
      throw llmErrorFrom(failure, { ...context, attempts: attemptNo, outputStarted: true });
    }
    if (!isRetryable(failure) || attemptNo > maxRetries) {
      throw llmErrorFrom(failure, { ...context, attempts: attemptNo });
    }
    const asked = failure.kind === 'http' ? failure.retryAfterMs : undefined;
    if (asked !== undefined && asked > ep.maxRetryAfterMs) {
      throw llmErrorFrom(failure, { ...context, attempts: attemptNo, retryAfterTooLong: true });
    }
    const delayMs = asked ?? backoffDelayMs(attemptNo - 1, ep.retryBaseDelayMs, ep.retryMaxDelayMs, random);
    options.onRetry?.({
      retry: attemptNo,
      delayMs,
      status: failure.kind === 'http' ? failure.status : 0,
      reason: llmErrorFrom(failure, { ...context, attempts: attemptNo }).message,
    });
    await sleep(delayMs, userSignal);
  }
}

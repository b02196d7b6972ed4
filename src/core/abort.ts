/**
 * Cancellation without depending on DOM or Node typings: the core accepts anything shaped like an
 * AbortSignal (browsers, workers and Node all provide one).
 */

/** The part of `AbortSignal` the core uses. */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
}

/** Thrown when a long call is cancelled through its signal. `name` matches the DOM's AbortError. */
export class AbortError extends Error {
  override readonly name = 'AbortError';
  readonly code = 'ABORTED';
  constructor(message = 'The operation was cancelled.') {
    super(message);
  }
}

/** Throws an AbortError (or the signal's own reason when it is an Error) if the signal has fired. */
export function throwIfAborted(signal: AbortSignalLike | undefined): void {
  if (!signal?.aborted) return;
  if (signal.reason instanceof Error && signal.reason.name === 'AbortError') throw signal.reason;
  throw new AbortError();
}

/** True when `error` is a cancellation rather than a failure. */
export function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

/** The part of EventTarget a real AbortSignal has (`AbortSignalLike` does not promise it). */
interface AbortEventTarget {
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

function hasEvents(signal: AbortSignalLike): signal is AbortSignalLike & AbortEventTarget {
  return typeof (signal as Partial<AbortEventTarget>).addEventListener === 'function';
}

/**
 * Calls `listener` once when `signal` fires, or at once if it already has, so work started after a cancel
 * still stops; returns the function that stops listening. A signal-like object without events (the core's
 * own) is only checked by the caller's next `throwIfAborted`.
 */
export function onAbort(signal: AbortSignalLike | undefined, listener: () => void): () => void {
  if (!signal) return () => {};
  if (signal.aborted) {
    listener();
    return () => {};
  }
  if (!hasEvents(signal)) return () => {};
  signal.addEventListener('abort', listener, { once: true });
  return () => signal.removeEventListener('abort', listener);
}

/** The error to reject with when `signal` fired: its own AbortError reason, or a new AbortError. */
export function abortErrorOf(signal: AbortSignalLike | undefined): Error {
  try {
    throwIfAborted(signal);
  } catch (error) {
    return error as Error;
  }
  return new AbortError();
}

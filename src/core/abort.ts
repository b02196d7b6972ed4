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

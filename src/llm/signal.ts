/** Abort plumbing shared by the limiter, the backoff sleeps and the HTTP attempts. */
import { AbortError, throwIfAborted, type AbortSignalLike } from '../core/abort';

/** The part of EventTarget a real AbortSignal has (`AbortSignalLike` does not promise it). */
interface AbortEventTarget {
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

function hasEvents(signal: AbortSignalLike): signal is AbortSignalLike & AbortEventTarget {
  return typeof (signal as Partial<AbortEventTarget>).addEventListener === 'function';
}

/**
 * Calls `listener` once when `signal` fires (at once if it already has); returns the unsubscribe function.
 * A signal-like object without events is only checked at the next step of the caller.
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

/** Waits `ms` milliseconds; rejects with an AbortError as soon as `signal` fires. */
export function sleep(ms: number, signal?: AbortSignalLike): Promise<void> {
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

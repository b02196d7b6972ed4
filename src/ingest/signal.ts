/**
 * Listening to an AbortSignal. The core's `AbortSignalLike` has no events (it must type-check without DOM or
 * Node typings); the signals browsers and Node hand us do, and ingestion uses them to stop work at once.
 */
import type { AbortSignalLike } from '../core/abort';

type EventSignal = AbortSignalLike & {
  addEventListener?: (type: 'abort', listener: () => void) => void;
  removeEventListener?: (type: 'abort', listener: () => void) => void;
};

/** Calls `listener` when `signal` fires (not if it already has). Returns the function that stops listening. */
export function onAbort(signal: AbortSignalLike | undefined, listener: () => void): () => void {
  const events = signal as EventSignal | undefined;
  events?.addEventListener?.('abort', listener);
  return () => events?.removeEventListener?.('abort', listener);
}

/**
 * Turns any error into a sentence a user can act on. Aerie's errors carry a `code` and already say what to do;
 * the few generic cases get a sentence here. Keys never appear: error messages are redacted at the source.
 */

const GENERIC: Record<string, string> = {
  QuotaExceededError: 'The browser ran out of storage space. Delete trees you no longer need, then resume.',
  NetworkError: 'A network request failed. Check the connection and try again.',
};

/** The message to show for `error`. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error || (typeof error === 'object' && error !== null && 'message' in error)) {
    const e = error as { name?: string; message?: string; code?: string };
    if (e.name === 'AbortError') return 'Cancelled.';
    if (e.name && GENERIC[e.name]) return GENERIC[e.name];
    if (e.message) return e.message;
  }
  return `Something went wrong: ${String(error)}`;
}

/** The error's code, when it has one. */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** True for a cancellation. */
export function isCancel(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === 'AbortError';
}

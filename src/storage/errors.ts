/**
 * Typed storage errors. IndexedDB reports failures as DOMExceptions whose names (QuotaExceededError,
 * InvalidStateError, VersionError, …) mean little to a user; `toStorageError` turns them into a `StorageError`
 * with a stable code and a sentence that says what to do. No message here ever contains a stored value, so an
 * API key kept in settings cannot leak through an error.
 */
import { AerieError } from '../core/errors';

/** Stable codes of `StorageError`; the UI may key its help on them. */
export type StorageErrorCode =
  /** The browser refused to store more: the origin's quota is full. */
  | 'QUOTA_EXCEEDED'
  /** No record with that id (it may have been deleted in another tab). */
  | 'NOT_FOUND'
  /** A record with that id exists already. */
  | 'ALREADY_EXISTS'
  /** The tree has no nodes yet (still building, paused or failed). */
  | 'NOT_READY'
  /** Another tab keeps an older version of the database open, so ours cannot be upgraded. */
  | 'BLOCKED'
  /** Our connection was closed (another tab upgraded the database, or the browser closed it). */
  | 'CLOSED'
  /** The database on disk is newer than this code (another tab runs a newer Aerie). */
  | 'VERSION_TOO_NEW'
  /** An upgrade step failed; the database was left at its previous version. */
  | 'MIGRATION_FAILED'
  /** This browser or context offers no IndexedDB (some private modes, old browsers). */
  | 'UNAVAILABLE'
  /** A tree file that cannot be read (the message names the JSON path of the first bad field). */
  | 'INVALID_IMPORT'
  /** A file or value beyond the size limits. */
  | 'TOO_LARGE'
  /** A stored tree whose records do not fit together (e.g. a node missing). */
  | 'CORRUPT'
  /** An argument that cannot be stored (empty title, bad id). */
  | 'INVALID_ARGUMENT'
  /** Any other failure reported by IndexedDB. */
  | 'IO_ERROR';

/** A storage failure. `details.operation` names what was being done; DOMException names are in `details.name`. */
export class StorageError extends AerieError<StorageErrorCode> {
  constructor(
    code: StorageErrorCode,
    message: string,
    details: Record<string, unknown> = {},
    cause?: unknown,
  ) {
    super(code, message, details);
    if (cause !== undefined) (this as { cause?: unknown }).cause = cause;
  }
}

/** The user-facing sentence for a full quota; nothing written earlier is lost, each write being its own transaction. */
export const QUOTA_MESSAGE =
  'The browser refused to store more data: the storage space it grants this site is full. Free space by ' +
  'deleting trees you no longer need, or allow persistent storage so the browser grants more room. ' +
  'Everything saved before this point is kept.';

/** What the UI shows while another tab blocks an upgrade. */
export const BLOCKED_MESSAGE = 'Close other Aerie tabs to finish updating the storage.';

/** What the UI shows after another tab upgraded the database under us. */
export const RELOAD_MESSAGE = 'Aerie was updated in another tab. Reload this page to continue.';

function errorName(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && typeof (error as { name?: unknown }).name === 'string'
    ? (error as { name: string }).name
    : undefined;
}

/**
 * True when `error` (or the error of the transaction it aborted) is a quota failure. Browsers report a full
 * quota either as a QuotaExceededError on the request or as an AbortError whose transaction's `error` is one.
 */
export function isQuotaError(error: unknown, transactionError?: unknown): boolean {
  return errorName(error) === 'QuotaExceededError' || errorName(transactionError) === 'QuotaExceededError';
}

/**
 * Maps anything thrown by IndexedDB (or idb) to a `StorageError`; a `StorageError` or an AbortError of a
 * cancelled build passes through unchanged.
 * @param operation what was being done, e.g. "save the tree" (goes into `details.operation`).
 * @param transactionError the transaction's `error`, which names the real cause when a request only says AbortError.
 */
export function toStorageError(error: unknown, operation: string, transactionError?: unknown): Error {
  if (error instanceof StorageError) return error;
  const name = errorName(error);
  const txName = errorName(transactionError);
  const details = { operation, name: txName ?? name };
  if (isQuotaError(error, transactionError))
    return new StorageError('QUOTA_EXCEEDED', QUOTA_MESSAGE, details, error);
  if (name === 'AbortError' && transactionError === undefined && !(error instanceof DOMException)) {
    return error as Error; // a cancelled build, not a database failure
  }
  if (name === 'InvalidStateError') {
    return new StorageError(
      'CLOSED',
      `Could not ${operation}: the database connection is closed. ${RELOAD_MESSAGE}`,
      details,
      error,
    );
  }
  if (name === 'VersionError') {
    return new StorageError(
      'VERSION_TOO_NEW',
      `Could not ${operation}: the stored data was written by a newer Aerie in another tab. Reload this page.`,
      details,
      error,
    );
  }
  // Only the exception's name: a browser's message may describe the value that failed (e.g. DataCloneError).
  const reason = name ? ` (${name})` : '';
  return new StorageError(
    'IO_ERROR',
    `Could not ${operation}: the browser's database reported an error${reason}. Try again; if it persists, ` +
      'reload the page.',
    details,
    error,
  );
}

/**
 * The same error without its `cause`, for operations on secrets (settings): the browser's original exception
 * may describe the value, and a logger printing causes would print it.
 */
export function withoutCause(error: unknown): unknown {
  return error instanceof StorageError
    ? new StorageError(error.code, error.message, { ...error.details })
    : error;
}

/** The error for a missing tree. */
export function treeNotFound(treeId: string): StorageError {
  return new StorageError(
    'NOT_FOUND',
    `There is no tree with id "${treeId}" (it may have been deleted in another tab).`,
    { treeId },
  );
}

/**
 * Refuses (NOT_FOUND) unless tree `treeId` is in `trees`. Called with the `trees` store of the transaction that
 * writes for the tree, so the check and the write are one: a write for a tree deleted in any tab, whatever the
 * timing, is refused instead of leaving records of a tree that no longer exists (issue 41).
 */
export async function requireTree(
  trees: { get(key: string): Promise<unknown> },
  treeId: string,
): Promise<void> {
  if (!(await trees.get(treeId))) throw treeNotFound(treeId);
}

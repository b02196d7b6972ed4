/**
 * Node's file-system errors as sentences a user can act on ("The question set q.jsonl does not exist."), never
 * a bare ENOENT. Shared by the checks before the work (preflight.ts) and the writes after it (output-files.ts).
 */

/** Node's file-system error codes, as sentences about `path`. */
const FS_REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'does not exist',
  ENOTDIR: 'is not inside a folder that exists (a part of the path is a file)',
  EISDIR: 'is a folder, not a file',
  EACCES: 'cannot be accessed: permission denied',
  EPERM: 'cannot be accessed: the operation is not permitted',
  EROFS: 'is on a read-only file system',
  ENOSPC: 'cannot be written: the disk is full',
  EDQUOT: 'cannot be written: the disk quota is used up',
  EMFILE: 'cannot be opened: too many files are open',
  ENAMETOOLONG: 'has a name too long for the file system',
  ELOOP: 'is a loop of symbolic links',
  EBUSY: 'is busy (in use by another program)',
};

/**
 * A file-system error as a sentence a user can act on: "The question set questions.jsonl does not exist."
 * Anything else than a file-system error comes back as its message.
 */
export function fileErrorSentence(error: unknown, what?: string): string {
  const e = error as { code?: unknown; path?: unknown; message?: unknown } | null;
  const code = typeof e?.code === 'string' ? e.code : undefined;
  const reason = code ? FS_REASONS[code] : undefined;
  if (!reason) return error instanceof Error ? error.message : String(error);
  const path = typeof e?.path === 'string' ? e.path : undefined;
  return `${what ? `${what} ` : ''}${path ?? 'A file'} ${reason}.`.replace(/^./, (c) => c.toUpperCase());
}

/** The reason of a file-system error as a predicate ("cannot be written: the disk is full"), if it has one. */
export function fileErrorReason(error: unknown): { reason: string; path?: string } | undefined {
  const e = error as { code?: unknown; path?: unknown } | null;
  const reason = typeof e?.code === 'string' ? FS_REASONS[e.code] : undefined;
  if (!reason) return undefined;
  return typeof e?.path === 'string' ? { reason, path: e.path } : { reason };
}

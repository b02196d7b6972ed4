/**
 * The kept PDF a document of the open tree shows, as one string: its text's id and the SHA-256 of the file the
 * tree names (schema version 7; empty for a file kept before, by its text alone). Two trees of one text may
 * keep different files (issue 41), so the text's id alone does not say which file to open.
 */
import type { OriginalInfo } from '../../storage';

/** The key of the file `pdf` keeps, or undefined when none is kept. */
export function originalKey(
  pdf: { documentId?: string; original?: OriginalInfo } | undefined,
): string | undefined {
  if (!pdf?.documentId || !pdf.original?.kept) return undefined;
  return `${pdf.documentId}:${pdf.original.sha256 ?? ''}`;
}

/** The text's id and the file's hash of a key made by `originalKey`. */
export function parseOriginalKey(key: string): { documentId: string; sha256?: string } {
  const at = key.indexOf(':');
  const documentId = at < 0 ? key : key.slice(0, at);
  const sha256 = at < 0 ? '' : key.slice(at + 1);
  return sha256 ? { documentId, sha256 } : { documentId };
}

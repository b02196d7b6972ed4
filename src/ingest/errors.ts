/**
 * Why a file could not be turned into a document. Each code has one meaning; `message` is a sentence the user
 * can act on, `details` holds the numbers behind it (sizes, limits, counts) for the UI and for logs.
 */
import { AerieError } from '../core/errors';

/**
 * - `EMPTY`: the file has 0 bytes (or the pasted text is empty).
 * - `NO_TEXT`: the file decodes to whitespace only (or a Word/HTML document holds no text).
 * - `BINARY`: the file claims to be text (or has an unknown extension) but holds binary data: NUL bytes, many
 *   control characters, or the signature of an image, archive, executable….
 * - `UNSUPPORTED_TYPE`: a known format Aerie does not read (images, legacy .doc, spreadsheets, archives…).
 * - `TOO_LARGE`: above `maxBytes` (checked before reading) or `maxChars` of text.
 * - `UNKNOWN_ENCODING`: not UTF-8 and not plausibly Western European (Windows-1252) text.
 * - `ENCRYPTED_PDF`: a PDF that needs a password (none given, or the wrong one: `details.reason`).
 * - `NO_TEXT_LAYER`: a PDF without (almost any) text: a scan that needs OCR first.
 * - `CORRUPT`: a PDF or Word file that cannot be parsed (damaged, truncated, or not what its name says).
 * - `READ_FAILED`: the browser could not read the file (moved, deleted or changed since it was chosen).
 * - `WORKER_FAILED`: the ingestion worker could not start or died (see `ingestInWorker`).
 */
export type IngestErrorCode =
  | 'EMPTY'
  | 'NO_TEXT'
  | 'BINARY'
  | 'UNSUPPORTED_TYPE'
  | 'TOO_LARGE'
  | 'UNKNOWN_ENCODING'
  | 'ENCRYPTED_PDF'
  | 'NO_TEXT_LAYER'
  | 'CORRUPT'
  | 'READ_FAILED'
  | 'WORKER_FAILED';

/** A file (or pasted text) that cannot become a document; see `IngestErrorCode`. */
export class IngestError extends AerieError<IngestErrorCode> {
  // Spelled out: a minifier renames classes, and AerieError takes the name from the class.
  override readonly name = 'IngestError';
}

/** A file name quoted for messages. */
export function quoted(name: string): string {
  return `“${name}”`;
}

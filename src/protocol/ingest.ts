/**
 * What ingestion produces and accepts. An `IngestedDocument` is a `BuildDocument` (src/core/build.ts): pass it
 * to `buildTree` as it is; leaves then record their page for PDFs.
 */
import type { AbortSignalLike } from '../core/abort';
import type { PdfLayout } from './pdf-layout';

/** Where a document's text came from. */
export type IngestType = 'txt' | 'md' | 'html' | 'pdf' | 'docx' | 'paste';

/** A user's file (or pasted text) turned into text Aerie can build a tree from. */
export interface IngestedDocument {
  /** The file name as the user chose it (or "Pasted text"). */
  name: string;
  type: IngestType;
  /** Size of the file in bytes (for pasted text: its length in UTF-8 bytes). */
  size: number;
  /**
   * The text, with line breaks normalised to "\n", no byte-order mark and no NUL characters. Paragraphs are
   * separated by a blank line. Leaf offsets (`NodeSource.start`/`end`) index this string.
   */
  text: string;
  /** PDFs only: offsets in `text` where pages 2, 3, … start (one entry per page after the first). */
  pageStarts?: number[];
  /**
   * PDFs only: which characters of `text` came from which of PDF.js's text items on which page, so a passage
   * can be shown highlighted on its page (pdf-layout.ts).
   */
  layout?: PdfLayout;
  /** Non-fatal problems, as sentences to show the user (e.g. "read as Windows-1252"). Empty when none. */
  warnings: string[];
}

/** A file as the browser gives it (`File`), or any Blob with a name (tests, drag and drop of blobs). */
export type IngestFile = Blob & { readonly name: string };

/** Progress of one ingestion. */
export type IngestProgress =
  /** Bytes of the file read and decoded so far (text and HTML files; PDF and Word files while loading). */
  | { stage: 'read'; done: number; total: number }
  /** PDF pages whose text has been extracted. */
  | { stage: 'pages'; done: number; total: number }
  /** A Word document or HTML page being converted (0 of 1, then 1 of 1). */
  | { stage: 'convert'; done: number; total: number };

/** Options of `ingestFile`. */
export interface IngestOptions {
  /** Stops the ingestion with an AbortError. */
  signal?: AbortSignalLike;
  /** Largest file accepted, in bytes; checked before anything is read. Default `MAX_FILE_BYTES` (100 MB). */
  maxBytes?: number;
  /** Most characters (UTF-16 code units) of extracted text accepted. Default `MAX_TEXT_CHARS` (20 million). */
  maxChars?: number;
  /** Password of an encrypted PDF. Without it such a PDF fails with `ENCRYPTED_PDF`. */
  password?: string;
  /** Called as the file is read and converted. */
  onProgress?: (progress: IngestProgress) => void;
}

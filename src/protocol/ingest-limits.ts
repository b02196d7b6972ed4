/**
 * The numbers that bound ingestion, and why they have the values they have (docs/ingest.md repeats them).
 */

/**
 * Largest file accepted, in bytes (100 MB, decimal as file managers show it). Checked from `file.size` before
 * anything is read, so a larger file is refused at once. PDFs and Word files carry images, so their files are
 * much larger than their text; plain-text files are bounded more tightly by `MAX_TEXT_CHARS`.
 */
export const MAX_FILE_BYTES = 100_000_000;

/**
 * Most characters (UTF-16 code units) of text accepted: 20 million, about 5 million tokens or 50,000 leaves,
 * several thousand pages. A tree that size takes hours to embed and summarise in a browser; a larger text
 * should be split.
 */
export const MAX_TEXT_CHARS = 20_000_000;

/**
 * Above this many characters (2 million, about 500,000 tokens, a 1,000-page book) the document is accepted
 * with a warning that building its tree will take long (minutes of embedding, hundreds of LLM calls).
 */
export const LARGE_TEXT_CHARS = 2_000_000;

/**
 * Most bytes a Word file may unpack to (its ZIP package's parts together, as declared): 200 MB, ten times the
 * XML of a document at the text limit with heavy formatting. A "zip bomb" declares gigabytes; unpacking one
 * would take the worker's memory before its text could be checked.
 */
export const MAX_DOCX_UNPACKED_BYTES = 200_000_000;

/** Bytes at the start of a file examined to recognise its format and tell text from binary data. */
export const SNIFF_BYTES = 8192;

/** Text files are read and decoded in slices of this many bytes, returning to the event loop in between. */
export const READ_SLICE_BYTES = 4 * 1024 * 1024;

/**
 * Share of control characters (C0 other than tab, line feed, form feed, carriage return and escape; and DEL) in
 * the first `SNIFF_BYTES` above which a file is taken for binary data. Text has none or a stray few; random
 * bytes have about 10%.
 */
export const BINARY_CONTROL_SHARE = 0.02;

/**
 * A file without a byte-order mark is read as UTF-16 when at least this share of the bytes at even (UTF-16BE)
 * or odd (UTF-16LE) positions of its first `SNIFF_BYTES` are NUL: the high bytes of mostly-ASCII UTF-16 text.
 */
export const UTF16_NUL_SHARE = 0.3;

/**
 * A file that is not UTF-8 is read as Windows-1252 (Western European) only while at most this share of its
 * non-whitespace characters lie outside ASCII. Western languages stay far below (French ≈ 4% accented letters);
 * Cyrillic, Greek or East Asian text in a legacy encoding lies far above, and reading it as Windows-1252 would
 * give garbage, so such a file is refused (`UNKNOWN_ENCODING`).
 */
export const LEGACY_NON_ASCII_SHARE = 0.3;

/**
 * A PDF whose pages average fewer non-whitespace characters than this has no usable text layer (a scan, or
 * pictures of text); a page of prose has about 2,000.
 */
export const MIN_PDF_CHARS_PER_PAGE = 16;

/** Bytes in a megabyte, as the messages count them. */
const MEGABYTE = 1_000_000;

/** Bytes in a gigabyte. */
const GIGABYTE = 1_000_000_000;

/** "1.2 GB", "12.3 MB", "950 kB" or "120 bytes": a size as a person reads it. */
export function formatBytes(bytes: number): string {
  if (bytes >= GIGABYTE) return `${(bytes / GIGABYTE).toFixed(1).replace(/\.0$/, '')} GB`;
  if (bytes >= MEGABYTE) return `${(bytes / MEGABYTE).toFixed(1).replace(/\.0$/, '')} MB`;
  if (bytes >= 1000) return `${Math.round(bytes / 1000)} kB`;
  return `${bytes} byte${bytes === 1 ? '' : 's'}`;
}

/** "2.5 million" or "12,345": a count of characters as a person reads it. */
export function formatCount(count: number): string {
  if (count >= MEGABYTE) return `${(count / MEGABYTE).toFixed(1).replace(/\.0$/, '')} million`;
  return count.toLocaleString('en-US');
}

/**
 * Most pages of a PDF read: 20,000, ten times the longest printed books (a 20-million-character text, the
 * `MAX_TEXT_CHARS` bound, is about 7,000 dense pages). A PDF that says it has more is refused before any page is
 * read, and so is an imported tree file whose PDF layout claims more (storage/transfer-originals.ts): a file
 * claiming 200,000 pages once ran 11 s into the import and failed as "UnknownError".
 */
export const MAX_PDF_PAGES = 20_000;

/**
 * Most text items one page of an imported layout may say PDF.js gave it: 100,000 (a dense page of small print
 * has a few thousand, one item a word at worst).
 */
export const MAX_PAGE_ITEMS = 100_000;

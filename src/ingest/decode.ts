/**
 * Bytes of a text file to a string. What a demanding user expects, in order:
 * 1. A byte-order mark decides: UTF-8, UTF-16LE or UTF-16BE. Without one, mostly-ASCII UTF-16 is recognised by
 *    its NUL high bytes; everything else is tried as UTF-8 (strictly: `fatal: true`).
 * 2. Binary data is refused from the first `SNIFF_BYTES`: any NUL, or more than `BINARY_CONTROL_SHARE` control
 *    characters.
 * 3. Not valid UTF-8: if most non-ASCII sequences are valid UTF-8 (a UTF-8 file with some damage), the bad
 *    bytes become U+FFFD with a warning; else the encoding an HTML page declares (`<meta charset>`) is used;
 *    else the file is read as Windows-1252 (the legacy encoding of Western European text, a superset of
 *    ISO-8859-1) with a warning, unless so much of it lies outside ASCII that it must be another legacy
 *    encoding (Cyrillic, Greek, East Asian), which is refused (`UNKNOWN_ENCODING`) rather than shown as garbage.
 * The file is decoded in slices of `READ_SLICE_BYTES`, returning to the event loop between slices, and
 * decoding stops as soon as the text passes `maxChars`.
 */
import { throwIfAborted, type AbortSignalLike } from '../core/abort';
import { yieldToEventLoop } from '../core/yield';
import { IngestError, quoted } from './errors';
import {
  BINARY_CONTROL_SHARE,
  formatBytes,
  formatCount,
  LEGACY_NON_ASCII_SHARE,
  READ_SLICE_BYTES,
  UTF16_NUL_SHARE,
} from '../protocol/ingest-limits';
import { readBytes } from './read';
import type { IngestFile, IngestProgress } from '../protocol/ingest';
import { Windows1252Decoder } from './windows-1252';

/** Options of `decodeTextFile`. */
export interface DecodeOptions {
  signal?: AbortSignalLike;
  /** Most UTF-16 code units accepted; decoding stops with `TOO_LARGE` past it. */
  maxChars: number;
  onProgress?: (progress: IngestProgress) => void;
  /** Encoding label the content declares (an HTML page's `<meta charset>`), tried before Windows-1252. */
  declaredCharset?: string;
}

/** A decoded file. */
export interface DecodedText {
  /** The text; a byte-order mark is removed, nothing else is changed. */
  text: string;
  /** The WHATWG name of the encoding used ("utf-8", "utf-16le", "windows-1252", …). */
  encoding: string;
  warnings: string[];
}

const UTF8_BOM = [0xef, 0xbb, 0xbf];
/** Fewest byte pairs from which UTF-16 without a byte-order mark is guessed (a few NULs prove nothing). */
const UTF16_MIN_PAIRS = 16;
/** Bytes per UTF-16 code unit at worst in UTF-8 (a 3-byte sequence is one code unit). */
const MAX_UTF8_BYTES_PER_UNIT = 3;
const REPLACEMENT_CHARACTER = 0xfffd;
const FIRST_NON_ASCII = 0x80;
const DELETE = 0x7f;
/** Control characters that text legitimately holds: tab, line feed, form feed, carriage return, escape. */
const TEXT_CONTROLS = new Set([0x09, 0x0a, 0x0c, 0x0d, 0x1b]);

/** The encoding the first bytes announce or betray: a byte-order mark, or UTF-16's NUL high bytes. */
export function detectEncoding(head: Uint8Array): 'utf-8' | 'utf-16le' | 'utf-16be' {
  if (head[0] === UTF8_BOM[0] && head[1] === UTF8_BOM[1] && head[2] === UTF8_BOM[2]) return 'utf-8';
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  const pairs = Math.floor(head.length / 2);
  if (pairs < UTF16_MIN_PAIRS) return 'utf-8';
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i < pairs * 2; i += 2) {
    if (head[i] === 0) evenNul++;
    if (head[i + 1] === 0) oddNul++;
  }
  // UTF-16 text has NULs on one side only; binary data has them on both.
  if (evenNul >= UTF16_NUL_SHARE * pairs && oddNul === 0) return 'utf-16be';
  if (oddNul >= UTF16_NUL_SHARE * pairs && evenNul === 0) return 'utf-16le';
  return 'utf-8';
}

/** Counts NULs and other control characters that do not belong in text. */
export function countControls(text: string): { nul: number; controls: number } {
  let nul = 0;
  let controls = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0) nul++;
    else if ((c < 0x20 && !TEXT_CONTROLS.has(c)) || c === DELETE) controls++;
  }
  return { nul, controls };
}

/** Throws `BINARY` when the decoded start of a file holds NULs or too many control characters. */
function assertText(name: string, head: Uint8Array, encoding: string): void {
  const sample = new TextDecoder(encoding).decode(head);
  const { nul, controls } = countControls(sample);
  if (nul > 0 || controls > BINARY_CONTROL_SHARE * sample.length) {
    throw new IngestError(
      'BINARY',
      `${quoted(name)} is not a text file: it holds binary data (${nul} NUL and ${controls} other control characters in its first ${formatBytes(head.length)}).`,
      { name, nul, controls, sampled: head.length },
    );
  }
}

function tooManyChars(name: string, chars: number, maxChars: number, bytesRead: number): IngestError {
  return new IngestError(
    'TOO_LARGE',
    `${quoted(name)} has more than ${formatCount(maxChars)} characters of text, the most Aerie builds a tree from in the browser. Split it into smaller files.`,
    { name, chars, maxChars, bytesRead },
  );
}

interface Stats {
  replaced: number;
  nonAscii: number;
  nonWhitespace: number;
}

function addStats(stats: Stats, part: string): void {
  for (let i = 0; i < part.length; i++) {
    const c = part.charCodeAt(i);
    if (c === REPLACEMENT_CHARACTER) stats.replaced++;
    else if (c >= FIRST_NON_ASCII) stats.nonAscii++;
    if (c > 0x20) stats.nonWhitespace++;
  }
}

/**
 * Decodes the whole file with one decoder, slice by slice. A fatal decoder throws a TypeError on the first
 * invalid sequence. `stats` (when given) counts replacement and non-ASCII characters.
 */
async function decodeSlices(
  file: IngestFile,
  encoding: string,
  fatal: boolean,
  options: DecodeOptions,
  stats?: Stats,
): Promise<string> {
  const decoder =
    encoding === 'windows-1252' ? new Windows1252Decoder() : new TextDecoder(encoding, { fatal });
  const parts: string[] = [];
  let chars = 0;
  for (let start = 0; start < file.size; start += READ_SLICE_BYTES) {
    throwIfAborted(options.signal);
    const end = Math.min(file.size, start + READ_SLICE_BYTES);
    const part = decoder.decode(await readBytes(file, start, end), { stream: end < file.size });
    parts.push(part);
    if (stats) addStats(stats, part);
    chars += part.length;
    if (chars > options.maxChars) throw tooManyChars(file.name, chars, options.maxChars, end);
    options.onProgress?.({ stage: 'read', done: end, total: file.size });
    if (end < file.size) await yieldToEventLoop();
  }
  return parts.join('');
}

function supportedLabel(label: string | undefined): string | undefined {
  if (!label) return undefined;
  try {
    const encoding = new TextDecoder(label).encoding;
    // Like browsers, ignore a page that declares UTF-16 in ASCII-compatible bytes.
    return encoding.startsWith('utf-16') ? undefined : encoding;
  } catch {
    return undefined;
  }
}

/** Decodes a text file (see the module comment for the rules). `head` is the file's first bytes. */
export async function decodeTextFile(
  file: IngestFile,
  head: Uint8Array,
  options: DecodeOptions,
): Promise<DecodedText> {
  const name = file.name;
  const encoding = detectEncoding(head);
  assertText(name, head, encoding);
  const minChars = encoding === 'utf-8' ? file.size / MAX_UTF8_BYTES_PER_UNIT : file.size / 2;
  if (minChars > options.maxChars + 1) throw tooManyChars(name, Math.floor(minChars), options.maxChars, 0);

  try {
    return { text: await decodeSlices(file, encoding, true, options), encoding, warnings: [] };
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
  }

  const lenient: Stats = { replaced: 0, nonAscii: 0, nonWhitespace: 0 };
  const replaced = await decodeSlices(file, encoding, false, options, lenient);
  const damage = `${formatCount(lenient.replaced)} invalid ${encoding === 'utf-8' ? 'UTF-8' : 'UTF-16'} sequence${lenient.replaced === 1 ? '' : 's'}`;
  const replacedWarning = `${quoted(name)} has ${damage}; they were replaced by “�”.`;
  if (encoding !== 'utf-8' || lenient.nonAscii > lenient.replaced) {
    return { text: replaced, encoding, warnings: [replacedWarning] };
  }

  const declared = supportedLabel(options.declaredCharset);
  if (declared && declared !== 'utf-8') {
    return { text: await decodeSlices(file, declared, false, options), encoding: declared, warnings: [] };
  }

  const legacy: Stats = { replaced: 0, nonAscii: 0, nonWhitespace: 0 };
  const text = await decodeSlices(file, 'windows-1252', false, options, legacy);
  const share = legacy.nonAscii / Math.max(1, legacy.nonWhitespace);
  if (share > LEGACY_NON_ASCII_SHARE) {
    throw new IngestError(
      'UNKNOWN_ENCODING',
      `${quoted(name)} is not UTF-8, and its encoding could not be recognised (${Math.round(share * 100)}% of its characters are non-ASCII: probably Cyrillic, Greek or East Asian text in a legacy encoding). Save it as UTF-8 and try again.`,
      { name, nonAsciiShare: share, invalidUtf8: lenient.replaced },
    );
  }
  return {
    text,
    encoding: 'windows-1252',
    warnings: [
      `${quoted(name)} is not UTF-8; it was read as Windows-1252 (Western European). If accented letters look wrong, save the file as UTF-8 and load it again.`,
    ],
  };
}

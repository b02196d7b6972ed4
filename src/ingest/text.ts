/**
 * The last steps every extracted text goes through, so that all documents look alike to the chunker: line
 * breaks become "\n" (leaf offsets index the text returned here, so this cannot wait until the build), a
 * leading byte-order mark and NUL characters go; then the text is checked against the limits.
 */
import { hasVisibleText } from '../core/text/visible';
import { IngestError, quoted } from './errors';
import { formatCount, LARGE_TEXT_CHARS } from '../protocol/ingest-limits';

const BYTE_ORDER_MARK = '\ufeff';

/** A cleaned text and what was removed from it. */
export interface CleanText {
  text: string;
  /** NUL characters removed. */
  nul: number;
}

/** CRLF and lone CR become LF; a leading byte-order mark and every NUL character are removed. */
export function cleanText(raw: string): CleanText {
  let text = raw.startsWith(BYTE_ORDER_MARK) ? raw.slice(1) : raw;
  if (text.includes('\r')) text = text.replace(/\r\n?/g, '\n');
  let nul = 0;
  if (text.includes('\0')) {
    const before = text.length;
    text = text.replaceAll('\0', '');
    nul = before - text.length;
  }
  return { text, nul };
}

/** The warning for removed NUL characters. */
export function nulWarning(name: string, nul: number): string {
  return `${formatCount(nul)} NUL character${nul === 1 ? ' was' : 's were'} removed from ${quoted(name)}.`;
}

/**
 * Checks a finished text: throws `NO_TEXT` when it is blank or has nothing visible (only zero-width, format or
 * control characters: see `hasVisibleText`) and `TOO_LARGE` above `maxChars`.
 */
export function checkText(name: string, text: string, maxChars: number): void {
  if (!/\S/.test(text)) {
    throw new IngestError('NO_TEXT', `${quoted(name)} contains no text, only blank space.`, {
      name,
      chars: text.length,
    });
  }
  if (!hasVisibleText(text)) {
    throw new IngestError(
      'NO_TEXT',
      `${quoted(name)} contains no visible text: its ${formatCount(text.length)} characters are all invisible ` +
        '(zero-width, formatting or control characters, or blank space).',
      { name, chars: text.length, invisible: true },
    );
  }
  if (text.length > maxChars) {
    throw new IngestError(
      'TOO_LARGE',
      `${quoted(name)} has ${formatCount(text.length)} characters of text, more than the ${formatCount(maxChars)} Aerie builds a tree from in the browser. Split it into smaller files.`,
      { name, chars: text.length, maxChars },
    );
  }
}

/**
 * The warning for a long text (above `LARGE_TEXT_CHARS`), with the leaf chunks a build at the default chunk
 * size will make, estimated by chunking samples of it (`estimateChunkCount`); undefined for other texts. The
 * chunker (and its token tables, a megabyte of script) is loaded only for such a text.
 */
export async function largeTextWarning(name: string, text: string): Promise<string | undefined> {
  if (text.length <= LARGE_TEXT_CHARS) return undefined;
  const { estimateChunkCount } = await import('../core/text/chunk-estimate');
  const leaves = estimateChunkCount(text);
  return `${quoted(name)} is long (${formatCount(text.length)} characters, about ${leaves.toLocaleString('en-US')} leaf chunks of 100 tokens): building its tree will take a long time and many summarisation calls.`;
}

/** Length of `text` in UTF-8 bytes (lone surrogates count as the 3 bytes of U+FFFD). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

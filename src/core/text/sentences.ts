/**
 * The sentences of a text, as the chunker and the extractive summariser read them. No token counting here,
 * so the embedding workers (which split sentences for sentence vectors) do not load the cl100k tables.
 *
 * Sentences are `Intl.Segmenter` sentences with two adjustments, because Unicode's rules (UAX #29) end a
 * sentence at every line break, which would cut hard-wrapped prose into lines:
 * - inside a block, a line break is read as a space (so a sentence runs across wrapped lines);
 * - blocks end at hard boundaries: a blank line (paragraph break) or U+2029, and before a line that opens a
 *   markdown block: a heading (`# …`), list item (`- `, `* `, `+ `, `•`, `1.`, `1)`), table row (`|`), code
 *   fence or thematic break; a heading, fence or thematic break also ends its block, and inside a fenced code
 *   block every line is its own block. So a heading or list item without a full stop is never glued to the
 *   sentence that follows it;
 * - a segment that ends with a title or an initial ("Mrs.", "Dr.", "St.", "J.") does not end the sentence:
 *   UAX #29 breaks after any full stop followed by a space and a capital, so "Mrs. Bennet said so." would be
 *   two sentences, "Mrs." and "Bennet said so." (V8's segmenter ignores ICU's `ss` abbreviation suppressions).
 *   In a novel that made an extractive summary of "Mrs. Mrs. Mrs." and cut chunks inside names.
 */
import { isPairMiddle, skipWhitespace, trimEnd } from './code-units';

/** A span of a text: `text.slice(start, end)`, offsets in UTF-16 code units. */
export interface TextSpan {
  start: number;
  end: number;
}

/** The sentences of `text` as the chunker sees them: trimmed, non-empty, in order (see the module comment). */
export function splitSentences(text: string): TextSpan[] {
  const sentences: TextSpan[] = [];
  for (const block of blockSpans(text)) segmentBlock(text, block, sentences);
  return sentences;
}

/** `splitSentences` under the name the embedder and the extractive summariser use. */
export const sentenceSpans = splitSentences;

// ---- Blocks: hard boundaries between sentences ------------------------------------------------------------

const LINE_END = /\r\n|[\n\r\u2028\u2029\u0085]/g;
const HEADING = /^ {0,3}#{1,6}(?:[ \t]|$)/;
const FENCE = /^ {0,3}(?:`{3,}|~{3,})/;
const THEMATIC_BREAK = /^ {0,3}([-*_=])(?:[ \t]*\1){2,}[ \t]*$/;
const LIST_ITEM = /^[ \t]*(?:[-*+•‣◦▪]|\d{1,9}[.)])[ \t]+\S/;
const TABLE_ROW = /^[ \t]*\|/;
const BLANK = /^\s*$/;
const PARAGRAPH_SEPARATOR = '\u2029';

/** How a line takes part in block structure. */
type LineKind = 'text' | 'blank' | 'opens' | 'alone';

function lineKind(line: string, inFence: boolean): LineKind {
  if (BLANK.test(line)) return 'blank';
  if (FENCE.test(line) || (!inFence && (HEADING.test(line) || THEMATIC_BREAK.test(line)))) return 'alone';
  if (inFence || LIST_ITEM.test(line) || TABLE_ROW.test(line)) return 'opens';
  return 'text';
}

/** Splits `text` into blocks at hard boundaries (see the module comment); the blocks tile the text. */
function blockSpans(text: string): TextSpan[] {
  const blocks: TextSpan[] = [];
  let blockStart = 0;
  let breakAfterPrevious = false;
  let inFence = false;
  LINE_END.lastIndex = 0;
  for (let lineStart = 0; lineStart < text.length;) {
    const match = LINE_END.exec(text);
    const lineEnd = match ? match.index : text.length;
    const line = text.slice(lineStart, lineEnd);
    const kind = lineKind(line, inFence);
    if (FENCE.test(line)) inFence = !inFence;
    if ((kind !== 'text' || breakAfterPrevious) && lineStart > blockStart) {
      blocks.push({ start: blockStart, end: lineStart });
      blockStart = lineStart;
    }
    breakAfterPrevious = kind === 'blank' || kind === 'alone' || match?.[0] === PARAGRAPH_SEPARATOR;
    lineStart = match ? lineEnd + match[0].length : text.length;
  }
  if (blockStart < text.length) blocks.push({ start: blockStart, end: text.length });
  return blocks;
}

// ---- Sentences inside a block -----------------------------------------------------------------------------

const LINE_BREAK_CHAR = /[\n\r\u2028\u2029\u0085]/g;
/** First window (UTF-16 units) handed to the sentence segmenter. */
const SENTENCE_WINDOW = 2048;
/** Window limits once adapted to the sentence lengths seen. */
const MIN_WINDOW = 256;
const MAX_WINDOW = 8192;
/** A boundary this close to a window's end may depend on text past it, so it is left to the next window. */
const WINDOW_LOOKAHEAD = 64;
/**
 * Segments taken per window. V8 copies the whole input into every segment it returns, so one call over a
 * 1 MB string needs gigabytes; short windows with a bounded number of segments keep it linear.
 */
const SEGMENTS_PER_WINDOW = 32;

let sentenceSegmenter: Intl.Segmenter | undefined;

/**
 * Words written with a full stop that precede a name or a number and so never end a sentence by themselves
 * (compared lower-case, without the stop): English titles and ranks, and "St." / "Mt." of place names.
 * Abbreviations that often do end a sentence ("etc.", "Inc.", "Co.") are left out on purpose.
 */
const NAME_ABBREVIATIONS = new Set([
  'mr',
  'mrs',
  'ms',
  'messrs',
  'mmes',
  'mme',
  'mlle',
  'dr',
  'prof',
  'rev',
  'revd',
  'hon',
  'st',
  'ste',
  'mt',
  'ft',
  'jr',
  'sr',
  'capt',
  'cpt',
  'col',
  'gen',
  'lt',
  'sgt',
  'maj',
  'cmdr',
  'adm',
  'brig',
  'cpl',
  'pvt',
  'gov',
  'sen',
  'rep',
  'pres',
  'supt',
  'insp',
  'det',
  'fr',
  'br',
  'sr',
  'no',
  'nos',
  'vol',
  'fig',
  'cf',
  'vs',
  'viz',
]);
/** The last word of a segment and the full stop after it, e.g. "Mrs." at the end of "…said Mrs. ". */
const LAST_WORD_WITH_STOP = /(?:^|[\s([“‘"'])([\p{L}]+)\.\s*$/u;

/**
 * Whether a sentence segment ends with a title or an initial rather than with the end of a sentence: its last
 * word is in NAME_ABBREVIATIONS, or a single capital letter other than "I" (an initial, "J. K."), followed by
 * the full stop the segmenter broke after.
 */
export function endsWithNameAbbreviation(segment: string): boolean {
  const match = LAST_WORD_WITH_STOP.exec(segment);
  if (!match) return false;
  const word = match[1];
  if (word.length === 1) return word !== 'I' && word === word.toUpperCase() && word !== word.toLowerCase();
  return NAME_ABBREVIATIONS.has(word.toLowerCase());
}

/** Appends the trimmed sentences of one block, read with its line breaks as spaces. */
function segmentBlock(text: string, block: TextSpan, out: TextSpan[]): void {
  // Same length as the block (each line-break character becomes one space), so offsets carry over.
  const flat = text.slice(block.start, block.end).replace(LINE_BREAK_CHAR, ' ');
  sentenceSegmenter ??= new Intl.Segmenter('en', { granularity: 'sentence' });
  let size = SENTENCE_WINDOW;
  // Start (in `flat`) of a sentence whose segments so far ended with a title or an initial, or −1.
  let openStart = -1;
  for (let pos = 0; pos < flat.length;) {
    let end = Math.min(flat.length, pos + size);
    if (end < flat.length && isPairMiddle(flat, end)) end++;
    const isLast = end === flat.length;
    let taken = pos;
    let count = 0;
    for (const { index, segment } of sentenceSegmenter.segment(flat.slice(pos, end))) {
      const segmentEnd = pos + index + segment.length;
      if (!isLast && segmentEnd > end - WINDOW_LOOKAHEAD) break;
      const start = openStart >= 0 ? openStart : pos + index;
      if (segmentEnd < flat.length && endsWithNameAbbreviation(segment)) openStart = start;
      else {
        pushTrimmed(text, block.start + start, block.start + segmentEnd, out);
        openStart = -1;
      }
      taken = segmentEnd;
      if (++count === SEGMENTS_PER_WINDOW) break;
    }
    if (count === 0) {
      size *= 2; // one sentence longer than the window: look further
      continue;
    }
    size = Math.min(MAX_WINDOW, Math.max(MIN_WINDOW, Math.ceil((taken - pos) / count) * SEGMENTS_PER_WINDOW));
    pos = taken;
  }
}

// ---- Whitespace helpers ------------------------------------------------------------------------------------

/** Appends `text.slice(start, end)` without its leading and trailing whitespace to `out`, unless nothing is left. */
export function pushTrimmed(text: string, start: number, end: number, out: TextSpan[]): void {
  start = skipWhitespace(text, start, end);
  end = trimEnd(text, start, end);
  if (end > start) out.push({ start, end });
}

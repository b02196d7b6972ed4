/**
 * Splits a document into RAPTOR's leaf chunks (paper §3): consecutive whole sentences of at most `maxTokens`
 * cl100k tokens; a sentence that does not fit in the current chunk moves whole to the next one. Only a sentence
 * longer than `maxTokens` on its own is split: at clause punctuation, then between words, then (scripts without
 * spaces, long URLs) at `Intl.Segmenter` word boundaries, then between grapheme clusters, then code points.
 *
 * Unlike the reference implementation (raptor `utils.split_text`, which deletes every '.', '!' and '?' and
 * cuts at every line break), nothing is lost, duplicated or reordered: every non-whitespace character of the
 * input lies in exactly one chunk, in order, and each chunk is an exact slice of the input.
 *
 * Sentences are `Intl.Segmenter` sentences with two adjustments, because Unicode's rules (UAX #29) end a
 * sentence at every line break, which would cut hard-wrapped prose into lines:
 * - inside a block, a line break is read as a space (so a sentence runs across wrapped lines);
 * - blocks end at hard boundaries: a blank line (paragraph break) or U+2029, and before a line that opens a
 *   markdown block: a heading (`# …`), list item (`- `, `* `, `+ `, `•`, `1.`, `1)`), table row (`|`), code
 *   fence or thematic break; a heading, fence or thematic break also ends its block, and inside a fenced code
 *   block every line is its own block. So a heading or list item without a full stop is never glued to the
 *   sentence that follows it.
 */
import { AerieError } from './errors';
import { countTokens, countTokensUpTo, isPairMiddle, isWhitespaceCode, tokenPrefixEnd } from './tokens';
import { DEFAULT_BUILD_PARAMS } from './types';

/** One chunk of a document. */
export interface Chunk {
  /** `input.slice(start, end)`: starts and ends with a non-whitespace character; inner whitespace kept as is. */
  text: string;
  /** Offset of the chunk's first character in the input (UTF-16 code units). */
  start: number;
  /** Offset one past its last character. */
  end: number;
  /** cl100k token count of `text` (`countTokens(text)`), at most `maxTokens`. */
  tokens: number;
}

/** Options of {@link chunkText}. */
export interface ChunkOptions {
  /** Maximum cl100k tokens per chunk, a whole number ≥ 1. Default 100 (the paper's). */
  maxTokens?: number;
}

/** A span of a text: `text.slice(start, end)`, offsets in UTF-16 code units. */
export interface TextSpan {
  start: number;
  end: number;
}

/**
 * Why a text could not be chunked. `INVALID_MAX_TOKENS`: `maxTokens` is not a whole number ≥ 1.
 * `MAX_TOKENS_TOO_SMALL`: a single character needs more tokens than `maxTokens` (a code point is at most 4
 * cl100k tokens, so this needs `maxTokens` ≤ 3); `details` names the offset and its token count.
 */
export class ChunkingError extends AerieError<'INVALID_MAX_TOKENS' | 'MAX_TOKENS_TOO_SMALL'> {}

/**
 * Splits `text` into chunks of whole sentences of at most `maxTokens` tokens (see the module comment for
 * what counts as a sentence and how an over-long sentence is split). Returns [] for empty or whitespace-only
 * text. Linear in the length of the text.
 * @throws ChunkingError on an invalid `maxTokens`, or one too small for a single character.
 */
export function chunkText(
  text: string,
  { maxTokens = DEFAULT_BUILD_PARAMS.chunkTokens }: ChunkOptions = {},
): Chunk[] {
  if (!Number.isInteger(maxTokens) || maxTokens < 1) {
    const message = `maxTokens must be a whole number ≥ 1, got ${maxTokens}.`;
    throw new ChunkingError('INVALID_MAX_TOKENS', message, { maxTokens });
  }
  const units = new Units();
  for (const sentence of splitSentences(text)) addSentence(text, sentence, maxTokens, units);
  return pack(text, units, maxTokens);
}

/** The sentences of `text` as the chunker sees them: trimmed, non-empty, in order (see the module comment). */
export function splitSentences(text: string): TextSpan[] {
  const sentences: TextSpan[] = [];
  for (const block of blockSpans(text)) segmentBlock(text, block, sentences);
  return sentences;
}

// ---- Units: the pieces chunks are packed from -------------------------------------------------------------

/** Sentences, or pieces of over-long sentences, as parallel arrays (a 1 MB text has tens of thousands). */
class Units {
  starts: number[] = [];
  ends: number[] = [];
  tokens: number[] = [];
  /** A chunk must start here: the first piece of an over-long sentence or clause. */
  breakBefore: boolean[] = [];
  push(start: number, end: number, tokens: number, breakBefore: boolean): void {
    this.starts.push(start);
    this.ends.push(end);
    this.tokens.push(tokens);
    this.breakBefore.push(breakBefore);
  }
}

function addSentence(text: string, s: TextSpan, maxTokens: number, units: Units): void {
  const tokens = countTokensUpTo(text.slice(s.start, s.end), maxTokens);
  if (tokens <= maxTokens) {
    units.push(s.start, s.end, tokens, false);
    return;
  }
  let first = true;
  for (const clause of clauseSpans(text, s.start, s.end)) {
    const clauseTokens = countTokensUpTo(text.slice(clause.start, clause.end), maxTokens);
    if (clauseTokens <= maxTokens) units.push(clause.start, clause.end, clauseTokens, first);
    else splitLong(text, clause, maxTokens, units);
    first = false;
  }
}

/** Cuts a clause that alone exceeds the budget into longest-fitting pieces (words, then finer). */
function splitLong(text: string, clause: TextSpan, maxTokens: number, units: Units): void {
  let first = true;
  for (let p = clause.start; p < clause.end; p = skipWhitespace(text, p, clause.end)) {
    const cut = tokenPrefixEnd(text, p, clause.end, maxTokens);
    if (cut === p) {
      const tokens = countTokens(String.fromCodePoint(text.codePointAt(p) ?? 0));
      const message = `The character at offset ${p} alone needs ${tokens} tokens, more than maxTokens ${maxTokens}.`;
      throw new ChunkingError('MAX_TOKENS_TOO_SMALL', message, { maxTokens, offset: p, tokens });
    }
    const end = trimEnd(text, p, cut);
    units.push(p, end, countTokens(text.slice(p, end)), first);
    first = false;
    p = cut;
  }
}

/**
 * Greedy packing, as the paper describes: add units while the chunk stays within budget. The running total
 * is estimated by adding unit counts (token counts are nearly, not exactly, additive across a join), then the
 * chunk is counted exactly and corrected, so each chunk costs about two counts of its own length.
 */
function pack(text: string, units: Units, maxTokens: number): Chunk[] {
  const { starts, ends, tokens, breakBefore } = units;
  const n = starts.length;
  const countRange = (first: number, stop: number): number =>
    stop - first === 1
      ? tokens[first]
      : countTokensUpTo(text.slice(starts[first], ends[stop - 1]), maxTokens);
  const chunks: Chunk[] = [];
  for (let i = 0; i < n;) {
    let stop = i + 1;
    let estimate = tokens[i];
    while (stop < n && !breakBefore[stop]) {
      const next = estimate + tokens[stop] + gapEstimate(text, ends[stop - 1], starts[stop]);
      if (next > maxTokens) break;
      estimate = next;
      stop++;
    }
    let total = countRange(i, stop);
    while (total > maxTokens && stop - i > 1) total = countRange(i, --stop);
    while (stop < n && !breakBefore[stop]) {
      const longer = countRange(i, stop + 1);
      if (longer > maxTokens) break;
      total = longer;
      stop++;
    }
    chunks.push({
      text: text.slice(starts[i], ends[stop - 1]),
      start: starts[i],
      end: ends[stop - 1],
      tokens: total,
    });
    i = stop;
  }
  return chunks;
}

/** Tokens a join adds: none for a single space (it merges into the next word's token), else about one. */
function gapEstimate(text: string, from: number, to: number): number {
  return to === from || (to === from + 1 && text.charCodeAt(from) === SPACE) ? 0 : 1;
}
const SPACE = 0x20;

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

/** Appends the trimmed sentences of one block, read with its line breaks as spaces. */
function segmentBlock(text: string, block: TextSpan, out: TextSpan[]): void {
  // Same length as the block (each line-break character becomes one space), so offsets carry over.
  const flat = text.slice(block.start, block.end).replace(LINE_BREAK_CHAR, ' ');
  sentenceSegmenter ??= new Intl.Segmenter('en', { granularity: 'sentence' });
  let size = SENTENCE_WINDOW;
  for (let pos = 0; pos < flat.length;) {
    let end = Math.min(flat.length, pos + size);
    if (end < flat.length && isPairMiddle(flat, end)) end++;
    const isLast = end === flat.length;
    let taken = pos;
    let count = 0;
    for (const { index, segment } of sentenceSegmenter.segment(flat.slice(pos, end))) {
      const segmentEnd = pos + index + segment.length;
      if (!isLast && segmentEnd > end - WINDOW_LOOKAHEAD) break;
      pushTrimmed(text, block.start + pos + index, block.start + segmentEnd, out);
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

// ---- Clauses of an over-long sentence ---------------------------------------------------------------------

/** ASCII clause marks, a cut only when a space follows (so "1,000" and "https://" stay whole). */
const SPACED_CLAUSE_MARKS = new Set([',', ';', ':']);
/** Dashes, ellipsis, CJK and Arabic clause marks: a cut right after them. */
const CLAUSE_MARKS = new Set(['—', '–', '…', '，', '、', '；', '：', '﹐', '﹑', '﹔', '﹕', '،', '؛']);
/** Characters that attach to the one before (combining marks and variation selectors, ZWJ): no cut before. */
const ATTACHED = /\p{M}|\u200D/u;

function clauseSpans(text: string, start: number, end: number): TextSpan[] {
  const clauses: TextSpan[] = [];
  let from = start;
  for (let i = start; i < end - 1; i++) {
    const ch = text[i];
    const next = text[i + 1];
    const cut = SPACED_CLAUSE_MARKS.has(ch)
      ? isWhitespaceCode(next.charCodeAt(0))
      : CLAUSE_MARKS.has(ch) && !ATTACHED.test(next);
    if (!cut) continue;
    pushTrimmed(text, from, i + 1, clauses);
    from = i + 1;
  }
  pushTrimmed(text, from, end, clauses);
  return clauses;
}

// ---- Whitespace helpers ------------------------------------------------------------------------------------

function pushTrimmed(text: string, start: number, end: number, out: TextSpan[]): void {
  start = skipWhitespace(text, start, end);
  end = trimEnd(text, start, end);
  if (end > start) out.push({ start, end });
}

function skipWhitespace(text: string, from: number, to: number): number {
  while (from < to && isWhitespaceCode(text.charCodeAt(from))) from++;
  return from;
}

function trimEnd(text: string, from: number, to: number): number {
  while (to > from && isWhitespaceCode(text.charCodeAt(to - 1))) to--;
  return to;
}

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
 * Sentences are those of `splitSentences` (sentences.ts): `Intl.Segmenter` sentences inside blocks, read
 * across hard-wrapped lines.
 */
import { throwIfAborted, type AbortSignalLike } from '../abort';
import { AerieError } from '../errors';
import { isWhitespaceCode, skipWhitespace, trimEnd } from './code-units';
import { pushTrimmed, splitSentences, type TextSpan } from './sentences';
import { countSentenceTokensUpTo, countTokens, countTokensUpTo, tokenPrefixEnd } from './tokens';
import { DEFAULT_BUILD_PARAMS } from '../types';
import { runAsync, runSync } from '../yield';

export { splitSentences, type TextSpan } from './sentences';

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

/**
 * Why a text could not be chunked. `INVALID_MAX_TOKENS`: `maxTokens` is not a whole number ≥ 1.
 * `MAX_TOKENS_TOO_SMALL`: a single character needs more tokens than `maxTokens` (a code point is at most 4
 * cl100k tokens, so this needs `maxTokens` ≤ 3); `details` names the offset and its token count.
 */
export class ChunkingError extends AerieError<'INVALID_MAX_TOKENS' | 'MAX_TOKENS_TOO_SMALL'> {}

/** Options of {@link chunkTextAsync}. */
export interface AsyncChunkOptions extends ChunkOptions {
  /** Stops chunking with an AbortError (checked between steps, at least every ~50 ms). */
  signal?: AbortSignalLike;
  /**
   * Called as the work advances, with how far it is in characters of the text (0 … text.length, never going
   * back): the first half of the range while sentences are measured, the second while chunks are packed.
   */
  onProgress?: (done: number) => void;
}

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
  return runSync(chunkSteps(text, maxTokens));
}

/**
 * `chunkText` that returns to the event loop every ~50 ms, reports how far it is and stops when `signal`
 * fires: a 15 MB text takes a minute to chunk, and a worker doing it must still hear a cancel. The same chunks
 * as `chunkText`.
 * @throws ChunkingError as `chunkText`; an AbortError when `signal` fires.
 */
export function chunkTextAsync(text: string, options: AsyncChunkOptions = {}): Promise<Chunk[]> {
  const { maxTokens = DEFAULT_BUILD_PARAMS.chunkTokens, signal, onProgress } = options;
  return runAsync(chunkSteps(text, maxTokens, onProgress), () => throwIfAborted(signal));
}

/** The chunker as steps (see `runSync`/`runAsync`): it yields after each sentence, piece and chunk. */
function* chunkSteps(
  text: string,
  maxTokens: number,
  onProgress?: (done: number) => void,
): Generator<undefined, Chunk[], unknown> {
  if (!Number.isInteger(maxTokens) || maxTokens < 1) {
    const message = `maxTokens must be a whole number ≥ 1, got ${maxTokens}.`;
    throw new ChunkingError('INVALID_MAX_TOKENS', message, { maxTokens });
  }
  const half = (offset: number) => Math.floor(offset / 2);
  const units = new Units();
  for (const sentence of splitSentences(text)) {
    yield* addSentence(text, sentence, maxTokens, units, (end) => onProgress?.(half(end)));
  }
  return yield* pack(text, units, maxTokens, (end) => onProgress?.(half(text.length) + half(end)));
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

/** Adds a sentence's units; reports (`at`) and yields after the sentence and after each piece of a long one. */
function* addSentence(
  text: string,
  s: TextSpan,
  maxTokens: number,
  units: Units,
  at: (offset: number) => void,
): Generator<undefined, void, unknown> {
  const tokens = countSentenceTokensUpTo(text.slice(s.start, s.end), maxTokens);
  if (tokens <= maxTokens) {
    units.push(s.start, s.end, tokens, false);
    at(s.end);
    yield;
    return;
  }
  let first = true;
  for (const clause of clauseSpans(text, s.start, s.end)) {
    const clauseTokens = countTokensUpTo(text.slice(clause.start, clause.end), maxTokens);
    if (clauseTokens <= maxTokens) units.push(clause.start, clause.end, clauseTokens, first);
    else yield* splitLong(text, clause, maxTokens, units, at);
    first = false;
    at(clause.end);
    yield;
  }
}

/** Cuts a clause that alone exceeds the budget into longest-fitting pieces (words, then finer). */
function* splitLong(
  text: string,
  clause: TextSpan,
  maxTokens: number,
  units: Units,
  at: (offset: number) => void,
): Generator<undefined, void, unknown> {
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
    at(end);
    yield;
  }
}

/**
 * Greedy packing, as the paper describes: add units while the chunk stays within budget. The running total
 * is estimated by adding unit counts (token counts are nearly, not exactly, additive across a join), then the
 * chunk is counted exactly and corrected, so each chunk costs about two counts of its own length.
 */
function* pack(
  text: string,
  units: Units,
  maxTokens: number,
  at: (offset: number) => void,
): Generator<undefined, Chunk[], unknown> {
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
    at(ends[stop - 1]);
    yield;
  }
  at(text.length);
  return chunks;
}

/** Tokens a join adds: none for a single space (it merges into the next word's token), else about one. */
function gapEstimate(text: string, from: number, to: number): number {
  return to === from || (to === from + 1 && text.charCodeAt(from) === SPACE) ? 0 : 1;
}
const SPACE = 0x20;

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

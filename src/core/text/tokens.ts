/**
 * Token counting in OpenAI's cl100k_base encoding, the tokenizer the RAPTOR reference uses for its chunk and
 * summary budgets (tiktoken `cl100k_base`), through the bundled `gpt-tokenizer` tables: no network.
 *
 * Text is encoded as ordinary text: a literal "<|endoftext|>" in a document counts as the characters it is
 * (tiktoken's `encode_ordinary`), not as a special token and not as an error.
 */
import { clearMergeCache, countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { AerieError } from '../errors';
import { isLowSurrogate, isPairMiddle, isWhitespaceCode } from './code-units';

export { isPairMiddle, isWhitespaceCode } from './code-units';

/** No special tokens: every string is counted as ordinary text (and the special-token scan is skipped). */
const ORDINARY_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * First guess of UTF-16 code units per token for the probe window of a cut. Dense scripts (CJK) have about
 * one token per character, English about four; the window doubles until it holds the budget, so starting
 * small keeps the count of a long unbroken run (which the tokenizer merges in quadratic time) short.
 */
const PROBE_CHARS_PER_TOKEN = 2;
/**
 * How far (UTF-16 units) a probe window's end may move forward to reach the end of the word it falls in. Longer
 * than any word of prose; an unbroken run longer than this (a URL, CJK text) is cut by the finer levels anyway.
 */
const WORD_END_REACH = 64;
/** Slack over the estimated cut when narrowing the probe window (fraction of the estimate, then units). */
const NARROW_FACTOR = 1.25;
const NARROW_SLACK = 16;
/**
 * Longest cl100k token in UTF-8 bytes (a run of spaces), and a bound on the tokens that can cover a letter:
 * the longest letters-only token (with the one leading character the pre-tokenizer allows) has 42 bytes, a
 * token holding part of a character at most 12. A text of B bytes thus has at least B/128 tokens, and its
 * letters alone at least letterBytes/48: a bound that needs no tokenizing.
 */
const MAX_TOKEN_BYTES = 128;
const MAX_LETTER_TOKEN_BYTES = 48;
/** Texts up to this many characters per budget token are counted outright; the bound is not worth it. */
const COUNT_OUTRIGHT_CHARS_PER_TOKEN = 4;
const LETTER_RUN = /\p{L}+/gu;

/** Calls to `countTokens` between clears of the tokenizer's merge cache. */
const CLEAR_CACHE_EVERY = 5000;
let countsSinceClear = 0;

/** A `maxTokens` that is not a whole number ≥ 0 (for cuts) or ≥ 1 (for chunks). */
export class TokenBudgetError extends AerieError<'INVALID_MAX_TOKENS'> {}

/**
 * Number of cl100k_base tokens of `text` (the count tiktoken's `cl100k_base` gives); 0 for ''.
 * Linear in the length of `text`; called once per sentence by the chunker.
 */
export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  // gpt-tokenizer's merge cache slows down badly once full (each new word evicts the oldest of 100k keys):
  // clearing it now and then measured ~4× faster on 100k varied texts, and never slower.
  if (++countsSinceClear >= CLEAR_CACHE_EVERY) {
    countsSinceClear = 0;
    clearMergeCache();
  }
  return countCl100k(text, ORDINARY_TEXT);
}

/**
 * Whole sentences' counts remembered (by their exact text) between clears. The chunker counts every sentence
 * of a document, and the extractive summariser counts the sentences of every cluster again (their whitespace
 * made single spaces: for prose without line breaks inside a sentence, the same string), and of every layer
 * above again: ~25 % of the summaries' stage on a 78k-token book (docs/build-time.md). A count remembered is
 * the count of the same string, so nothing it decides can differ. About 2,600 sentences make 78k tokens.
 */
export const SENTENCE_COUNT_MEMORY = 50_000;
const sentenceCounts = new Map<string, number>();

/**
 * `countTokens(sentence)`, remembered for the next call with the same text (see SENTENCE_COUNT_MEMORY): for
 * texts counted again and again, like sentences; not for one-off texts (a cut's probes), which would only
 * crowd the memory.
 */
export function countSentenceTokens(sentence: string): number {
  let count = sentenceCounts.get(sentence);
  if (count === undefined) {
    count = countTokens(sentence);
    if (sentenceCounts.size >= SENTENCE_COUNT_MEMORY) sentenceCounts.clear();
    sentenceCounts.set(sentence, count);
  }
  return count;
}

/**
 * Forgets every remembered sentence count (see SENTENCE_COUNT_MEMORY): called when a build ends, so no
 * document's sentences stay in the worker's memory after its build (its tree may be deleted next).
 */
export function forgetSentenceCounts(): void {
  sentenceCounts.clear();
}

/**
 * `countTokensUpTo` for a whole sentence: a sentence it counts is remembered (`countSentenceTokens`).
 * @param limit the largest count of interest, ≥ 0.
 */
export function countSentenceTokensUpTo(sentence: string, limit: number): number {
  return countUpTo(sentence, limit, countSentenceTokens);
}

/**
 * The cl100k count of `text` when it is at most `limit`; otherwise some number greater than `limit`, found
 * without tokenizing when a byte count already proves it. Byte-pair merging takes time quadratic in the length
 * of an unbroken run of letters (a 100 kB "word", CJK text without punctuation), so deciding "too long" for
 * such a text must not count it.
 * @param limit the largest count of interest, ≥ 0.
 */
export function countTokensUpTo(text: string, limit: number): number {
  return countUpTo(text, limit, countTokens);
}

function countUpTo(text: string, limit: number, count: (text: string) => number): number {
  if (text.length <= limit * COUNT_OUTRIGHT_CHARS_PER_TOKEN) return count(text);
  const bound = tokenLowerBound(text);
  return bound > limit ? bound : count(text);
}

/** A lower bound on the token count from UTF-8 byte counts alone (see MAX_TOKEN_BYTES). */
function tokenLowerBound(text: string): number {
  let letterBytes = 0;
  for (const [run] of text.matchAll(LETTER_RUN)) letterBytes += utf8Length(run);
  return Math.max(
    Math.ceil(utf8Length(text) / MAX_TOKEN_BYTES),
    Math.ceil(letterBytes / MAX_LETTER_TOKEN_BYTES),
  );
}

/**
 * UTF-8 length in bytes of `text` (what `TextEncoder` writes: a lone surrogate counts 3, as the encoder writes
 * U+FFFD for it), without encoding it. Exported for tests.
 */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * The longest prefix of `text` with at most `maxTokens` tokens, cut preferably between words: at the end of a
 * space-separated word; if not even the first word fits, at a word boundary of `Intl.Segmenter` (which splits
 * CJK text into words and URLs at their punctuation); then between grapheme clusters; then between code points.
 * Never splits a surrogate pair. Returns `text` itself when it fits, '' when not even its first code point does.
 * @param maxTokens token budget, a whole number ≥ 0.
 * @throws TokenBudgetError when `maxTokens` is negative, fractional or NaN.
 */
export function truncateToTokens(text: string, maxTokens: number): string {
  return text.slice(0, tokenPrefixEnd(text, 0, text.length, maxTokens));
}

/**
 * Where the cut of {@link truncateToTokens} falls inside `text.slice(from, to)`: the largest offset `end` in
 * [from, to] (UTF-16 units into `text`) such that `text.slice(from, end)` has at most `maxTokens` tokens, with
 * the same preference for word boundaries. Costs a few token counts of about twice the returned prefix, not of
 * the whole range, so cutting a long text into pieces stays linear.
 * @param from start offset; should be a code point boundary.
 * @param to end offset, `from` ≤ `to` ≤ `text.length`.
 * @param maxTokens token budget, a whole number ≥ 0.
 * @throws TokenBudgetError when `maxTokens` is negative, fractional or NaN.
 */
export function tokenPrefixEnd(text: string, from: number, to: number, maxTokens: number): number {
  if (!Number.isInteger(maxTokens) || maxTokens < 0) {
    const message = `maxTokens must be a whole number ≥ 0, got ${maxTokens}.`;
    throw new TokenBudgetError('INVALID_MAX_TOKENS', message, { maxTokens });
  }
  if (from >= to) return from;
  if (maxTokens === 0) return from;

  // Grow a probe window [from, end) until it holds more than maxTokens tokens; the cut lies inside it. The window
  // ends at a word end where one is near: a prefix cut inside a word can count more tokens than the prefix up to
  // the word's end ("daughte" is two tokens, "daughter" one), so only there does "too many" rule out every
  // longer word-end cut.
  let end = wordEndAfter(
    text,
    codePointFloor(text, Math.min(to, from + Math.max(1, maxTokens * PROBE_CHARS_PER_TOKEN)), from),
    to,
  );
  let tokens: number;
  for (;;) {
    tokens = countTokensUpTo(text.slice(from, end), maxTokens);
    if (tokens > maxTokens) break;
    if (end === to) return to;
    const grown = Math.min(to, from + 2 * (end - from));
    end = wordEndAfter(text, grown < to && isPairMiddle(text, grown) ? grown + 1 : grown, to);
  }
  // Tokens are roughly proportional to characters: estimate the cut and narrow the window around it, so the
  // word and grapheme segmentation below only sees about the length of the answer.
  const hint = from + Math.floor(((end - from) * maxTokens) / tokens);
  const narrow = wordEndAfter(
    text,
    codePointFloor(text, from + Math.ceil((hint - from) * NARROW_FACTOR) + NARROW_SLACK, from),
    to,
  );
  if (narrow < end && countTokensUpTo(text.slice(from, narrow), maxTokens) > maxTokens) end = narrow;

  const fits = (cut: number): boolean => countTokensUpTo(text.slice(from, cut), maxTokens) <= maxTokens;
  let limit = end;
  for (const candidates of CUT_LEVELS) {
    const cuts = candidates(text, from, limit);
    if (cuts.length === 0) continue;
    const best = largestFitting(cuts, fits, indexAtOrBelow(cuts, hint));
    if (best >= 0) return cuts[best];
    // Not even this level's first cut fits: any finer cut that fits lies before it.
    limit = cuts[0];
  }
  return from;
}

/** Ways of cutting, preferred first; each lists ascending cut offsets strictly between `from` and `limit`. */
const CUT_LEVELS: readonly ((text: string, from: number, limit: number) => number[])[] = [
  wordEndCuts,
  (text, from, limit) => segmentCuts(wordSegmenter(), text, from, limit),
  (text, from, limit) => segmentCuts(graphemeSegmenter(), text, from, limit),
  codePointCuts,
];

let words: Intl.Segmenter | undefined;
let graphemes: Intl.Segmenter | undefined;
/** A fixed locale keeps boundaries the same on every machine; the rules used here do not depend on it. */
const SEGMENTER_LOCALE = 'en';
function wordSegmenter(): Intl.Segmenter {
  return (words ??= new Intl.Segmenter(SEGMENTER_LOCALE, { granularity: 'word' }));
}
function graphemeSegmenter(): Intl.Segmenter {
  return (graphemes ??= new Intl.Segmenter(SEGMENTER_LOCALE, { granularity: 'grapheme' }));
}

/** Ends of whitespace-separated words: offsets after a non-space character that a space follows. */
function wordEndCuts(text: string, from: number, limit: number): number[] {
  const cuts: number[] = [];
  for (let i = from + 1; i < limit; i++) {
    if (isWhitespaceCode(text.charCodeAt(i)) && !isWhitespaceCode(text.charCodeAt(i - 1))) cuts.push(i);
  }
  return cuts;
}

/**
 * Boundaries between the segments of `text.slice(from, limit)`. Boundary rules look at most a little to the
 * right, and only boundaries below `limit` are used, so the window gives the same cuts as the whole text.
 * The window is short (about twice the cut), which matters: each segment V8 returns copies the whole input.
 */
function segmentCuts(segmenter: Intl.Segmenter, text: string, from: number, limit: number): number[] {
  const cuts: number[] = [];
  for (const { index } of segmenter.segment(text.slice(from, limit))) {
    if (index > 0) cuts.push(from + index);
  }
  return cuts;
}

/** Every code point boundary (never between the two halves of a surrogate pair). */
function codePointCuts(text: string, from: number, limit: number): number[] {
  const cuts: number[] = [];
  for (let i = from + 1; i < limit; i++) if (!isPairMiddle(text, i)) cuts.push(i);
  return cuts;
}

/**
 * Largest index `i` with `fits(cuts[i])`, or −1, when `fits` holds up to some index and fails after (token
 * counts of longer prefixes rarely shrink; where they do, the answer is still a cut that fits). Gallops from
 * the estimate `start`, so a good estimate costs two or three calls.
 */
function largestFitting(cuts: readonly number[], fits: (cut: number) => boolean, start: number): number {
  let lo = -1; // fits(cuts[lo]) is known true (or lo is −1)
  let hi = cuts.length; // fits(cuts[hi]) is known false (or hi is past the end)
  const s = Math.min(Math.max(start, 0), cuts.length - 1);
  if (fits(cuts[s])) {
    lo = s;
    for (let step = 1; lo + step < hi; step *= 2) {
      if (!fits(cuts[lo + step])) {
        hi = lo + step;
        break;
      }
      lo += step;
    }
  } else {
    hi = s;
    for (let step = 1; hi - step > lo; step *= 2) {
      if (fits(cuts[hi - step])) {
        lo = hi - step;
        break;
      }
      hi -= step;
    }
  }
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (fits(cuts[mid])) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** Index of the last element ≤ `x` in an ascending array, or 0 when all are larger. */
function indexAtOrBelow(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (sorted[mid] <= x) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** `i`, moved down by one when it would fall between a high and a low surrogate, but never below `floor`. */
function codePointFloor(text: string, i: number, floor: number): number {
  return i - 1 > floor && isPairMiddle(text, i) ? i - 1 : i;
}

/**
 * `i` moved forward to the end of the word it falls inside (the next whitespace), when that is before `to` and
 * at most `WORD_END_REACH` units away; otherwise `i`. Offsets between words stay where they are.
 */
function wordEndAfter(text: string, i: number, to: number): number {
  if (i >= to || isWhitespaceCode(text.charCodeAt(i)) || isWhitespaceCode(text.charCodeAt(i - 1))) return i;
  const reach = Math.min(to, i + WORD_END_REACH);
  for (let j = i + 1; j < reach; j++) if (isWhitespaceCode(text.charCodeAt(j))) return j;
  return i;
}

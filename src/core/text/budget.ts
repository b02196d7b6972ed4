/**
 * Holds a text to a token budget the way a reader would cut it: at the end of the last whole sentence that
 * fits. A summary from a model that ignored its limit (or whose tokenizer counts differently from cl100k, the
 * tree's) is cut here, so every summary in a tree has at most the budget the tree records.
 */
import { splitSentences } from './sentences';
import { countTokensUpTo, tokenPrefixEnd } from './tokens';

/** What `fitToTokenBudget` did. */
export interface FittedText {
  /** The text itself when it fits, else its cut (no leading or trailing whitespace added). */
  text: string;
  /** True when the text was longer than the budget and was cut. */
  cut: boolean;
}

/** Ellipsis added after a cut that had to fall inside a sentence (none ended within the budget). */
const MID_SENTENCE_MARK = '…';
/** cl100k tokens of the mark on its own (it may merge with the word before it, never take more). */
const MARK_TOKENS = 1;
/**
 * Characters past the budget's prefix that the sentence splitter also reads, so a sentence that only looks
 * finished because the prefix ends there is not taken for one. Longer than any sentence end's context.
 */
const SENTENCE_LOOKAHEAD = 256;

/**
 * `text` when it has at most `maxTokens` cl100k tokens; otherwise its longest prefix of whole sentences within
 * the budget, or, when not even the first sentence fits, its longest prefix of whole words within the budget
 * followed by "…" (when that still fits). Never returns more than `maxTokens` tokens; '' only when not even
 * one word fits.
 * @param maxTokens the budget, a whole number ≥ 1.
 */
export function fitToTokenBudget(text: string, maxTokens: number): FittedText {
  if (countTokensUpTo(text, maxTokens) <= maxTokens) return { text, cut: false };
  const prefixEnd = tokenPrefixEnd(text, 0, text.length, maxTokens);
  const window = text.slice(0, Math.min(text.length, prefixEnd + SENTENCE_LOOKAHEAD));
  let end = 0;
  for (const sentence of splitSentences(window)) {
    if (sentence.end > prefixEnd) break;
    end = sentence.end;
  }
  if (end > 0) return { text: text.slice(0, end), cut: true };
  // Room for the mark: the words within the budget less the mark's tokens, then the mark if it fits.
  const shorter = text
    .slice(0, tokenPrefixEnd(text, 0, prefixEnd, Math.max(0, maxTokens - MARK_TOKENS)))
    .trimEnd();
  const marked = `${shorter}${MID_SENTENCE_MARK}`;
  if (shorter && countTokensUpTo(marked, maxTokens) <= maxTokens) return { text: marked, cut: true };
  return { text: text.slice(0, prefixEnd).trimEnd(), cut: true };
}

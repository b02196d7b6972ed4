/**
 * UTF-16 code-unit tests shared by the sentence splitter and the tokenizer's cuts. Kept apart from tokens.ts so
 * that code which only splits sentences (the embedding workers) does not load the cl100k tables.
 */

/** Whether offset `i` lies between the two halves of a surrogate pair. */
export function isPairMiddle(text: string, i: number): boolean {
  const hi = text.charCodeAt(i - 1);
  return hi >= 0xd800 && hi <= 0xdbff && isLowSurrogate(text.charCodeAt(i));
}

/** Whether a UTF-16 code unit is the low (second) half of a surrogate pair. */
export function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/** Whether a UTF-16 code unit is whitespace in the sense of JavaScript's `\s` and `String.prototype.trim`. */
export function isWhitespaceCode(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** The first offset in [from, to) that is not whitespace, or `to`. */
export function skipWhitespace(text: string, from: number, to: number): number {
  while (from < to && isWhitespaceCode(text.charCodeAt(from))) from++;
  return from;
}

/** `to` moved back over the whitespace that ends `text.slice(from, to)`. */
export function trimEnd(text: string, from: number, to: number): number {
  while (to > from && isWhitespaceCode(text.charCodeAt(to - 1))) to--;
  return to;
}

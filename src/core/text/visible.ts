/**
 * Whether a text has anything a reader can see. Whitespace is not all that renders as nothing: zero-width
 * spaces and joiners (U+200B–U+200D, U+2060), direction marks and embeddings (U+200E/F, U+202A–U+202E,
 * U+2066–U+2069), the byte-order mark, soft hyphens and control characters are format (Cf) or control (Cc)
 * characters, and a few letters and symbols are drawn blank (Hangul fillers, the blank braille pattern). A text
 * made only of those is empty to a reader, to an embedding model and to a summariser alike.
 */

/**
 * A visible character: a letter, number, punctuation mark or symbol (which excludes separators, controls,
 * format characters, lone combining marks, private-use and unassigned code points), other than the blank ones.
 */
const VISIBLE = /(?![\u115F\u1160\u3164\uFFA0\u2800])[\p{L}\p{N}\p{P}\p{S}]/u;

/** True when `text` has at least one visible character (see the module comment). Linear in its length. */
export function hasVisibleText(text: string): boolean {
  return VISIBLE.test(text);
}

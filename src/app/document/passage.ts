/**
 * A passage of a document with a little of the text around it, cut at word boundaries: what the node
 * inspector shows for a leaf. Pure, tested in Node.
 */

/** A passage split into the context before it, the passage itself and the context after it. */
export interface PassageInContext {
  before: string;
  passage: string;
  after: string;
  /** True when the document goes on before `before` (show an ellipsis). */
  clippedBefore: boolean;
  /** True when the document goes on after `after`. */
  clippedAfter: boolean;
}

/** Default characters of context on each side of a passage. */
export const DEFAULT_CONTEXT_CHARS = 240;

/** Context is cut at a whitespace when one lies within this fraction of the context's far end. */
const WORD_BOUNDARY_SLACK = 0.25;

/**
 * The characters [start, end) of `text` with up to `contextChars` characters on each side, the context cut
 * at whitespace near its far end (never inside a word when a space is close), offsets clamped to the text.
 */
export function passageContext(
  text: string,
  start: number,
  end: number,
  contextChars = DEFAULT_CONTEXT_CHARS,
): PassageInContext {
  const s = clamp(Math.floor(start), 0, text.length);
  const e = clamp(Math.ceil(end), s, text.length);
  const slack = Math.floor(contextChars * WORD_BOUNDARY_SLACK);

  // Where a cut falls inside a word, move it to the nearest whitespace within `slack` towards the passage.
  let from = Math.max(0, s - contextChars);
  if (from > 0 && !isSpace(text, from - 1)) {
    for (let i = from; i < Math.min(s, from + slack); i++) {
      if (isSpace(text, i)) {
        from = i + 1;
        break;
      }
    }
  }
  let to = Math.min(text.length, e + contextChars);
  if (to < text.length && !isSpace(text, to)) {
    for (let i = to - 1; i >= Math.max(e, to - slack); i--) {
      if (isSpace(text, i)) {
        to = i;
        break;
      }
    }
  }
  // A cut inside a surrogate pair would show half a character.
  if (from > 0 && from < s && isLowSurrogate(text.charCodeAt(from))) from++;
  if (to < text.length && to > e && isLowSurrogate(text.charCodeAt(to))) to--;
  return {
    before: text.slice(from, s),
    passage: text.slice(s, e),
    after: text.slice(e, to),
    clippedBefore: from > 0,
    clippedAfter: to < text.length,
  };
}

function clamp(value: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, Number.isFinite(value) ? value : lo));
}

function isSpace(text: string, i: number): boolean {
  return /\s/.test(text[i]);
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

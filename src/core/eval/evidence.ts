/**
 * Evidence matching: is a verbatim quote inside a retrieved context? Whitespace- and case-insensitive: both
 * sides are compared after Unicode NFKC, lower-casing, typographic quotes and dashes read as their ASCII forms,
 * and every run of whitespace read as one space. A context is the retrieved nodes' texts in order (as
 * `formatContext` joins them), so a quote that runs across two nodes counts when both were retrieved one after
 * the other.
 */

const WHITESPACE_RUN = /\s+/g;
/** Typographic characters a user typing a quote may write plainly (or the other way round). */
const TYPOGRAPHIC: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201a': "'",
  '\u201b': "'",
  '\u2032': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u201e': '"',
  '\u201f': '"',
  '\u2033': '"',
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2013': '-',
  '\u2014': '-',
  '\u2015': '-',
  '\u2212': '-',
};
const TYPOGRAPHIC_CHAR = new RegExp(`[${Object.keys(TYPOGRAPHIC).join('')}]`, 'g');

/** The form texts are compared in: NFKC, lower case, plain quotes and dashes, single spaces, trimmed. */
export function normalizeForMatch(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(TYPOGRAPHIC_CHAR, (c) => TYPOGRAPHIC[c])
    .replace(WHITESPACE_RUN, ' ')
    .trim();
}

/** For each quote, whether it occurs in `context` (whitespace- and case-insensitive). */
export function evidenceFound(context: string, evidence: readonly string[]): boolean[] {
  const haystack = normalizeForMatch(context);
  return evidence.map((quote) => {
    const needle = normalizeForMatch(quote);
    return needle.length > 0 && haystack.includes(needle);
  });
}

/**
 * Share of the evidence quotes found inside `context` (whitespace- and case-insensitive), in [0, 1]; NaN when
 * there is no quote to find.
 */
export function evidenceRecall(context: string, evidence: readonly string[]): number {
  if (evidence.length === 0) return NaN;
  const found = evidenceFound(context, evidence);
  return found.filter(Boolean).length / found.length;
}

/** Where each quote first became complete in a ranked list of retrieved texts. */
export interface EvidenceMatch {
  /** Per quote: whether the whole context holds it. */
  found: boolean[];
  /**
   * Per quote: the 1-based rank of the retrieved text at which it first lies wholly inside the texts retrieved
   * so far (the text it ends in), 0 when never.
   */
  ranks: number[];
}

/**
 * Matches the quotes against ranked texts (the retrieved nodes in selection order): whether each is in their
 * joined context, and from which rank on. A quote inside one text is found at that text's rank; one running
 * across consecutive texts at the rank of the last of them.
 */
export function matchEvidence(texts: readonly string[], evidence: readonly string[]): EvidenceMatch {
  // The normalized context is the normalized texts joined by single spaces (formatContext's "\n\n" and every
  // line break become one space); `ends[r]` is where the (r + 1)-th text ends in it.
  let haystack = '';
  const ends: number[] = [];
  for (const text of texts) {
    const part = normalizeForMatch(text);
    if (part !== '') haystack += (haystack === '' ? '' : ' ') + part;
    ends.push(haystack.length);
  }
  const found: boolean[] = [];
  const ranks: number[] = [];
  for (const quote of evidence) {
    const needle = normalizeForMatch(quote);
    const at = needle.length > 0 ? haystack.indexOf(needle) : -1;
    found.push(at >= 0);
    if (at < 0) {
      ranks.push(0);
      continue;
    }
    // The first occurrence is also the one that ends first (all occurrences have the needle's length).
    const end = at + needle.length;
    let rank = 0;
    while (ends[rank] < end) rank++;
    ranks.push(rank + 1);
  }
  return { found, ranks };
}

/** A stretch of a text, in UTF-16 code units: `start` inclusive, `end` exclusive. */
export interface TextSpan {
  start: number;
  end: number;
}

/**
 * Where the quotes occur in `text` (every occurrence, by the same whitespace- and case-insensitive comparison),
 * as stretches of the original text, sorted and merged where they overlap: what a view marks. The text is
 * normalised character by character here, so a quote is found wherever `evidenceFound` finds it except across
 * a combining sequence that NFKC composes (rare in prose).
 */
export function evidenceSpans(text: string, quotes: readonly string[]): TextSpan[] {
  // The text normalised, with the original offset each normalised character came from.
  let normalized = '';
  const from: number[] = [];
  for (let i = 0; i < text.length;) {
    const point = text.codePointAt(i)!;
    const width = point > 0xffff ? 2 : 1;
    const char = text.slice(i, i + width);
    if (/\s/.test(char)) {
      if (normalized !== '' && !normalized.endsWith(' ')) {
        normalized += ' ';
        from.push(i);
      }
    } else {
      for (const c of normalizeForMatch(char)) {
        normalized += c;
        for (let k = 0; k < c.length; k++) from.push(i);
      }
    }
    i += width;
  }
  const spans: TextSpan[] = [];
  for (const quote of quotes) {
    const needle = normalizeForMatch(quote);
    if (!needle) continue;
    for (let at = normalized.indexOf(needle); at >= 0; at = normalized.indexOf(needle, at + 1)) {
      const last = from[at + needle.length - 1];
      const lastWidth = text.codePointAt(last)! > 0xffff ? 2 : 1;
      spans.push({ start: from[at], end: last + lastWidth });
    }
  }
  spans.sort((a, b) => a.start - b.start || a.end - b.end);
  const merged: TextSpan[] = [];
  for (const span of spans) {
    const previous = merged[merged.length - 1];
    if (previous && span.start <= previous.end) previous.end = Math.max(previous.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}

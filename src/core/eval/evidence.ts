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

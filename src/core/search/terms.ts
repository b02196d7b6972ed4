/**
 * The terms keyword search reads a text as (`keywordTerms`): Unicode letters and digits, case and accents
 * folded (NFKD, marks dropped), English possessives removed, English function words left out (stop-words.ts),
 * and words of plain letters a–z reduced to their Porter stems ("offered", "offerings" and "offer" meet;
 * "sisters" and "sister's" find "sister"); scripts written without spaces (Han, Hiragana, Katakana) become
 * overlapping character pairs, so a question in Chinese or Japanese still finds its words in such a text. The
 * index and the question go through the same function.
 *
 * Porter replaced Harman's S-stemmer (plurals only) in issue 42: chosen on the tuning gold sets (one-fact
 * evidence of leaves by keywords 0.674 → 0.750, the arc's 0.297 both), reported on the held-out sets
 * (docs/retrieval.md).
 */
import { stemmer } from 'stemmer';
import { FUNCTION_WORD_SET } from '../text';

/**
 * Function words that carry no topic (modern and archaic English, shared with the topic labels' list): left out
 * of the index and of queries. BM25 would give them a low weight anyway; leaving them out keeps a long question's
 * noise from adding up over many nodes.
 */
export const STOP_WORDS: ReadonlySet<string> = FUNCTION_WORD_SET;

/** Letters and digits; everything else separates terms. */
const WORD = /[\p{L}\p{N}]+/gu;
/** Combining marks left by NFKD: dropping them folds "é" into "e". */
const MARKS = /\p{M}+/gu;
/** English possessive endings ("Darcy's", "Darcys'"), removed before splitting. */
const POSSESSIVE = /(?<=\p{L})['’](?:s\b|(?=\s|$))/giu;
/** Scripts written without spaces between words. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const UNSPACED_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+/gu;
/** Shortest spaced-script term kept: one letter ("a", "I", initials) says nothing. */
const MIN_TERM_LENGTH = 2;

/** A word the Porter stemmer is for: plain lower-case letters (after folding). */
const PLAIN_WORD = /^[a-z]+$/;
/** Stems already made (a book has some tens of thousands of distinct words); cleared when it grows past this. */
const STEM_MEMO_LIMIT = 200_000;
const stems = new Map<string, string>();

/**
 * The Porter stem (Porter, 1980; the `stemmer` package, which the topic labels use too) of a word of plain
 * letters a–z; any other term unchanged. Stems merge inflections ("married", "marrying", "marriage" → "marri")
 * as well as plurals.
 */
export function stemTerm(term: string): string {
  if (!PLAIN_WORD.test(term)) return term;
  let stem = stems.get(term);
  if (stem === undefined) {
    if (stems.size >= STEM_MEMO_LIMIT) stems.clear();
    stems.set(term, (stem = stemmer(term)));
  }
  return stem;
}

/** Overlapping character pairs of a run of an unspaced script ("天地" → "天地"; "起初神" → "起初", "初神"). */
function characterPairs(run: string, out: string[]): void {
  const chars = [...run];
  if (chars.length === 1) out.push(chars[0]);
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
}

/**
 * The terms of `text` as the keyword index reads them (see the module comment), in order, with repeats.
 * The index and the query both use it.
 */
export function keywordTerms(text: string): string[] {
  const folded = text.replace(POSSESSIVE, '').normalize('NFKD').replace(MARKS, '').toLowerCase();
  const terms: string[] = [];
  for (const [word] of folded.matchAll(WORD)) {
    if (UNSPACED.test(word)) {
      // A run may mix, e.g. "第1章": spaced parts are terms of their own.
      let last = 0;
      for (const match of word.matchAll(UNSPACED_RUN)) {
        pushSpaced(word.slice(last, match.index), terms);
        characterPairs(match[0], terms);
        last = match.index + match[0].length;
      }
      pushSpaced(word.slice(last), terms);
    } else {
      pushSpaced(word, terms);
    }
  }
  return terms;
}

function pushSpaced(word: string, terms: string[]): void {
  if (word.length < MIN_TERM_LENGTH || STOP_WORDS.has(word)) return;
  terms.push(stemTerm(word));
}

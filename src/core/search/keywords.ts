/**
 * Keyword search over a tree's nodes: a BM25 index (MiniSearch's BM25+, k1 1.2, b 0.7, δ 0.5) of every node's
 * text, built once per tree in memory (`keywordIndex`) and queried with the question's own words. It is what
 * finds the names, places and rare words that averaged word vectors blur ("Who is Mrs Gardiner's brother?").
 *
 * Terms: Unicode letters and digits, case and accents folded (NFKD, marks dropped), English possessives and
 * plurals reduced (Harman's S-stemmer: "sisters" and "sister's" find "sister"), English function words left
 * out (stop-words.ts); scripts written without spaces (Han, Hiragana, Katakana) become overlapping
 * character pairs, so a question in Chinese or Japanese still finds its words in such a text. Index and query
 * go through the same `keywordTerms`.
 *
 * Nearby words: a leaf is also indexed under the words of the `NEARBY_LEAVES` leaves on each side of it in its
 * document (a second field, weighted `NEARBY_BOOST`), because a passage seldom repeats the names its neighbours
 * already gave: in Pride and Prejudice the passage in which the housekeeper praises her master ("He is the best
 * landlord, and the best master") names neither "Reynolds" nor "Pemberley"; the passages before it do. Its own
 * words still count ten times more. Summaries (which the tree already gives their context) and leaves without a
 * `source` (e.g. trees imported from the official code, whose order is unknown) are indexed under their own text
 * only. Measured on the gold sets (`npm run bench retrieval`, docs/retrieval.md): one-fact evidence found by the
 * default rose from 0.614 to 0.674, the arc's from 0.256 to 0.306; plain BM25 over the leaves finds 0.629 and
 * 0.256.
 *
 * Measured (`npm run bench keywords`): building the index of a 14,000-node tree takes about 2.3 s of CPU in Node
 * on this machine (0.9 s without nearby words), so the app builds it when a tree opens (in chunks) instead of
 * storing it (docs/retrieval.md).
 */
import MiniSearch from 'minisearch';
import { FUNCTION_WORD_SET } from '../text/stop-words';
import { yieldToEventLoop } from '../yield';
import type { TreeNode } from '../types';

/**
 * Function words that carry no topic (modern and archaic English, shared with the topic labels' list): left out
 * of the index and of queries. BM25 would give them a low weight anyway; leaving them out keeps a long question's
 * noise from adding up over many nodes.
 */
export const STOP_WORDS: ReadonlySet<string> = FUNCTION_WORD_SET;

/** Leaves on each side of a leaf, in its document, whose words are indexed with it (the `nearby` field). */
export const NEARBY_LEAVES = 2;
/**
 * Weight of the nearby words against a node's own (1). Measured on the gold sets: 0.05, 0.1 and 0.15 with two
 * leaves each side found the same evidence within one question; one or three leaves each side did no better.
 */
export const NEARBY_BOOST = 0.1;

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

/**
 * Harman's S-stemmer (1991): "-ies" → "-y" (not after "e" or "a"), "-es" → "-e" (not after "a", "e", "o"),
 * "-s" → "" (not after "u" or "s"). Conservative: it merges plurals with their singulars and little else.
 */
export function stemPlural(term: string): string {
  if (term.length <= 3 || !term.endsWith('s')) return term;
  if (term.endsWith('ies') && !/[ea]ies$/.test(term)) return term.slice(0, -3) + 'y';
  if (term.endsWith('es') && !/[aeo]es$/.test(term)) return term.slice(0, -1);
  if (/[us]s$/.test(term)) return term;
  return term.slice(0, -1);
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
  terms.push(stemPlural(word));
}

/** A tree's keyword index: BM25 scores of every node for a question (its own words and, for leaves, nearby words). */
export interface KeywordIndex {
  /** Nodes indexed (= the tree's node count). */
  readonly size: number;
  /** Distinct terms in the index. */
  readonly terms: number;
  /**
   * Writes each node's BM25 score for `text` into `scores` (indexed by node id; 0 where no term matches) and
   * returns how many nodes matched at least one term.
   */
  score(text: string, scores: Float64Array): number;
}

/** Keyed by the nodes array, like the retrieval index: a tree is not expected to mutate. */
const cache = new WeakMap<readonly TreeNode[], { size: number; index: KeywordIndex }>();

/** Identity: `keywordTerms` already tokenised and normalised every term. */
const keepTerm = (term: string) => term;

/** The MiniSearch settings of every keyword index. */
function emptySearch(): MiniSearch<IndexedText> {
  return new MiniSearch<IndexedText>({
    fields: ['text', 'nearby'],
    idField: 'id',
    tokenize: indexTerms,
    processTerm: keepTerm,
    searchOptions: {
      tokenize: keywordTerms,
      processTerm: keepTerm,
      combineWith: 'OR',
      boost: { text: 1, nearby: NEARBY_BOOST },
    },
  });
}

interface IndexedText {
  id: number;
  /** The node's own terms. */
  text: string;
  /** The terms of the leaves around a leaf in its document ('' for summaries and leaves without a source). */
  nearby: string;
}

function wrap(search: MiniSearch<IndexedText>, size: number): KeywordIndex {
  return {
    size,
    terms: search.termCount,
    score(text, scores) {
      scores.fill(0);
      const results = search.search(text);
      for (const result of results) scores[result.id as number] = result.score;
      return results.length;
    },
  };
}

/**
 * For each leaf with a `source`, the ids of the `NEARBY_LEAVES` leaves before and after it in the same document
 * (by start offset); absent for every other node.
 */
export function nearbyLeaves(nodes: readonly TreeNode[]): Map<number, number[]> {
  const byDocument = new Map<string, TreeNode[]>();
  for (const node of nodes) {
    if (node.layer !== 0 || !node.source) continue;
    const list = byDocument.get(node.source.doc);
    if (list) list.push(node);
    else byDocument.set(node.source.doc, [node]);
  }
  const nearby = new Map<number, number[]>();
  for (const leaves of byDocument.values()) {
    leaves.sort((a, b) => a.source!.start - b.source!.start || a.id - b.id);
    leaves.forEach((leaf, i) => {
      const around: number[] = [];
      for (let j = Math.max(0, i - NEARBY_LEAVES); j <= i + NEARBY_LEAVES && j < leaves.length; j++) {
        if (j !== i) around.push(leaves[j].id);
      }
      nearby.set(leaf.id, around);
    });
  }
  return nearby;
}

/** Both fields hold terms `keywordTerms` already made, joined by this; a term never contains it. */
const TERM_SEPARATOR = ' ';

/**
 * Makes what MiniSearch indexes for each node: its own terms, and for leaves the terms of the leaves nearby. Every
 * node's terms are made once (`keywordTerms`), however many neighbours use them.
 */
function documentMaker(nodes: readonly TreeNode[]): (node: TreeNode) => IndexedText {
  const nearby = nearbyLeaves(nodes);
  const terms = new Map<number, string>();
  const termsOf = (id: number): string => {
    let joined = terms.get(id);
    if (joined === undefined) terms.set(id, (joined = keywordTerms(nodes[id].text).join(TERM_SEPARATOR)));
    return joined;
  };
  return (node) => ({
    id: node.id,
    text: termsOf(node.id),
    nearby: nearby.get(node.id)?.map(termsOf).join(TERM_SEPARATOR) ?? '',
  });
}

/** Index-side tokenizer: the fields already hold terms. */
function indexTerms(text: string): string[] {
  return text === '' ? [] : text.split(TERM_SEPARATOR);
}

/**
 * The keyword index of `nodes` (every node's text, all layers), built on first use and kept while the nodes
 * array lives; a node appended to the same array rebuilds it.
 */
export function keywordIndex(nodes: readonly TreeNode[]): KeywordIndex {
  const cached = cache.get(nodes);
  if (cached && cached.size === nodes.length) return cached.index;
  const search = emptySearch();
  search.addAll(nodes.map(documentMaker(nodes)));
  const index = wrap(search, nodes.length);
  cache.set(nodes, { size: nodes.length, index });
  return index;
}

/**
 * Nodes indexed between two returns to the event loop by `prepareKeywordIndex`: about 45 ms of work in Node on
 * this machine (`npm run bench keywords`: 2.5 s for 14,000 nodes), under the 50 ms a browser calls a long task.
 */
const PREPARE_CHUNK = 250;

/**
 * Builds the keyword index of `nodes` ahead of the first question, returning to the event loop every
 * `PREPARE_CHUNK` nodes, so a page that opens a large tree stays responsive; a question asked meanwhile builds
 * it at once (`keywordIndex`).
 */
export async function prepareKeywordIndex(nodes: readonly TreeNode[]): Promise<void> {
  if (cache.get(nodes)?.size === nodes.length) return;
  const search = emptySearch();
  const documentOf = documentMaker(nodes);
  for (let start = 0; start < nodes.length; start += PREPARE_CHUNK) {
    if (start > 0) await yieldToEventLoop();
    search.addAll(nodes.slice(start, start + PREPARE_CHUNK).map(documentOf));
  }
  if (cache.get(nodes)?.size !== nodes.length) {
    cache.set(nodes, { size: nodes.length, index: wrap(search, nodes.length) });
  }
}

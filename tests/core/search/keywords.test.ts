/**
 * The keyword index (src/core/search/keywords.ts): which terms a text has, and that BM25 ranks the nodes that hold a
 * question's rare words first, whatever their layer.
 */
import { describe, expect, it } from 'vitest';
import {
  keywordIndex,
  keywordTerms,
  NEARBY_LEAVES,
  nearbyLeaves,
  prepareKeywordIndex,
  stemTerm,
  STOP_WORDS,
} from '../../../src/core/search/keywords';
import type { TreeNode } from '../../../src/core/types';

const node = (id: number, text: string, layer = 0): TreeNode => ({
  id,
  layer,
  text,
  tokens: 0,
  children: [],
  embedding: new Float32Array(2),
});

describe('keywordTerms', () => {
  it('folds case and accents, drops function words, possessives and one-letter words', () => {
    // Stemmed as well (Porter: "darcy" → "darci", "naive" → "naiv"; see the next test).
    expect(keywordTerms("Mr. Darcy's CAFÉ and the Naïve I")).toEqual(['mr', 'darci', 'cafe', 'naiv']);
    expect(keywordTerms('the of and to was')).toEqual([]);
    for (const word of ['the', 'who', 'was']) expect(STOP_WORDS.has(word)).toBe(true);
  });

  it('reduces words to their Porter stems, so inflections meet, and leaves other scripts and digits alone', () => {
    expect(['sisters', 'ladies', 'offered', 'offerings', 'married', 'marriage'].map(stemTerm)).toEqual([
      'sister',
      'ladi',
      'offer',
      'offer',
      'marri',
      'marriag',
    ]);
    expect(['небо', 'b2b', '第'].map(stemTerm)).toEqual(['небо', 'b2b', '第']);
    expect(keywordTerms('Her sisters’ letters')).toEqual(keywordTerms('her sister letter'));
    // Before Porter (the S-stemmer), "offered" and "offerings" were two terms and a question missed the other.
    expect(keywordTerms('Abel offered')).toEqual(keywordTerms('Abel’s offerings'));
  });

  it('cuts scripts written without spaces into overlapping character pairs', () => {
    expect(keywordTerms('起初神创造天地')).toEqual(['起初', '初神', '神创', '创造', '造天', '天地']);
    expect(keywordTerms('第1章 神')).toEqual(['第', '章', '神']);
    // Spaced scripts other than Latin are words like any other.
    expect(keywordTerms('Вначале сотворил Бог небо')).toEqual(['вначале', 'сотворил', 'бог', 'небо']);
  });
});

describe('keywordIndex', () => {
  const nodes = [
    node(0, 'Elizabeth walked to Netherfield through the mud.'),
    node(1, 'Mr. Collins proposed to Elizabeth at Longbourn.'),
    node(2, 'The weather was fine and everybody walked.'),
    node(3, 'Netherfield Park is let at last, and Netherfield is near.', 1),
  ];

  it('ranks the nodes sharing the rarest words first, summaries included, and scores 0 elsewhere', () => {
    const index = keywordIndex(nodes);
    const scores = new Float64Array(nodes.length);
    expect(index.score('Who went to Netherfield?', scores)).toBe(2);
    expect(scores[3]).toBeGreaterThan(scores[0]);
    expect(scores[0]).toBeGreaterThan(0);
    expect(scores[1]).toBe(0);
    expect(scores[2]).toBe(0);
    expect(index.score('Collins', scores)).toBe(1);
    expect(scores[1]).toBeGreaterThan(0);
  });

  it('matches nothing for a question of function words or another script, and clears earlier scores', () => {
    const index = keywordIndex(nodes);
    const scores = new Float64Array(nodes.length).fill(7);
    expect(index.score('Who was it?', scores)).toBe(0);
    expect(index.score('起初神创造天地', scores)).toBe(0);
    expect([...scores]).toEqual([0, 0, 0, 0]);
  });

  it('weighs one term by its inverse frequency over the nodes, as it weighs the question’s terms', () => {
    const index = keywordIndex(nodes);
    // "walk" is held by two of four nodes, "collin" by one: log(1 + (4 − n + 0.5) / (n + 0.5)).
    expect(index.termWeight('walk')).toBeCloseTo(Math.log(1 + 2.5 / 2.5));
    expect(index.termWeight('collin')).toBeCloseTo(Math.log(1 + 3.5 / 1.5));
    expect(index.termWeight('collin')).toBe(index.termWeights('Collins').get('collin'));
    expect(index.termWeight('pemberlei')).toBe(0);
  });

  it('is kept for the same nodes array and rebuilt when a node is appended', () => {
    const list = nodes.slice();
    const first = keywordIndex(list);
    expect(keywordIndex(list)).toBe(first);
    list.push(node(4, 'Pemberley stands in Derbyshire.'));
    const scores = new Float64Array(list.length);
    expect(keywordIndex(list).score('Pemberley', scores)).toBe(1);
    expect(scores[4]).toBeGreaterThan(0);
  });

  it('built ahead (prepareKeywordIndex, in chunks) gives the same scores as built at once', async () => {
    const many = Array.from({ length: 1200 }, (_, i) =>
      node(i, `Chapter ${i % 17} of the walk to town ${i % 5}`),
    );
    const ahead = many.slice();
    await prepareKeywordIndex(ahead);
    const a = new Float64Array(many.length);
    const b = new Float64Array(many.length);
    keywordIndex(ahead).score('walk town 3', a);
    keywordIndex(many).score('walk town 3', b);
    expect(Array.from(a)).toEqual(Array.from(b));
    expect(a.some((x) => x > 0)).toBe(true);
  });
});

describe('nearby words', () => {
  /** A leaf of document `doc` starting at character `start`. */
  const leaf = (id: number, text: string, doc: string, start: number): TreeNode => ({
    ...node(id, text),
    source: { doc, start, end: start + text.length },
  });
  // Ids out of document order on purpose: neighbours go by each document's offsets, not by id.
  const nodes = [
    leaf(0, 'Mr. Collins spoke of his patroness at Rosings.', 'a', 0),
    leaf(1, 'Her ladyship advised him to marry, and soon.', 'a', 200),
    leaf(2, 'The weather was fine and everybody walked.', 'a', 400),
    leaf(3, 'Rain fell in the night; the roads were deep.', 'a', 600),
    leaf(4, 'Nobody came to dinner that week.', 'a', 800),
    leaf(5, 'A different book about Collins the gardener.', 'b', 0),
    leaf(6, 'The gardener planted beans by the wall.', 'b', 100),
    node(7, 'Her ladyship gave her advice freely.', 1),
  ];

  it('are the leaves on each side in the same document, by offset; none for summaries or leaves without a source', () => {
    expect(NEARBY_LEAVES).toBe(2);
    const shuffled = [nodes[0], nodes[3], nodes[2], nodes[1], nodes[4], nodes[5], nodes[6], nodes[7]];
    const near = nearbyLeaves(shuffled);
    expect(near.get(2)).toEqual([0, 1, 3, 4]);
    expect(near.get(0)).toEqual([1, 2]);
    expect(near.get(4)).toEqual([2, 3]);
    expect(near.get(5)).toEqual([6]);
    expect(near.has(7)).toBe(false);
    expect(nearbyLeaves([node(0, 'x'), node(1, 'y')]).size).toBe(0);
  });

  it('find a leaf by a name only its neighbours give, below the leaf that holds it, never across documents', () => {
    const index = keywordIndex(nodes);
    const scores = new Float64Array(nodes.length);
    index.score('Collins', scores);
    // Leaves 1 and 2 never say "Collins"; leaf 0, one and two leaves before them, does.
    expect(scores[1]).toBeGreaterThan(0);
    expect(scores[2]).toBeGreaterThan(0);
    expect(scores[0]).toBeGreaterThan(scores[1]);
    // Three leaves away: too far.
    expect(scores[3]).toBe(0);
    // Document b's "Collins" (leaf 5) is next to leaf 4 by id but not in its document.
    expect(scores[6]).toBeGreaterThan(0);
    expect(scores[5]).toBeGreaterThan(scores[6]);
    expect(scores[4]).toBe(0);
    // A summary has no nearby words.
    expect(scores[7]).toBe(0);
  });

  it("weigh less than a leaf's own words", () => {
    const index = keywordIndex(nodes);
    const scores = new Float64Array(nodes.length);
    index.score('beans', scores);
    // Leaf 6 says "beans"; leaf 5 is its neighbour.
    expect(scores[6]).toBeGreaterThan(scores[5] * 5);
    expect(scores[5]).toBeGreaterThan(0);
  });
});

/**
 * Passages by sentence (src/core/search/passages.ts, reading-order.ts, route.ts): a question by keywords fills
 * its budget with the sentences that bear on it, credits an extractive summary's sentences to the leaves they
 * were copied from, returns the nodes in the order of the book with the rank they were chosen in, and tree
 * traversal walks down every branch that holds one of the best passages. A small hand-made book (one document,
 * leaves with their sources) stands in for a novel; the whole-book figures are `npm run bench retrieval`'s.
 */
import { describe, expect, it } from 'vitest';
import { withoutFrameTerms } from '../../../src/core/search/frame-words';
import { excerptText, EXCERPT_GAP } from '../../../src/core/search/passages';
import { retrieve, type RetrieveOptions } from '../../../src/core/search/retrieve';
import { sentenceSpans, countTokens } from '../../../src/core/text';
import type { RaptorTree, TreeNode } from '../../../src/core/types';
import { treeOf } from '../../support/tree-of';

const DEG = Math.PI / 180;
const at = (degrees: number) => Float32Array.of(Math.cos(degrees * DEG), Math.sin(degrees * DEG));

const LEAVES = [
  'Anne walked by the sea at Lyme. The wind was cold. Louisa laughed on the steps.',
  'Captain Wentworth spoke of the navy and of prize money. Admiral Croft agreed with him. The dinner was long.',
  'The weather turned grey. Anne thought of Wentworth and of the eight years. Nobody noticed her at all.',
  'Bath was crowded in winter. Sir Walter admired the mirrors in every room.',
];
/** The book: the leaves one after the other, a blank line between them. */
const BOOK = LEAVES.join('\n\n');

/** Leaves 0–3 with their places in BOOK; summaries as given (layer 1, then a root). */
function bookTree(summaries: { text: string; children: number[]; layer?: number }[]): RaptorTree {
  let start = 0;
  const nodes: TreeNode[] = LEAVES.map((text, id) => {
    const source = { doc: 'book', start, end: start + text.length };
    start += text.length + 2;
    return { id, layer: 0, text, tokens: countTokens(text), children: [], embedding: at(id * 10), source };
  });
  summaries.forEach((s, i) =>
    nodes.push({
      id: nodes.length,
      layer: s.layer ?? 1,
      text: s.text,
      tokens: countTokens(s.text),
      children: s.children,
      embedding: at(5 + i * 10),
    }),
  );
  return { ...treeOf(nodes), documents: [{ id: 'book', name: 'Book', chars: BOOK.length }] };
}

/** An extractive tree: each summary is two sentences copied from its leaves. */
const extractive = bookTree([
  {
    text: 'Anne walked by the sea at Lyme. Captain Wentworth spoke of the navy and of prize money.',
    children: [0, 1],
  },
  { text: 'Anne thought of Wentworth and of the eight years. Bath was crowded in winter.', children: [2, 3] },
  { text: 'Anne walked by the sea at Lyme. Bath was crowded in winter.', children: [4, 5], layer: 2 },
]);

/** A tree of one leaf (one document) and nothing else. */
function oneLeaf(text: string): RaptorTree {
  const source = { doc: 'book', start: 0, end: text.length };
  const leaf: TreeNode = {
    id: 0,
    layer: 0,
    text,
    tokens: countTokens(text),
    children: [],
    embedding: at(0),
    source,
  };
  return { ...treeOf([leaf]), documents: [{ id: 'book', name: 'Book', chars: text.length }] };
}

const ask = (tree: RaptorTree, text: string, options: Partial<RetrieveOptions> = {}) =>
  retrieve(tree, at(0), { mode: 'collapsed', text, ...options } as RetrieveOptions);

describe('passages by sentence', () => {
  it('fills the budget with the sentences that bear on the question, not with whole nodes', () => {
    const budget = countTokens('Captain Wentworth spoke of the navy and of prize money.') + 2;
    const result = ask(extractive, 'Who spoke of the navy?', { maxTokens: budget });
    expect(result.nodes.map((n) => n.id)).toEqual([1]);
    expect(result.nodes[0].excerpt).toEqual({
      text: 'Captain Wentworth spoke of the navy and of prize money.',
      omitted: 2,
      focused: true,
      sentences: [0],
    });
    expect(result.context).not.toContain('The dinner was long.');
    expect(result.tokens).toBeLessThanOrEqual(budget);
    // Whole nodes (as before) cannot fit the leaf in this budget and take nothing.
    expect(ask(extractive, 'Who spoke of the navy?', { maxTokens: budget, passages: 'whole' }).nodes).toEqual(
      [],
    );
  });

  it('credits a summary’s copied sentence to the leaf it came from, so the summary never enters with it', () => {
    // Both summaries 4 and 6 hold the Lyme sentence (and rank high for "Lyme"); the context names leaf 0.
    const result = ask(extractive, 'What happened at Lyme by the sea?', { maxTokens: 30 });
    const ids = result.nodes.map((n) => n.id);
    expect(ids).toContain(0);
    expect(ids).not.toContain(4);
    expect(ids).not.toContain(6);
    expect(result.context.match(/Anne walked by the sea at Lyme\./g)).toHaveLength(1);
  });

  it('knows a copy when the summary joined a heading to its sentence, or cut its last sentence short', () => {
    const leaves = [
      'Chapter 2\n\nCaptain Wentworth spoke of the navy and of prize money. The dinner was long.',
      'Admiral Croft agreed with him about the prize money. Nobody else spoke.',
    ];
    let start = 0;
    const nodes: TreeNode[] = leaves.map((text, id) => {
      const source = { doc: 'book', start, end: start + text.length };
      start += text.length + 2;
      return { id, layer: 0, text, tokens: countTokens(text), children: [], embedding: at(id * 10), source };
    });
    const summary =
      'Chapter 2 Captain Wentworth spoke of the navy and of prize money. Admiral Croft agreed with him';
    nodes.push({
      id: 2,
      layer: 1,
      text: summary,
      tokens: countTokens(summary),
      children: [0, 1],
      embedding: at(0),
    });
    const tree = { ...treeOf(nodes), documents: [{ id: 'book', name: 'Book', chars: start }] };
    const result = ask(tree, 'Wentworth Croft prize money navy', { maxTokens: 2000 });
    expect(result.nodes.map((n) => n.id)).toEqual([0, 1]);
    expect(result.context.match(/prize money/g)).toHaveLength(2);
  });

  it('takes a summary’s own words (an LLM’s, which no leaf holds) as a passage of that summary', () => {
    const llm = bookTree([
      { text: 'A seaside visit to Lyme ends with Louisa’s fall.', children: [0, 1] },
      { text: 'Anne remembers Wentworth in Bath.', children: [2, 3] },
    ]);
    const result = ask(llm, 'Louisa fall at Lyme', { maxTokens: 60 });
    expect(result.nodes.map((n) => n.id)).toContain(4);
    expect(result.context).toContain('A seaside visit to Lyme ends with Louisa’s fall.');
  });

  it('returns the nodes in the order of the book, each with the rank it was chosen in', () => {
    const result = ask(extractive, 'Wentworth Anne Bath', { maxTokens: 2000 });
    const starts = result.nodes.map((n) => extractive.nodes[n.id].source?.start ?? -1);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    const ranks = result.nodes.map((n) => n.rank);
    expect([...ranks].sort()).toEqual(ranks.map((_, i) => i + 1));
    // Rank 1 is the node with the best sentence; the book puts another one first.
    expect(result.nodes[0].rank).not.toBe(1);
    // The context is in the same order: the first leaf's sentence comes before the last leaf's.
    expect(result.context.indexOf('Lyme')).toBeLessThan(result.context.indexOf('Bath was crowded'));
  });

  it('never exceeds the budget, passing over a sentence that would for a shorter one after it', () => {
    for (const maxTokens of [5, 12, 20, 33, 50, 80, 2000]) {
      const result = ask(extractive, 'Anne Wentworth navy Lyme Bath winter mirrors', { maxTokens });
      expect(result.tokens).toBeLessThanOrEqual(maxTokens);
      const counted = result.nodes.reduce(
        (sum, n) => sum + countTokens(n.excerpt?.text ?? extractive.nodes[n.id].text),
        0,
      );
      expect(result.tokens).toBe(counted);
    }
    // The best sentence (leaf 1's, 12 tokens with its prize money) does not fit in 8; a shorter one after it does.
    const small = ask(extractive, 'navy Wentworth', { maxTokens: 8 });
    expect(small.context).not.toContain('prize money');
    expect(small.tokens).toBeGreaterThan(0);
  });

  it('scores sentences without the question’s frame words, so the sentence about what is asked comes first', () => {
    // "part", "play" and "story" frame the question; the piano is what it is about.
    const tree = oneLeaf('The story played its part. She played the piano for herself.');
    const question = 'What part does the piano play in the story?';
    const budget = countTokens('She played the piano for herself.') + 1;
    const context = ask(tree, question, { maxTokens: budget }).context;
    expect(context).toContain('She played the piano for herself.');
    expect(context).not.toContain('story');
    // A question of frame words alone is still scored by them.
    expect(ask(tree, 'How does the story end?', { maxTokens: 20 }).context).toContain('The story');
    expect(withoutFrameTerms(new Map([['stori', 1]]))).toEqual(new Map([['stori', 1]]));
    const both = new Map([
      ['stori', 1],
      ['piano', 2],
    ]);
    expect(withoutFrameTerms(both)).toEqual(new Map([['piano', 2]]));
  });

  it('credits the reply after a sentence that names what is asked before the other sentences of its node', () => {
    const text =
      'The dinner was cold and the soup was late. Mrs Jennings asked about the fortune of Willoughby. ' +
      '"Fifty thousand pounds a year, my dear, and a house in town."';
    const tree = oneLeaf(text);
    const spans = sentenceSpans(text);
    const budget = countTokens(excerptText(text, spans, [1, 2]));
    const result = ask(tree, 'What is the fortune of Willoughby?', { maxTokens: budget });
    expect(result.context).toContain('Fifty thousand pounds');
    expect(result.context).not.toContain('dinner');
  });

  it('joins the chosen sentences of a node in runs as the text has them, gaps shown by an ellipsis', () => {
    const text = 'One.\nTwo. Three. Four.';
    const spans = sentenceSpans(text);
    expect(excerptText(text, spans, [0, 1, 3])).toBe(`One.\nTwo.${EXCERPT_GAP}Four.`);
    expect(excerptText(text, spans, [2])).toBe('Three.');
  });

  it('keeps whole nodes best first by meaning, and without the question’s text (the official rules)', () => {
    const meaning = ask(extractive, 'Wentworth navy', { search: 'meaning' });
    expect(meaning.nodes.every((n) => n.rank === undefined && n.excerpt?.focused === undefined)).toBe(true);
    const byVector = retrieve(extractive, at(0), { mode: 'collapsed' });
    expect(byVector.nodes.every((n) => n.rank === undefined)).toBe(true);
  });
});

describe('tree traversal by keywords', () => {
  // Top-k 1 by the best passage under each summary: the paper's walk enters only one layer-1 summary, so the
  // leaf under the other is never read.
  const question = 'Wentworth prize money eight years';

  it('walks into every branch holding one of the best passages, where k per layer would prune one', () => {
    const walked = ask(extractive, question, { mode: 'traversal', topK: 1, maxTokens: 2000 });
    const paper = ask(extractive, question, { mode: 'traversal', topK: 1, passages: 'whole' });
    expect(walked.context).toContain('prize money');
    expect(walked.context).toContain('eight years');
    expect(paper.context.includes('prize money') && paper.context.includes('eight years')).toBe(false);
  });

  it('says through which summaries it went, and reads what the collapsed tree reads', () => {
    const walked = ask(extractive, question, { mode: 'traversal', topK: 1, maxTokens: 2000 });
    // The root first, then both layer-1 summaries (best bound first).
    expect(walked.route?.[0]).toBe(6);
    expect([...walked.route!.slice(1)].sort()).toEqual([4, 5]);
    const collapsed = ask(extractive, question, { maxTokens: 2000 });
    expect(walked.context).toBe(collapsed.context);
  });
});

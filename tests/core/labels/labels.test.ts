/**
 * Topic labels (src/core/labels/labels.ts) on hand-made trees whose right answer is plain: distinctive terms against
 * the layer (BERTopic's c-TF-IDF, every pass off), stop-words and numbers never, plurals merged, proper names
 * in capitals, sentence capitals not borrowed, names with titles as phrases, determinism; each pass that makes
 * labels tell siblings and parents apart, beside the same tree with that pass off; and `buildTree` labelling
 * every summary.
 */
import { describe, expect, it } from 'vitest';
import { buildTree } from '../../../src/core/build';
import { createExtractiveSummarizer } from '../../../src/core/extractive';
import {
  applyLabels,
  computeLabels,
  fillMissingLabels,
  lacksLabels,
  MAX_LABEL_TERMS,
  MIN_LABEL_TERMS,
  PLAIN_C_TF_IDF,
  type LabelNode,
} from '../../../src/core/labels/labels';
import { STOP_WORDS } from '../../../src/core/text';
import type { TreeNode } from '../../../src/core/types';
import { createFakeEmbedder } from '../../support/fake-embedder';

/** A tree from leaf texts and summaries given as lists of child ids (ids continue after the leaves). */
function tree(leaves: string[], ...layers: number[][][]): LabelNode[] {
  const nodes: LabelNode[] = leaves.map((text, id) => ({ id, layer: 0, text, children: [] }));
  layers.forEach((summaries, l) => {
    for (const children of summaries) {
      nodes.push({ id: nodes.length, layer: l + 1, text: 'summary', children });
    }
  });
  return nodes;
}

const GARDEN = [
  'The roses in the garden bloomed. Grandmother watered the roses and the tulips every morning.',
  'Tulips and roses filled the garden beds. The gardener pruned a rose near the gate.',
];
const SEA = [
  'The ship left the harbour at dawn. Sailors raised the sails while the ship turned east.',
  'Waves struck the ship. The sailors tied the sails and the harbour lights faded.',
];

describe('computeLabels', () => {
  it('labels each summary with its distinctive terms, most distinctive first, leaves with nothing', () => {
    const nodes = tree(
      [...GARDEN, ...SEA],
      [
        [0, 1],
        [2, 3],
      ],
      [[4, 5]],
    );
    const labels = computeLabels(nodes, { passes: PLAIN_C_TF_IDF });
    expect(labels.slice(0, 4)).toEqual([undefined, undefined, undefined, undefined]);
    expect(labels[4]![0]).toBe('roses');
    expect(labels[4]).toEqual(expect.arrayContaining(['garden', 'tulips']));
    expect(labels[5]![0]).toBe('ship');
    expect(labels[5]).toEqual(expect.arrayContaining(['sailors', 'sails', 'harbour']));
    for (const label of labels.slice(4)) {
      expect(label!.length).toBeGreaterThanOrEqual(MIN_LABEL_TERMS);
      expect(label!.length).toBeLessThanOrEqual(MAX_LABEL_TERMS);
    }
  });

  it('scores against the layer: a word every class shares ranks below a word as frequent in only one class', () => {
    // Harold occurs twice in each class, like "roses" and "ship" in theirs; only Harold is in both.
    const shared = 'Harold walked.';
    const nodes = tree(
      [GARDEN[0], `${shared} ${GARDEN[1]}`, `${shared} ${SEA[0]}`, SEA[1]].map((t) => `${shared} ${t}`),
      [
        [0, 1],
        [2, 3],
      ],
    );
    const labels = computeLabels(nodes, { passes: PLAIN_C_TF_IDF });
    expect(labels[4]![0]).toBe('roses');
    expect(labels[5]![0]).toBe('ship');
    expect(labels[4]!.indexOf('Harold')).not.toBe(0);
    expect(labels[5]!.indexOf('Harold')).not.toBe(0);
    // A single root has no other node to be scored against: it is labelled by frequency alone.
    const root = computeLabels(
      tree(
        nodes.slice(0, 4).map((n) => n.text),
        [[0, 1, 2, 3]],
      ),
    );
    expect(root[4]![0]).toMatch(/^Harold/);
  });

  it('never uses stop-words, numbers or one-letter words, and merges plurals and inflections by stem', () => {
    const nodes = tree(
      [
        'We would have said that 1811 was the year. The lanterns were lit; a lantern burned and lanterns glowed.',
        'In 1812 they said it could be so. The lantern keeper lit lanterns, lighting a lantern at 9.',
        'Boats and boats and a boat. The boat sank.',
        'The boatman rowed boats past the boat house.',
      ],
      [
        [0, 1],
        [2, 3],
      ],
    );
    const labels = computeLabels(nodes);
    for (const label of labels.slice(4)) {
      for (const term of label!) {
        for (const word of term.split(/[ .]+/)) {
          expect(STOP_WORDS.has(word.toLowerCase())).toBe(false);
          expect(word).not.toMatch(/\d/);
          expect(word.length).toBeGreaterThan(1);
        }
      }
    }
    // "lanterns" ×4 and "lantern" ×4 are one term, spelt as the form used more (ties: the earlier in code order).
    expect(labels[4]!.filter((t) => /^lantern/i.test(t))).toHaveLength(1);
    expect(labels[5]!.filter((t) => /^boat$|^boats$/i.test(t))).toHaveLength(1);
    expect(labels[5]![0]).toBe('boat');
  });

  it('keeps the capitals of proper names and does not borrow a capital from the start of a sentence', () => {
    const nodes = tree(
      [
        'Garden paths wound past the wall. Elizabeth walked the garden with Pemberley in view; the garden was wide.',
        'Elizabeth loved the garden. Gardens at Pemberley were praised, and Elizabeth praised the garden again.',
        'The ship sailed. Darcy watched the ship from the deck.',
        'The ship turned. Darcy and the ship were far from Pemberley.',
      ],
      [
        [0, 1],
        [2, 3],
      ],
    );
    const labels = computeLabels(nodes);
    expect(labels[4]).toEqual(expect.arrayContaining(['Elizabeth', 'garden']));
    expect(labels[4]).not.toContain('Garden');
    expect(labels[5]).toEqual(expect.arrayContaining(['ship', 'Darcy']));
  });

  it('shows a name with its title as one phrase, and keeps Mrs. apart from Mr.', () => {
    const nodes = tree(
      [
        'Mrs. Bennet called. Mrs. Bennet sighed and Mrs. Bennet wept over the letter.',
        'The letter upset Mrs. Bennet, so Mrs. Bennet sent for Jane.',
        'Mr. Bennet laughed in the library. Mr. Bennet read his book.',
        'In the library Mr. Bennet closed the book. Mr. Bennet smiled.',
        'Lady Catherine came to call. Lady Catherine spoke of the estate and Lady Catherine left.',
        'The estate pleased Lady Catherine. Her estate was grand, Lady Catherine said.',
      ],
      [
        [0, 1],
        [2, 3],
        [4, 5],
      ],
    );
    const labels = computeLabels(nodes);
    expect(labels[6]).toContain('Mrs. Bennet');
    expect(labels[7]).toContain('Mr. Bennet');
    expect(labels[8]).toContain('Lady Catherine');
    // A title is never a term on its own.
    for (const label of labels.slice(6))
      for (const t of ['Mr', 'Mrs', 'Lady']) expect(label).not.toContain(t);
  });

  it('is deterministic: the same nodes give the same labels, and tied scores are ordered by the terms', () => {
    const nodes = tree(
      ['alpha beta. gamma alpha. beta gamma.', 'delta epsilon. epsilon, delta.'],
      [[0], [1]],
    );
    const first = computeLabels(nodes);
    expect(computeLabels(nodes)).toEqual(first);
    expect(computeLabels(structuredClone(nodes))).toEqual(first);
    expect(first[2]).toEqual(['alpha', 'beta', 'gamma']);
    expect(first[3]).toEqual(['delta', 'epsilon']);
  });

  it('counts a leaf once however many paths lead to it (soft clustering), and takes single words from tiny classes', () => {
    // Leaf 0 sits under both layer-1 nodes, so the root reaches it twice: counted twice, apple (2) would pass pear (3).
    const nodes = tree(
      ['apple apple', 'pear pear pear', 'plum'],
      [
        [0, 1],
        [0, 2],
      ],
      [[3, 4]],
    );
    const labels = computeLabels(nodes);
    expect(labels[5]).toEqual(['pear', 'apple']);
    // "plum" occurs once, yet labels its class, which has fewer than two terms seen twice; it comes first, as
    // apple is in the other class too.
    expect(labels[4]).toEqual(['plum', 'apple']);
  });

  it('labels a summary without leaves below it from its own text, and one with no usable word with none', () => {
    const nodes: LabelNode[] = [
      { id: 0, layer: 0, text: '1 2 3', children: [] },
      { id: 1, layer: 1, text: 'the and of', children: [0] },
      { id: 2, layer: 1, text: 'Orchard orchard apples', children: [] },
    ];
    const labels = computeLabels(nodes);
    expect(labels[1]).toEqual([]);
    expect(labels[2]).toEqual(['orchard', 'apples']);
  });

  it('runs on a thousand leaves in well under a second', () => {
    const words = ['river', 'mill', 'wheel', 'forest', 'wolf', 'hunter', 'castle', 'king', 'ball', 'slipper'];
    const leaves = Array.from({ length: 1000 }, (_, i) =>
      Array.from({ length: 80 }, (_, k) => words[(i * 7 + k * k) % words.length]).join(' '),
    );
    const nodes = tree(
      leaves,
      Array.from({ length: 100 }, (_, c) => Array.from({ length: 10 }, (_, k) => c * 10 + k)),
    );
    const labels = computeLabels(nodes);
    expect(labels.filter((l) => l !== undefined)).toHaveLength(100);
  });
});

/** The words of a label's terms, lower case, titles kept ("Mr. Darcy" → mr, darcy). */
function wordsOf(label: readonly string[] | undefined): string[] {
  return (label ?? []).flatMap((t) => t.toLowerCase().split(/[ .]+/).filter(Boolean));
}

describe('the passes that tell siblings and parents apart (each beside the same tree with it off)', () => {
  it('a child leaves out the words of its parent’s label (the breadcrumb shows them)', () => {
    const nodes = tree(
      [...GARDEN, ...SEA].map((text) => `${text} ${text}`),
      [
        [0, 1],
        [2, 3],
      ],
      [[4, 5]],
    );
    const root = wordsOf(computeLabels(nodes)[6]);
    expect(root.length).toBeGreaterThan(0);
    const repeated = (labels: (string[] | undefined)[]) =>
      [4, 5].flatMap((id) => wordsOf(labels[id]).filter((w) => root.includes(w)));
    const labels = computeLabels(nodes);
    expect(repeated(labels)).toEqual([]);
    for (const id of [4, 5]) expect(labels[id]!.length).toBeGreaterThanOrEqual(MIN_LABEL_TERMS);
    expect(repeated(computeLabels(nodes, { passes: { parentWords: false } })).length).toBeGreaterThan(0);
  });

  it('a child whose every word is its parent’s still gets two terms', () => {
    const nodes = tree(
      ['apple, pear, plum. apple, pear, plum.', 'apple, pear. plum, apple.'],
      [[0, 1]],
      [[2]],
    );
    const labels = computeLabels(nodes);
    expect(labels[2]!.length).toBeGreaterThanOrEqual(MIN_LABEL_TERMS);
    for (const term of labels[2]!) expect(labels[3]).toContain(term);
  });

  it('a word labels only one of a group of siblings: the one it scores best in', () => {
    // Two top-layer nodes (one group); Harold is frequent in both, more so in the garden.
    const nodes = tree(
      [
        `Harold came. Harold stayed. ${GARDEN[0]} Harold left.`,
        `Harold returned. ${GARDEN[1]}`,
        `Harold sailed. ${SEA[0]}`,
        `Harold swam. ${SEA[1]}`,
      ],
      [
        [0, 1],
        [2, 3],
      ],
    );
    const holders = (labels: (string[] | undefined)[]) =>
      [4, 5].filter((id) => labels[id]!.includes('Harold'));
    expect(holders(computeLabels(nodes))).toEqual([4]);
    expect(holders(computeLabels(nodes, { passes: { oneSibling: false } }))).toEqual([4, 5]);
  });

  it('a term is scored against the siblings as well as the layer: one no sibling has beats one a sibling shares', () => {
    // Layer 1 holds two groups of siblings. In the first node "lantern" is as frequent as "miller"; against the
    // layer, lantern (in one other node) beats miller (in three); against its sibling, which has lanterns and
    // no miller, miller is what sets it apart.
    const first = 'Lantern, lantern, lantern; the miller, the miller, the miller. The fox ran.';
    const sibling = 'Lantern, lantern, lantern; the weaver, the weaver. The hen sat.';
    const river = 'The miller, the miller, the miller; the river, the river.';
    const forest = 'The miller, the miller, the miller; the forest, the forest.';
    const nodes = tree(
      [first, first, sibling, sibling, river, river, forest, forest],
      [
        [0, 1],
        [2, 3],
        [4, 5],
        [6, 7],
      ],
      [
        [8, 9],
        [10, 11],
      ],
    );
    // Only the sibling scoring differs: the parent's words and one word per sibling would hide lantern too.
    const passes = { parentWords: false, oneSibling: false };
    expect(computeLabels(nodes, { passes })[8]![0]).toBe('miller');
    expect(computeLabels(nodes, { passes: { ...passes, siblings: false } })[8]![0]).toBe('lantern');
  });

  it('the terms of a label are diverse: a word found in the same passages as a chosen one comes after another', () => {
    // alpha and beta always share a leaf (a comma keeps them from being a phrase); gamma has its own leaves.
    const nodes = tree(
      ['alpha, beta.', 'alpha, beta.', 'alpha, beta.', 'gamma. gamma.', 'gamma.'],
      [[0, 1, 2, 3, 4]],
    );
    expect(computeLabels(nodes, { maxTerms: 2 })[5]).toEqual(['alpha', 'gamma']);
    expect(computeLabels(nodes, { maxTerms: 2, passes: { diversity: false } })[5]).toEqual(['alpha', 'beta']);
  });

  it('proper names weigh double: a place a little rarer than a common noun comes first', () => {
    const nodes = tree(
      [
        'The garden was wide. We walked to Meryton past the garden, and the garden gate.',
        'In the garden, news came from Meryton; the garden and Meryton were quiet.',
        ...SEA,
      ],
      [
        [0, 1],
        [2, 3],
      ],
    );
    expect(computeLabels(nodes)[4]![0]).toBe('Meryton');
    expect(computeLabels(nodes, { passes: { names: false } })[4]![0]).toBe('garden');
  });
});

describe('lacksLabels and fillMissingLabels (trees saved before labels existed)', () => {
  it('fills only the summaries without a label, keeps the others, and reports which it filled', () => {
    const nodes = tree(
      [...GARDEN, ...SEA],
      [
        [0, 1],
        [2, 3],
      ],
    ).map((n) => ({
      ...n,
      tokens: 1,
      embedding: new Float32Array(1),
    })) as TreeNode[];
    nodes[5].label = ['kept'];
    expect(lacksLabels(nodes)).toBe(true);
    expect(fillMissingLabels(nodes)).toEqual([4]);
    expect(nodes[4].label![0]).toBe('roses');
    expect(nodes[5].label).toEqual(['kept']);
    expect(nodes[0].label).toBeUndefined();
    expect(lacksLabels(nodes)).toBe(false);
    expect(fillMissingLabels(nodes)).toEqual([]);
  });
  it('applyLabels gives labels computed elsewhere (a worker) to the summaries without one', () => {
    const nodes = tree(
      [...GARDEN, ...SEA],
      [
        [0, 1],
        [2, 3],
      ],
    ).map((n) => ({ ...n, tokens: 1, embedding: new Float32Array(1) })) as TreeNode[];
    nodes[5].label = ['kept'];
    const labels = computeLabels(nodes);
    expect(applyLabels(nodes, labels)).toEqual([4]);
    expect(nodes[4].label).toEqual(labels[4]);
    expect(nodes[5].label).toEqual(['kept']);
    expect(nodes[0].label).toBeUndefined();
  });
});

describe('buildTree labels every summary (FAKE embedder, extractive summaries)', () => {
  it('writes a label of 2–4 terms on each summary and none on leaves', async () => {
    const embed = createFakeEmbedder();
    const text = [...GARDEN, ...SEA].join('\n\n').repeat(6);
    const built = await buildTree(
      text,
      { embed, summarize: createExtractiveSummarizer(embed) },
      { chunkTokens: 30 },
    );
    const summaries = built.nodes.filter((n) => n.layer > 0);
    expect(summaries.length).toBeGreaterThan(0);
    for (const node of built.nodes) {
      if (node.layer === 0) expect(node.label).toBeUndefined();
      else {
        expect(node.label!.length).toBeGreaterThanOrEqual(MIN_LABEL_TERMS);
        expect(node.label!.length).toBeLessThanOrEqual(MAX_LABEL_TERMS);
      }
    }
    expect(summaries.map((n) => n.label)).toEqual(computeLabels(built.nodes).filter((l) => l !== undefined));
  });
});

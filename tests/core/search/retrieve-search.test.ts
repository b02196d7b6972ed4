/**
 * `retrieve` with the question's text (the contract of issue 25): search by keywords or by meaning and
 * keywords fused in every mode, `DEFAULT_SEARCH` applied when `text` is given and meaning alone without it,
 * no sentence paid for twice (`distinct`), and a reranker (a fake in these unit tests) reordering the best
 * candidates. By meaning, the official tree's recorded selections hold with and without the text.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SEARCH,
  retrieve,
  retrieveReranked,
  type RetrieveOptions,
} from '../../../src/core/search/retrieve';
import { RRF_K } from '../../../src/core/search/fusion';
import { countTokens } from '../../../src/core/text';
import { parseTree } from '../../../src/core/tree-format';
import type { RaptorTree, TreeNode } from '../../../src/core/types';
import { treeOf } from '../../support/tree-of';

const DEG = Math.PI / 180;
const at = (degrees: number) => Float32Array.of(Math.cos(degrees * DEG), Math.sin(degrees * DEG));

interface Spec {
  layer?: number;
  angle: number;
  text: string;
  children?: number[];
}

function makeTree(specs: Spec[]): RaptorTree {
  const nodes: TreeNode[] = specs.map((s, id) => ({
    id,
    layer: s.layer ?? 0,
    text: s.text,
    tokens: countTokens(s.text),
    children: s.children ?? [],
    embedding: at(s.angle),
  }));
  return treeOf(nodes);
}

const ids = (tree: RaptorTree, options: RetrieveOptions) =>
  retrieve(tree, at(0), options).nodes.map((n) => n.id);

/** Four leaves whose meaning order is 0, 1, 2, 3; only 2 and 3 name Pemberley (3 twice, so it ranks first). */
const leaves = makeTree([
  { angle: 0, text: 'They talked of the weather at breakfast.' },
  { angle: 10, text: 'The carriage was ordered for the morning.' },
  { angle: 20, text: 'Pemberley was a fine house in the country.' },
  { angle: 30, text: 'At Pemberley the housekeeper showed them Pemberley gallery.' },
]);

describe('search', () => {
  it('without text ranks by meaning alone, whatever `search` says', () => {
    expect(ids(leaves, { mode: 'leaves' })).toEqual([0, 1, 2, 3]);
    expect(ids(leaves, { mode: 'leaves', search: 'keywords' })).toEqual([0, 1, 2, 3]);
  });

  it('with text applies DEFAULT_SEARCH, which is what `npm run bench retrieval` chose', () => {
    const question = { text: 'Where is Pemberley?' };
    expect(DEFAULT_SEARCH).toBe('keywords');
    expect(ids(leaves, { mode: 'leaves', ...question })).toEqual(
      ids(leaves, { mode: 'leaves', ...question, search: DEFAULT_SEARCH }),
    );
    expect(ids(leaves, { mode: 'leaves', ...question, search: 'meaning' })).toEqual([0, 1, 2, 3]);
  });

  it('keywords: the nodes sharing the question’s words first (BM25), then the rest by meaning', () => {
    const result = retrieve(leaves, at(0), { mode: 'leaves', text: 'Pemberley', search: 'keywords' });
    expect(result.nodes.map((n) => n.id)).toEqual([3, 2, 0, 1]);
    expect(result.keywordMatches).toBe(2);
    expect(result.nodes[0].keyword).toBeGreaterThan(result.nodes[1].keyword!);
    expect(result.nodes[2].keyword).toBe(0);
    // The cosine is still reported as the score.
    expect(result.nodes[0].score).toBeCloseTo(Math.cos(30 * DEG), 6);
  });

  it('both: reciprocal rank fusion of the two rankings, worked by hand', () => {
    // Meaning ranks 0,1,2,3 → 1..4; keyword ranks 3 → 1, 2 → 2; 0 and 1 have none.
    const fused = [
      1 / (RRF_K + 1),
      1 / (RRF_K + 2),
      1 / (RRF_K + 3) + 1 / (RRF_K + 2),
      1 / (RRF_K + 4) + 1 / (RRF_K + 1),
    ];
    const expected = [0, 1, 2, 3].sort((a, b) => fused[b] - fused[a]);
    expect(expected).toEqual([3, 2, 0, 1]);
    expect(ids(leaves, { mode: 'leaves', text: 'Pemberley', search: 'both' })).toEqual(expected);
  });

  it('both falls back to the meaning order when no word of the question is in the tree', () => {
    const result = retrieve(leaves, at(0), { mode: 'leaves', text: '起初神创造天地', search: 'both' });
    expect(result.nodes.map((n) => n.id)).toEqual([0, 1, 2, 3]);
    expect(result.keywordMatches).toBe(0);
  });

  it('collapsed ranks every layer together by the fused ranking', () => {
    const tree = makeTree([
      ...leaves.nodes.map((n, i) => ({ angle: i * 10, text: n.text })),
      { layer: 1, angle: 5, text: 'Breakfast and weather.', children: [0, 1] },
      { layer: 1, angle: 40, text: 'Elizabeth sees Pemberley.', children: [2, 3] },
    ]);
    const byMeaning = ids(tree, { mode: 'collapsed', text: 'Pemberley', search: 'meaning', topK: 3 });
    expect(byMeaning).toEqual([0, 4, 1]);
    const byKeywords = ids(tree, { mode: 'collapsed', text: 'Pemberley', search: 'keywords', topK: 3 });
    expect(byKeywords.slice(0, 1)).toEqual([3]);
    expect(new Set(byKeywords)).toEqual(new Set([2, 3, 5]));
  });

  it('traversal fuses the rankings among each layer’s candidates only', () => {
    // Layer 1: 4 {0, 1} is nearer the query; 5 {2, 3} holds the keyword.
    const tree = makeTree([
      { angle: 0, text: 'Breakfast at Longbourn.' },
      { angle: 5, text: 'Letters at Longbourn.' },
      { angle: 50, text: 'Derbyshire lakes.' },
      { angle: 60, text: 'Pemberley woods and Pemberley lawns.' },
      { layer: 1, angle: 2, text: 'Mornings at home.', children: [0, 1] },
      { layer: 1, angle: 55, text: 'A journey to Pemberley.', children: [2, 3] },
    ]);
    expect(ids(tree, { mode: 'traversal', topK: 1, text: 'Pemberley', search: 'meaning' })).toEqual([4, 0]);
    // With whole nodes, the paper's k per layer (passages by sentence walk by bounds instead: route.ts).
    const whole = { passages: 'whole' } as const;
    expect(
      ids(tree, { mode: 'traversal', topK: 1, text: 'Pemberley', search: 'keywords', ...whole }),
    ).toEqual([5, 3]);
    // Among 5's children only: leaf 0, the best of all leaves by meaning, is no candidate.
    expect(
      ids(tree, { mode: 'traversal', topK: 1, text: 'Pemberley lawns', search: 'both', ...whole }),
    ).toEqual([5, 3]);
    // Layer 1: 5 (meaning 2nd, keyword 1st) before 4; leaves {2, 3, 0, 1}: 3 (meaning 4th, keyword 1st), then 0.
    expect(
      ids(tree, { mode: 'traversal', topK: 2, text: 'Pemberley lawns', search: 'both', ...whole }),
    ).toEqual([5, 4, 3, 0]);
  });

  it('rejects an unknown search', () => {
    expect(() =>
      retrieve(leaves, at(0), { mode: 'leaves', text: 'x', search: 'fuzzy' as unknown as 'both' }),
    ).toThrow(expect.objectContaining({ code: 'INVALID_SEARCH' }));
  });
});

describe('distinct: no sentence paid for twice', () => {
  const s = {
    a: 'Anne walked by the sea at Lyme.',
    b: 'Louisa jumped from the Cobb.',
    c: 'Captain Wentworth caught nothing.',
    d: 'Everyone was frightened.',
    yes: 'Yes.',
  };
  // Leaves 0 {a b}, 1 {c d}, 2 {yes} and 3 {yes} (two places in the text saying the same word), and an
  // extractive summary 4 of leaves 0 and 1 made of their sentences a and c; 5 summarises leaves 2 and 3.
  const tree = makeTree([
    { angle: 10, text: `${s.a} ${s.b}` },
    { angle: 20, text: `${s.c}\n${s.d}` },
    { angle: 30, text: s.yes },
    { angle: 40, text: s.yes },
    { layer: 1, angle: 0, text: `${s.a} ${s.c}`, children: [0, 1] },
    { layer: 1, angle: 80, text: 'Quiet days.', children: [2, 3] },
  ]);

  it('without text every text is whole and the summary’s sentences are paid again (the official rule)', () => {
    const result = retrieve(tree, at(0), { mode: 'collapsed', topK: 3 });
    expect(result.nodes.map((n) => n.id)).toEqual([4, 0, 1]);
    expect(result.nodes.every((n) => n.excerpt === undefined)).toBe(true);
    expect(result.tokens).toBe(
      countTokens(tree.nodes[4].text) + countTokens(tree.nodes[0].text) + countTokens(tree.nodes[1].text),
    );
  });

  it('with text, a leaf after its summary brings only its new sentences, and pays only for them', () => {
    const result = retrieve(tree, at(0), {
      mode: 'collapsed',
      topK: 3,
      text: 'What happened?',
      search: 'meaning',
    });
    expect(result.nodes.map((n) => n.id)).toEqual([4, 0, 1]);
    expect(result.nodes[1].excerpt).toEqual({ text: s.b, omitted: 1 });
    expect(result.nodes[2].excerpt).toEqual({ text: s.d, omitted: 1 });
    expect(result.tokens).toBe(countTokens(tree.nodes[4].text) + countTokens(s.b) + countTokens(s.d));
    expect(result.context).toBe(`${s.a} ${s.c}\n\n${s.b}\n\n${s.d}\n\n`);
  });

  it('passes over a node with nothing new, and the saved tokens take the next node', () => {
    // Summary 4 holds all of leaf 6's text: 6 is passed over, not a misfit.
    const covered = makeTree([
      ...tree.nodes.slice(0, 4).map((n, i) => ({ angle: 10 * (i + 1), text: n.text })),
      { layer: 1, angle: 0, text: `${s.a} ${s.b}`, children: [0, 1] },
      { layer: 1, angle: 80, text: 'Quiet days.', children: [2, 3] },
    ]);
    const budget = countTokens(covered.nodes[4].text) + countTokens(covered.nodes[1].text);
    const options = { mode: 'collapsed', maxTokens: budget } as const;
    expect(ids(covered, options)).toEqual([4]);
    expect(ids(covered, { ...options, text: 'q', search: 'meaning' })).toEqual([4, 1]);
  });

  it('keeps the same sentence from two unrelated places in the text', () => {
    const result = retrieve(tree, at(35), { mode: 'leaves', topK: 2, text: 'q', search: 'meaning' });
    expect(result.nodes.map((n) => n.id).sort()).toEqual([2, 3]);
    expect(result.nodes.every((n) => n.excerpt === undefined)).toBe(true);
  });

  it('in traversal, takes the best top-k that add something new', () => {
    const full = makeTree([
      { angle: 0, text: `${s.a}` },
      { angle: 10, text: `${s.b}` },
      { angle: 20, text: `${s.c}` },
      { layer: 1, angle: 0, text: `${s.a} ${s.b}`, children: [0, 1, 2] },
    ]);
    expect(ids(full, { mode: 'traversal', topK: 1 })).toEqual([3, 0]);
    expect(ids(full, { mode: 'traversal', topK: 1, text: 'q', search: 'meaning' })).toEqual([3, 2]);
    expect(ids(full, { mode: 'traversal', topK: 1, text: 'q', search: 'meaning', distinct: false })).toEqual([
      3, 0,
    ]);
  });
});

describe('the official Cinderella tree (abstractive summaries): meaning search selects what the official code does', () => {
  const official = parseTree(
    readFileSync(new URL('../../fixtures/official-cinderella-tree.json', import.meta.url), 'utf8'),
  );
  const cases = (
    JSON.parse(
      readFileSync(new URL('../../fixtures/official-retrieval-cases.json', import.meta.url), 'utf8'),
    ) as {
      queries: {
        name: string;
        kind: string;
        node?: number;
        vector?: number[];
        results: Record<string, { ids: number[] }>;
      }[];
    }
  ).queries;
  it.each(cases.map((c) => [c.name, c] as const))(
    '%s, with the question text and distinct on',
    (_name, query) => {
      const vector =
        query.kind === 'node' ? official.nodes[query.node!].embedding : Float32Array.from(query.vector!);
      const text = 'Who helped Cinderella?';
      const collapsed = retrieve(official, vector, {
        mode: 'collapsed',
        maxTokens: 2000,
        text,
        search: 'meaning',
      });
      expect(collapsed.nodes.map((n) => n.id)).toEqual(query.results['collapsed-2000'].ids);
      expect(collapsed.nodes.every((n) => n.excerpt === undefined)).toBe(true);
      const traversal = retrieve(official, vector, { mode: 'traversal', text, search: 'meaning' });
      expect(traversal.nodes.map((n) => n.id)).toEqual(query.results['traversal-default'].ids);
    },
  );
});

describe('retrieveReranked (a fake reranker that prefers longer texts)', () => {
  const byLength = { score: (texts: string[]) => Promise.resolve(texts.map((t) => t.length)) };

  it('reorders the best `depth` candidates before the budget is filled, and reports their scores', async () => {
    const result = await retrieveReranked(
      leaves,
      at(0),
      { mode: 'leaves', text: 'q', search: 'meaning' },
      { ...byLength, depth: 3 },
    );
    const lengths = leaves.nodes.map((n) => n.text.length);
    const head = [0, 1, 2].sort((a, b) => lengths[b] - lengths[a]);
    expect(result.nodes.map((n) => n.id)).toEqual([...head, 3]);
    expect(result.nodes[0].rerank).toBe(lengths[head[0]]);
    expect(result.nodes[3].rerank).toBeUndefined();
  });

  it('reorders each layer’s candidates in traversal', async () => {
    const tree = makeTree([
      { angle: 0, text: 'short' },
      { angle: 10, text: 'a much longer leaf text' },
      { layer: 1, angle: 0, text: 'top', children: [0, 1] },
    ]);
    const result = await retrieveReranked(tree, at(0), { mode: 'traversal', topK: 1 }, byLength);
    expect(result.nodes.map((n) => n.id)).toEqual([2, 1]);
  });

  it('rejects a reranker that returns the wrong number of scores', async () => {
    const broken = { score: () => Promise.resolve([1]) };
    await expect(retrieveReranked(leaves, at(0), { mode: 'leaves' }, broken)).rejects.toMatchObject({
      code: 'INVALID_RERANK',
    });
  });

  it('passes the reranker’s own failure on', async () => {
    const failing = { score: () => Promise.reject(new Error('model gone')) };
    await expect(retrieveReranked(leaves, at(0), { mode: 'collapsed' }, failing)).rejects.toThrow(
      'model gone',
    );
  });
});

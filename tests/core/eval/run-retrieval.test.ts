import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DimensionError } from '../../../src/core/errors';
import { goldNeighbourhood } from '../../../src/core/eval/ranking';
import { EvalError, evaluateRetrieval } from '../../../src/core/eval/run-retrieval';
import { reportTable } from '../../../src/core/eval/table';
import { defaultVariants, variantKey, type EvalVariant } from '../../../src/core/eval/variants';
import { DEFAULT_SEARCH, retrieve } from '../../../src/core/search';
import { parseTree, serializeTree } from '../../../src/core/tree-format';
import type { RaptorTree } from '../../../src/core/types';
import { handTree } from './hand-tree';

/** A six-node tree worked by hand: two animal leaves under node 4, two weather leaves under node 5. */
function smallTree(): RaptorTree {
  return handTree(
    [
      [0, 'The cat sat on the mat.', [1, 0, 0]], // 7 cl100k tokens
      [0, 'A dog barked at the moon.', [0, 1, 0]], // 8
      [0, 'Rain fell on the quiet town.', [0, 0, 1]], // 7
      [0, 'The town slept while rain fell.', [0, 0.6, 0.8]], // 7
      [1, 'Animals: a cat and a dog.', [0.7, 0.7, 0], [0, 1]], // 9
      [1, 'Weather over the town.', [0, 0.3, 0.95], [2, 3]], // 5
    ],
    'small',
  );
}

/** FAKE embedder for unit tests: looks each question up in a table of hand-picked vectors. */
function fakeEmbedder(table: Record<string, number[]>, calls: string[][] = []) {
  return async (texts: string[]) => {
    calls.push(texts);
    return texts.map((t) => Float32Array.from(table[t] ?? [0, 0, 0]));
  };
}

const QUESTIONS = [
  { question: 'Where did the cat sit?', evidence: ['the CAT sat  on', 'a dog barked'], kind: 'fact' },
  { question: 'What is the weather?', goldNode: 5, kind: 'theme' },
  { question: 'What about the cat?', goldNode: 0, kind: 'detail' },
  { question: 'Unscored', kind: 'fact' },
];
const VECTORS = {
  'Where did the cat sit?': [1, 0, 0],
  'What is the weather?': [0, 0, 1],
  'What about the cat?': [0, 0, 1],
  Unscored: [0, 1, 0],
};
/** Meaning search, pinned: the hand-worked numbers are cosine rankings whatever the default search becomes. */
const MEANING: EvalVariant[] = [
  { mode: 'collapsed', search: 'meaning' },
  { mode: 'traversal', search: 'meaning' },
  { mode: 'leaves', search: 'meaning' },
];
/** The report keys of the meaning variants ("collapsed" while meaning is the default search). */
const K = {
  collapsed: variantKey(MEANING[0]),
  traversal: variantKey(MEANING[1]),
  leaves: variantKey(MEANING[2]),
};

/** A clock that advances 1 ms per reading. */
const ticking = () => {
  let t = 0;
  return () => t++;
};

describe('evaluateRetrieval on a tree worked by hand', () => {
  it('retrieves, scores and aggregates every mode as worked out by hand', async () => {
    const report = await evaluateRetrieval(smallTree(), QUESTIONS, {
      embedQuery: fakeEmbedder(VECTORS),
      variants: MEANING,
      maxTokens: 16,
      traversalTopK: 1,
      now: ticking(),
    });
    const q = report.perQuestion;
    // Collapsed, budget 16: [1,0,0] ranks 0 (7) then 4 (9); node 1 would pass 16.
    expect(q[0].modes[K.collapsed]).toMatchObject({
      nodes: [0, 4],
      tokens: 16,
      recall: 0.5,
      found: [true, false],
      firstHit: 1,
    });
    // Leaves: 0 (7) and 1 (8), then 2 would pass 16: both quotes.
    expect(q[0].modes[K.leaves]).toMatchObject({ nodes: [0, 1], tokens: 15, recall: 1, firstHit: 1 });
    // Traversal, top 1: node 4 of layer 1, then its child 0: the first quote is complete at rank 2.
    expect(q[0].modes[K.traversal]).toMatchObject({ nodes: [4, 0], recall: 0.5, firstHit: 2 });
    // Gold node 5: collapsed [2, 5] (node 2 is its child, rank 1); leaves [2, 3]; traversal [5, 2].
    expect(q[1].modes[K.collapsed]).toMatchObject({ nodes: [2, 5], recall: 1, firstHit: 1 });
    expect(q[1].modes[K.leaves]).toMatchObject({ nodes: [2, 3], recall: 1, firstHit: 1 });
    expect(q[1].modes[K.traversal]).toMatchObject({ nodes: [5, 2], recall: 1, firstHit: 1 });
    // Gold node 0 with the weather vector: nothing near node 0 or its parent 4 is retrieved.
    for (const key of Object.values(K)) {
      expect(q[2].modes[key]).toMatchObject({ recall: 0, firstHit: 0 });
      expect(q[3].modes[key]).toMatchObject({ recall: null, firstHit: null });
    }
    expect(q.map((x) => x.scoring)).toEqual(['evidence', 'gold-node', 'gold-node', 'none']);

    const collapsed = report.modes[K.collapsed];
    expect(collapsed).toMatchObject({
      key: K.collapsed,
      mode: 'collapsed',
      search: 'meaning',
      questions: 3,
      ran: 4,
    });
    expect(collapsed.evidenceRecall).toBeCloseTo((0.5 + 1 + 0) / 3, 12);
    expect(collapsed.mrr).toBeCloseTo((1 + 1 + 0) / 3, 12);
    expect(collapsed.hitRate).toBeCloseTo(2 / 3, 12);
    expect(report.modes[K.traversal].mrr).toBeCloseTo((0.5 + 1 + 0) / 3, 12);
    expect(report.modes[K.leaves].evidenceRecall).toBeCloseTo((1 + 1 + 0) / 3, 12);
    // Every retrieval took one tick of the clock.
    expect(collapsed.timeMs).toBe(1);
    expect(collapsed.totalTimeMs).toBe(4);
    // Unscored question 4 ([0,1,0]): collapsed ranks 1 (8), 4 (cos .707, 9) → 17 > 16, so [1] alone.
    expect(q[3].modes[K.collapsed].nodes).toEqual([1]);
    // Layers: collapsed retrieved 0,4 | 2,5 | 2,5 | 1 → four leaves, three summaries.
    expect(collapsed.layerCounts).toEqual([4, 3]);
    expect(collapsed.layers).toEqual([4 / 7, 3 / 7]);
    expect(report.modes[K.leaves].layers).toEqual([1, 0]);
    expect(collapsed.contextTokens).toBeCloseTo((16 + 12 + 12 + 8) / 4, 12);
    expect(collapsed.byKind).toEqual({
      detail: { questions: 1, evidenceRecall: 0, mrr: 0, hitRate: 0 },
      fact: { questions: 1, evidenceRecall: 0.5, mrr: 1, hitRate: 1 },
      theme: { questions: 1, evidenceRecall: 1, mrr: 1, hitRate: 1 },
    });
    expect(report).toMatchObject({
      questions: 4,
      scored: 3,
      settings: { maxTokens: 16, traversalTopK: 1 },
      tree: { nodes: 6, nodesPerLayer: [4, 2], summarizer: 'extractive' },
      warnings: [],
    });
    expect(Object.keys(report.modes)).toEqual(Object.values(K));
  });

  it('never changes the tree, and gives the same numbers as retrieve itself', async () => {
    const tree = smallTree();
    const before = serializeTree(tree);
    const report = await evaluateRetrieval(tree, QUESTIONS, {
      embedQuery: fakeEmbedder(VECTORS),
      variants: defaultVariants(),
      maxTokens: 16,
    });
    expect(serializeTree(tree)).toBe(before);
    const direct = retrieve(tree, Float32Array.from([1, 0, 0]), { mode: 'collapsed', maxTokens: 16 });
    expect(report.perQuestion[0].modes[K.collapsed].nodes).toEqual(direct.nodes.map((n) => n.id));
    expect(report.perQuestion[0].modes[K.collapsed].scores).toEqual(direct.nodes.map((n) => n.score));
  });

  it('names one entry per mode and search setting, the default search by the mode alone', async () => {
    const report = await evaluateRetrieval(smallTree(), QUESTIONS.slice(0, 1), {
      embedQuery: fakeEmbedder(VECTORS),
      variants: defaultVariants(),
    });
    const keys = Object.keys(report.modes);
    expect(keys.slice(0, 3)).toEqual(['collapsed', 'traversal', 'leaves']);
    expect(keys).toHaveLength(9);
    for (const m of Object.values(report.modes)) {
      expect(m.key).toBe(variantKey({ mode: m.mode, search: m.search }));
      expect(m.key === m.mode).toBe(m.search === DEFAULT_SEARCH);
    }
    expect(variantKey({ mode: 'leaves', search: 'keywords' })).toBe(
      DEFAULT_SEARCH === 'keywords' ? 'leaves' : 'leaves:keywords',
    );
  });

  it('runs a rerank hook in place of retrieve, with the options retrieve would have had, under its own key', async () => {
    const seen: unknown[] = [];
    const hook: EvalVariant = {
      mode: 'collapsed',
      search: 'meaning',
      rerank: {
        name: 'reverse',
        retrieve: async (tree, vector, options, { question }) => {
          seen.push({ options, question: question.question });
          const r = retrieve(tree, vector, options);
          return { ...r, nodes: [...r.nodes].reverse() };
        },
      },
    };
    const report = await evaluateRetrieval(smallTree(), QUESTIONS.slice(0, 1), {
      embedQuery: fakeEmbedder(VECTORS),
      variants: [hook],
      maxTokens: 16,
    });
    const key = `${K.collapsed}+reverse`;
    expect(Object.keys(report.modes)).toEqual([key]);
    expect(report.modes[key]).toMatchObject({ rerank: 'reverse', search: 'meaning' });
    expect(seen).toEqual([
      {
        options: { mode: 'collapsed', maxTokens: 16, text: 'Where did the cat sit?', search: 'meaning' },
        question: 'Where did the cat sit?',
      },
    ]);
    // Reversed [4, 0]: the first quote now completes at rank 2.
    expect(report.perQuestion[0].modes[key]).toMatchObject({ nodes: [4, 0], firstHit: 2 });
  });

  it('looks for evidence in the context the retrieval returned, not in the whole node texts', async () => {
    // A retrieval that leaves a sentence out of its context (as a "no repeated sentences" context may).
    const trimmed: EvalVariant = {
      mode: 'collapsed',
      search: 'meaning',
      rerank: {
        name: 'trimmed',
        retrieve: (tree, vector, options) => {
          const r = retrieve(tree, vector, options);
          return { ...r, context: r.context.replace('The cat sat on the mat.', 'The cat.') };
        },
      },
    };
    const report = await evaluateRetrieval(smallTree(), QUESTIONS.slice(0, 1), {
      embedQuery: fakeEmbedder(VECTORS),
      variants: [MEANING[0], trimmed],
      maxTokens: 16,
    });
    expect(report.perQuestion[0].modes[K.collapsed]).toMatchObject({ nodes: [0, 4], found: [true, false] });
    expect(report.perQuestion[0].modes[`${K.collapsed}+trimmed`]).toMatchObject({
      nodes: [0, 4],
      recall: 0,
      found: [false, false],
      firstHit: 0,
    });
  });

  it('lets the variants take turns at going first, so first-touch costs are not always charged to one', async () => {
    const calls: string[] = [];
    const logged = (name: string): EvalVariant => ({
      mode: 'leaves',
      search: 'meaning',
      rerank: {
        name,
        retrieve: (tree, vector, options, { question }) => {
          calls.push(`${question.question}:${name}`);
          return retrieve(tree, vector, options);
        },
      },
    });
    await evaluateRetrieval(smallTree(), [{ question: 'a' }, { question: 'b' }, { question: 'c' }], {
      embedQuery: fakeEmbedder({}),
      variants: [logged('x'), logged('y'), logged('z')],
    });
    expect(calls).toEqual(['a:x', 'a:y', 'a:z', 'b:y', 'b:z', 'b:x', 'c:z', 'c:x', 'c:y']);
  });

  it('embeds questions in batches, reports progress and stops on abort', async () => {
    const many = Array.from({ length: 70 }, (_, i) => ({ question: `q${i}` }));
    const calls: string[][] = [];
    const progress: string[] = [];
    await evaluateRetrieval(smallTree(), many, {
      embedQuery: fakeEmbedder({}, calls),
      variants: MEANING,
      onProgress: (p) => progress.push(`${p.stage} ${p.done}/${p.total}`),
    });
    expect(calls.map((c) => c.length)).toEqual([32, 32, 6]);
    expect(progress.slice(0, 4)).toEqual(['embed 0/70', 'embed 32/70', 'embed 64/70', 'embed 70/70']);
    expect(progress.at(-1)).toBe('retrieve 210/210');

    const controller = new AbortController();
    const run = evaluateRetrieval(smallTree(), many, {
      embedQuery: fakeEmbedder({}),
      variants: MEANING,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.stage === 'retrieve' && p.done === 6) controller.abort();
      },
    });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('refuses empty sets, duplicate variants and a wrong number of vectors; passes on dimension errors', async () => {
    const embedQuery = fakeEmbedder(VECTORS);
    await expect(evaluateRetrieval(smallTree(), [], { embedQuery })).rejects.toMatchObject({
      code: 'NO_QUESTIONS',
    });
    await expect(
      evaluateRetrieval(smallTree(), QUESTIONS, {
        embedQuery,
        variants: [{ mode: 'leaves' }, { mode: 'leaves', search: DEFAULT_SEARCH }],
      }),
    ).rejects.toMatchObject({ code: 'DUPLICATE_VARIANT' });
    await expect(
      evaluateRetrieval(smallTree(), QUESTIONS, { embedQuery: async () => [], variants: MEANING }),
    ).rejects.toBeInstanceOf(EvalError);
    await expect(
      evaluateRetrieval(smallTree(), QUESTIONS, {
        embedQuery: async (t) => t.map(() => new Float32Array(4)),
        variants: MEANING,
      }),
    ).rejects.toBeInstanceOf(DimensionError);
  });

  it('warns about a gold node the tree does not have and leaves that question unscored', async () => {
    const report = await evaluateRetrieval(smallTree(), [{ question: 'x', goldNode: 60 }], {
      embedQuery: fakeEmbedder({}),
      variants: MEANING,
    });
    expect(report.perQuestion[0].scoring).toBe('none');
    expect(report.warnings).toEqual([expect.stringContaining('(60) is not in this tree of 6 nodes')]);
    expect(report.modes[K.collapsed]).toMatchObject({ questions: 0, evidenceRecall: null, mrr: null });
  });

  it("finds a generated question's node by its text in a tree that holds it under another id", async () => {
    const tree = smallTree();
    // As after a rebuild: node 2's text is now node 3's and the other way round.
    const swapped = { ...tree, nodes: tree.nodes.map((n) => ({ ...n })) };
    [swapped.nodes[2].text, swapped.nodes[3].text] = [tree.nodes[3].text, tree.nodes[2].text];
    const questions = [
      { question: 'What is the weather?', goldNode: 2, goldText: tree.nodes[2].text },
      { question: 'x', goldNode: 2, goldText: 'a text no node has' },
      { question: 'y', goldText: tree.nodes[0].text },
    ];
    const report = await evaluateRetrieval(swapped, questions, {
      embedQuery: fakeEmbedder(VECTORS),
      variants: [MEANING[2]],
      maxTokens: 7,
    });
    expect(report.perQuestion.map((q) => [q.scoring, q.goldNode])).toEqual([
      ['gold-node', 3],
      ['none', undefined],
      ['gold-node', 0],
    ]);
    // Leaves with budget 7 for [0,0,1]: node 2 alone, which is not node 3's neighbour.
    expect(report.perQuestion[0].modes[K.leaves]).toMatchObject({ nodes: [2], firstHit: 0 });
    expect(report.warnings).toHaveLength(1);
  });

  it('prints a Markdown table with a column per question kind', async () => {
    const report = await evaluateRetrieval(smallTree(), QUESTIONS, {
      embedQuery: fakeEmbedder(VECTORS),
      variants: MEANING,
      maxTokens: 16,
      traversalTopK: 1,
      now: ticking(),
    });
    const lines = reportTable(report).split('\n');
    expect(lines[0]).toBe(
      '| mode | questions | evidence recall | recall: detail | recall: fact | recall: theme | MRR | hit rate | context tokens | ms/question | layers |',
    );
    expect(lines[2]).toBe(
      `| ${K.collapsed} | 3 | 0.50 | 0.00 | 0.50 | 1.00 | 0.67 | 0.67 | 12 | 1.0 | L0 57% · L1 43% |`,
    );
    expect(lines).toHaveLength(5);
  });
});

describe('the gold-node rule', () => {
  it('counts the node itself, every parent and every child, and nothing further away', () => {
    const tree = smallTree();
    expect([...goldNeighbourhood(tree, 0)].sort()).toEqual([0, 4]);
    expect([...goldNeighbourhood(tree, 5)].sort()).toEqual([2, 3, 5]);
    // A node in two clusters has two parents.
    tree.nodes[4].children = [0, 1, 3];
    expect([...goldNeighbourhood({ ...tree, nodes: [...tree.nodes] }, 3)].sort()).toEqual([3, 4, 5]);
    expect(goldNeighbourhood(tree, 6).size).toBe(0);
    expect(goldNeighbourhood(tree, 1.5).size).toBe(0);
  });
});

describe('evaluateRetrieval on the official Cinderella tree', () => {
  const tree = parseTree(
    readFileSync(new URL('../../fixtures/official-cinderella-tree.json', import.meta.url), 'utf8'),
  );

  it('finds every node when asked with its own embedding (MRR 1 in collapsed mode)', async () => {
    const questions = tree.nodes.map((n) => ({ question: `node ${n.id}`, goldNode: n.id }));
    const report = await evaluateRetrieval(tree, questions, {
      embedQuery: async (texts) => texts.map((t) => tree.nodes[Number(t.slice(5))].embedding),
      variants: [MEANING[0], MEANING[2]],
    });
    expect(report.modes[K.collapsed].mrr).toBe(1);
    expect(report.modes[K.collapsed].evidenceRecall).toBe(1);
    // Leaves only: a leaf finds itself; a summary finds one of its children, unless a leaf of another summary
    // ranks first (its first hit is then later).
    const leafQuestions = report.perQuestion.filter((q) => tree.nodes[q.index].layer === 0);
    expect(leafQuestions.every((q) => q.modes[K.leaves].firstHit === 1)).toBe(true);
    for (const q of report.perQuestion) {
      const hit = q.modes[K.leaves].firstHit!;
      const targets = goldNeighbourhood(tree, q.index);
      expect(hit === 0 || targets.has(q.modes[K.leaves].nodes[hit - 1])).toBe(true);
    }
  });
});

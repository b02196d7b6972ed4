import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DimensionError } from '../../../src/core/errors';
import { seededRandom } from '../../../src/core/random';
import { formatContext, retrieve, RetrievalError } from '../../../src/core/search/retrieve';
import type { RetrievalErrorCode, RetrieveOptions } from '../../../src/core/search/retrieve';
import { countTokens } from '../../../src/core/text';
import { parseTree } from '../../../src/core/tree-format';
import type { RaptorTree, TreeNode } from '../../../src/core/types';
import { treeOf } from '../../support/tree-of';

function fixture(name: string): string {
  return readFileSync(new URL(`../../fixtures/${name}`, import.meta.url), 'utf8');
}

interface RecordedResult {
  /** Per-query budget of the edge modes (overrides the mode's options). */
  maxTokens?: number;
  ids: number[];
  scores: number[];
  tokens: number;
  contextChars: number;
  contextSha256: string;
  wrongRulesDiffer: { skipMisfits?: boolean; o200kCounts?: boolean };
}

interface RecordedQuery {
  name: string;
  kind: 'node' | 'pair' | 'random';
  node?: number;
  vector?: number[];
  results: Record<string, RecordedResult>;
}

interface RecordedCases {
  modes: { name: string; options: RetrieveOptions; official: string }[];
  queries: RecordedQuery[];
}

const officialFile = fixture('official-cinderella-tree.json');
const official = parseTree(officialFile);
const cases = JSON.parse(fixture('official-retrieval-cases.json')) as RecordedCases;
/** The `tokens` field as the official tree's file stores it: o200k_base counts, not what retrieval budgets with. */
const fileTokens = (JSON.parse(officialFile) as { nodes: { tokens: number }[] }).nodes.map((n) => n.tokens);

function optionsOf(mode: RecordedCases['modes'][number], result: RecordedResult): RetrieveOptions {
  const options = mode.options;
  if (options.mode === 'traversal' || result.maxTokens === undefined) return options;
  return { ...options, maxTokens: result.maxTokens };
}

/** The best-first prefix of `ranking` that a budget takes, stopping at the first misfit or skipping misfits. */
function fill(ranking: number[], tokens: (id: number) => number, maxTokens: number, skip: boolean): number[] {
  const chosen: number[] = [];
  let total = 0;
  for (const id of ranking) {
    if (total + tokens(id) > maxTokens) {
      if (skip) continue;
      break;
    }
    chosen.push(id);
    total += tokens(id);
  }
  return chosen;
}

function queryVector(query: RecordedQuery): Float32Array {
  return query.kind === 'node' ? official.nodes[query.node!].embedding : Float32Array.from(query.vector!);
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('the official Cinderella tree', () => {
  it('parses with its known shape', () => {
    expect(official.nodes).toHaveLength(40);
    expect(official.nodes.filter((n) => n.layer === 0)).toHaveLength(33);
    expect(official.nodes.filter((n) => n.layer === 1)).toHaveLength(7);
    expect(official.embedding.dim).toBe(1536);
    expect(official.nodes[35].children).toEqual([21, 22, 23, 25, 26, 27, 29]);
  });

  it('has recorded cases for every mode, including budget stops and the exact-fit boundary', () => {
    expect(cases.queries.length).toBeGreaterThanOrEqual(20);
    expect(cases.modes.map((m) => m.name)).toEqual([
      'collapsed-official',
      'collapsed-2000',
      'collapsed-300',
      'collapsed-edge-exact',
      'collapsed-edge-tight',
      'traversal-default',
    ]);
    for (const query of cases.queries) {
      expect(Object.keys(query.results)).toHaveLength(cases.modes.length);
      // Stored vectors hold exact float32 values, so every reader uses the very same query.
      if (query.vector) expect(Array.from(Float32Array.from(query.vector))).toEqual(query.vector);
      const exact = query.results['collapsed-edge-exact'];
      const tight = query.results['collapsed-edge-tight'];
      expect(exact.tokens).toBe(exact.maxTokens);
      expect(tight.maxTokens).toBe(exact.maxTokens! - 1);
      expect(tight.ids).toEqual(exact.ids.slice(0, -1));
    }
  });

  it('has cases that budgeting by the file counts, or skipping a misfit, would get wrong', () => {
    const cl100k = official.nodes.map((n) => countTokens(n.text));
    expect(cl100k.filter((count, id) => count !== fileTokens[id]).length).toBeGreaterThanOrEqual(20);
    let o200kWrong = 0;
    let skipWrong = 0;
    for (const query of cases.queries) {
      const vector = queryVector(query);
      const ranking = retrieve(official, vector, { mode: 'collapsed', maxTokens: Number.MAX_SAFE_INTEGER });
      const ranked = ranking.nodes.map((n) => n.id);
      expect(ranked).toHaveLength(official.nodes.length);
      for (const mode of cases.modes) {
        const result = query.results[mode.name];
        const options = optionsOf(mode, result);
        if (options.mode !== 'collapsed') continue;
        const candidates = ranked.slice(0, options.topK ?? ranked.length);
        const budget = options.maxTokens!;
        const o200k = fill(candidates, (id) => fileTokens[id], budget, false);
        const skipping = fill(candidates, (id) => cl100k[id], budget, true);
        expect(String(o200k) !== String(result.ids)).toBe(result.wrongRulesDiffer.o200kCounts);
        expect(String(skipping) !== String(result.ids)).toBe(result.wrongRulesDiffer.skipMisfits);
        if (result.wrongRulesDiffer.o200kCounts) o200kWrong++;
        if (result.wrongRulesDiffer.skipMisfits) skipWrong++;
      }
    }
    expect(o200kWrong).toBeGreaterThanOrEqual(20);
    expect(skipWrong).toBeGreaterThanOrEqual(20);
  });

  const table = cases.queries.flatMap((query) =>
    cases.modes.map((mode) => ({
      query: query.name,
      mode: mode.name,
      q: query,
      options: optionsOf(mode, query.results[mode.name]),
    })),
  );
  it.each(table)(
    '$mode, $query: selects exactly what the official TreeRetriever selects',
    ({ q, mode, options }) => {
      const expected = q.results[mode];
      const result = retrieve(official, queryVector(q), options);
      expect(result.nodes.map((n) => n.id)).toEqual(expected.ids);
      result.nodes.forEach((n, i) => {
        expect(n.layer).toBe(official.nodes[n.id].layer);
        expect(n.score).toBeCloseTo(expected.scores[i], 8);
      });
      expect(result.tokens).toBe(expected.tokens);
      expect(result.context.length).toBe(expected.contextChars);
      expect(sha256(result.context)).toBe(expected.contextSha256);
    },
  );
});

const DEG = Math.PI / 180;

interface NodeSpec {
  layer: number;
  /** Angle of the 2-d unit embedding, in degrees; the score against query `at(0)` is cos(angle). */
  angle: number;
  /** cl100k tokens of the generated text (default 10); ignored when `text` is given. */
  tokens?: number;
  /** What the node's `tokens` field claims; default: the true count of its text. */
  storedTokens?: number;
  children?: number[];
  text?: string;
}

const at = (degrees: number) => Float32Array.of(Math.cos(degrees * DEG), Math.sin(degrees * DEG));

/** A text of exactly `tokens` cl100k tokens (" w" is one token, and the pre-tokenizer never merges two). */
function textOf(tokens: number): string {
  const text = ' w'.repeat(tokens);
  if (countTokens(text) !== tokens) throw new Error(`" w" × ${tokens} is ${countTokens(text)} tokens`);
  return text;
}

function makeTree(specs: NodeSpec[]): RaptorTree {
  const nodes: TreeNode[] = specs.map((s, id) => {
    const text = s.text ?? textOf(s.tokens ?? 10);
    return {
      id,
      layer: s.layer,
      text,
      tokens: s.storedTokens ?? countTokens(text),
      children: s.children ?? [],
      embedding: at(s.angle),
    };
  });
  return treeOf(nodes);
}

/**
 * Leaves 0–3, layer 1: 4 {0,1}, 5 {1,2}, 6 {3}; layer 2: 7 {4,5}, 8 {5,6}. Against `at(0)` the collapsed
 * ranking is 3, 0, 1, 2, 4, 5, 7, 8, 6; leaf 3 is the best node but sits under the weakest summary.
 */
const LAYERED_ANGLES = [10, 20, 30, 5, 40, 50, 80, 60, 70];
const LAYERED_CHILDREN = [[], [], [], [], [0, 1], [1, 2], [3], [4, 5], [5, 6]];
const layered = makeTree(
  LAYERED_ANGLES.map((angle, id) => ({
    layer: id < 4 ? 0 : id < 7 ? 1 : 2,
    angle,
    children: LAYERED_CHILDREN[id],
  })),
);

const ids = (tree: RaptorTree, query: ArrayLike<number>, options: RetrieveOptions) =>
  retrieve(tree, query, options).nodes.map((n) => n.id);

describe('collapsed retrieval', () => {
  it('ranks every layer together by cosine similarity, best first', () => {
    const result = retrieve(layered, at(0), { mode: 'collapsed' });
    expect(result.nodes.map((n) => n.id)).toEqual([3, 0, 1, 2, 4, 5, 7, 8, 6]);
    // The embeddings are float32, so the cosines agree with the exact angles to about 1e-7.
    for (const n of result.nodes) expect(n.score).toBeCloseTo(Math.cos(LAYERED_ANGLES[n.id] * DEG), 6);
    expect(result.tokens).toBe(90);
  });

  it('stops at the first node that does not fit instead of skipping it', () => {
    const tree = makeTree([
      { layer: 0, angle: 0, tokens: 50 },
      { layer: 0, angle: 10, tokens: 60 },
      { layer: 0, angle: 20, tokens: 10 },
    ]);
    // Node 1 would overflow 100; node 2 would fit after it, but selection ends at node 1.
    const result = retrieve(tree, at(0), { mode: 'collapsed', maxTokens: 100 });
    expect(result.nodes.map((n) => n.id)).toEqual([0]);
    expect(result.tokens).toBe(50);
    // A budget met exactly still takes the node (running total ≤ maxTokens).
    expect(ids(tree, at(0), { mode: 'collapsed', maxTokens: 110 })).toEqual([0, 1]);
    // A best node larger than the budget leaves the context empty.
    expect(retrieve(tree, at(0), { mode: 'collapsed', maxTokens: 49 })).toEqual({
      nodes: [],
      context: '',
      tokens: 0,
    });
  });

  it('caps the candidates at topK before the budget applies', () => {
    expect(ids(layered, at(0), { mode: 'collapsed', topK: 3 })).toEqual([3, 0, 1]);
    expect(ids(layered, at(0), { mode: 'collapsed', topK: 3, maxTokens: 25 })).toEqual([3, 0]);
    expect(ids(layered, at(0), { mode: 'collapsed', topK: 100 })).toHaveLength(9);
  });

  it('breaks ties by ascending id whatever the node order', () => {
    const tree = makeTree(Array.from({ length: 50 }, (_, i) => ({ layer: 0, angle: i % 2 === 0 ? 30 : 10 })));
    const expected = [
      ...Array.from({ length: 25 }, (_, i) => 2 * i + 1),
      ...Array.from({ length: 25 }, (_, i) => 2 * i),
    ];
    expect(ids(tree, at(0), { mode: 'collapsed', maxTokens: 10_000 })).toEqual(expected);
  });

  it('scores 0 for an all-zero query and then keeps id order', () => {
    const result = retrieve(layered, [0, 0], { mode: 'collapsed', topK: 4 });
    expect(result.nodes.map((n) => [n.id, n.score])).toEqual([
      [0, 0],
      [1, 0],
      [2, 0],
      [3, 0],
    ]);
  });

  it('agrees with a plain sort on a random 2,000-node tree (order property)', () => {
    const random = seededRandom(11);
    const dim = 8;
    const n = 2000;
    const specs = Array.from({ length: n }, () => ({
      layer: 0,
      angle: 0,
      tokens: 1 + Math.floor(random() * 5),
    }));
    const tree = makeTree(specs);
    tree.embedding.dim = dim;
    for (const node of tree.nodes)
      node.embedding = Float32Array.from({ length: dim }, () => random() * 2 - 1);
    const query = Float64Array.from({ length: dim }, () => random() * 2 - 1);
    const cos = (e: Float32Array) => {
      let d = 0;
      let ee = 0;
      let qq = 0;
      for (let k = 0; k < dim; k++) {
        d += e[k] * query[k];
        ee += e[k] * e[k];
        qq += query[k] * query[k];
      }
      return d / Math.sqrt(ee * qq);
    };
    const order = tree.nodes
      .map((node) => ({ id: node.id, score: cos(node.embedding) }))
      .sort((a, b) => b.score - a.score || a.id - b.id);
    const budget = 3000;
    const expected: number[] = [];
    let total = 0;
    for (const { id } of order) {
      if (total + specs[id].tokens > budget) break;
      expected.push(id);
      total += specs[id].tokens;
    }
    expect(expected.length).toBeGreaterThan(500);
    expect(ids(tree, query, { mode: 'collapsed', maxTokens: budget })).toEqual(expected);
  });

  it('budgets by the true cl100k count of each text, whatever the stored tokens claim', () => {
    const texts = ['Cinderella sat among the ashes.', 'The prince looked for her.', 'A dove sang.'];
    const truth = texts.map(countTokens);
    const lying = makeTree([
      { layer: 0, angle: 0, text: texts[0], storedTokens: 1000 },
      { layer: 0, angle: 10, text: texts[1], storedTokens: 0 },
      { layer: 0, angle: 20, text: texts[2], storedTokens: 0 },
    ]);
    // Stored counts would take nothing (1,000 > budget), or everything; the true counts take exactly two.
    const budget = truth[0] + truth[1];
    const result = retrieve(lying, at(0), { mode: 'collapsed', maxTokens: budget });
    expect(result.nodes.map((n) => n.id)).toEqual([0, 1]);
    expect(result.tokens).toBe(budget);
    expect(ids(lying, at(0), { mode: 'collapsed', maxTokens: budget - 1 })).toEqual([0]);
    expect(ids(lying, at(0), { mode: 'leaves', maxTokens: truth[0] - 1 })).toEqual([]);
    const traversal = retrieve(lying, at(0), { mode: 'traversal', topK: 3 });
    expect(traversal.tokens).toBe(truth[0] + truth[1] + truth[2]);
  });

  it('tokenizes only the ranked nodes up to the first misfit (fake nodes that record reads of their text)', () => {
    const tree = makeTree(
      Array.from({ length: 1000 }, (_, i) => ({ layer: 0, angle: i * 0.05, tokens: 20 })),
    );
    const reads = new Set<number>();
    tree.nodes = tree.nodes.map((node) => {
      const text = node.text;
      return Object.defineProperty({ ...node }, 'text', {
        get: () => {
          reads.add(node.id);
          return text;
        },
      });
    });
    // Nodes rank by id; 100 tokens take five, the sixth is the misfit, nothing after it is looked at.
    expect(ids(tree, at(0), { mode: 'collapsed', maxTokens: 100 })).toEqual([0, 1, 2, 3, 4]);
    expect([...reads].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('follows a tree with new embeddings rather than reusing cached norms of another tree', () => {
    const before = ids(layered, at(0), { mode: 'collapsed', topK: 1 });
    const rotated = { ...layered, nodes: layered.nodes.map((n) => ({ ...n, embedding: at(90 - n.id * 5) })) };
    expect(before).toEqual([3]);
    expect(ids(rotated, at(0), { mode: 'collapsed', topK: 1 })).toEqual([8]);
    expect(ids(layered, at(0), { mode: 'collapsed', topK: 1 })).toEqual([3]);
  });
});

describe('tree traversal', () => {
  it('descends from the top layer through the children of the chosen nodes', () => {
    // Top-1: 7, then the better of its children {4, 5}, then the better of 4's {0, 1}; leaf 3 is never reached.
    expect(ids(layered, at(0), { mode: 'traversal', topK: 1 })).toEqual([7, 4, 0]);
    expect(ids(layered, at(0), { mode: 'traversal', topK: 2 })).toEqual([7, 8, 4, 5, 0, 1]);
  });

  it('deduplicates children shared by several chosen parents, in order of first appearance', () => {
    // 5 is a child of both 7 and 8, 1 of both 4 and 5: each is a candidate once.
    const result = retrieve(layered, at(0), { mode: 'traversal', topK: 3 });
    expect(result.nodes.map((n) => n.id)).toEqual([7, 8, 4, 5, 6, 3, 0, 1]);
    expect(result.nodes.map((n) => n.layer)).toEqual([2, 2, 1, 1, 1, 0, 0, 0]);
    expect(result.tokens).toBe(80);
  });

  it('uses 5 per layer by default', () => {
    const wide = makeTree([
      ...Array.from({ length: 8 }, (_, i) => ({ layer: 0, angle: 8 * i })),
      { layer: 1, angle: 0, children: [0, 1, 2, 3, 4, 5, 6, 7] },
    ]);
    expect(ids(wide, at(0), { mode: 'traversal' })).toEqual([8, 0, 1, 2, 3, 4]);
  });

  it('honours startLayer and numLayers', () => {
    expect(ids(layered, at(0), { mode: 'traversal', topK: 2, startLayer: 1 })).toEqual([4, 5, 0, 1]);
    expect(ids(layered, at(0), { mode: 'traversal', topK: 2, startLayer: 1, numLayers: 1 })).toEqual([4, 5]);
    expect(ids(layered, at(0), { mode: 'traversal', topK: 2, numLayers: 2 })).toEqual([7, 8, 4, 5]);
    expect(ids(layered, at(0), { mode: 'traversal', topK: 2, startLayer: 0 })).toEqual([3, 0]);
  });
});

describe('leaf retrieval', () => {
  it('never returns a summary, even when summaries score best', () => {
    const query = at(52);
    expect(ids(layered, query, { mode: 'collapsed', topK: 2 })).toEqual([5, 7]);
    const result = retrieve(layered, query, { mode: 'leaves' });
    expect(result.nodes.map((n) => n.id)).toEqual([2, 1, 0, 3]);
    expect(result.nodes.every((n) => n.layer === 0)).toBe(true);
    expect(ids(layered, query, { mode: 'leaves', maxTokens: 25 })).toEqual([2, 1]);
    expect(ids(layered, query, { mode: 'leaves', topK: 1 })).toEqual([2]);
  });
});

describe('context', () => {
  it('joins texts like the official get_text: line breaks become spaces, each text ends with a blank line', () => {
    expect(formatContext(['a\nb', 'a\r\nb\n', 'x\n\ny', '', '\n', 'end\n\n', 'tab\tkeep'])).toBe(
      'a b\n\na b\n\nx  y\n\n\n\n\n\nend \n\ntab\tkeep\n\n',
    );
    // Python's splitlines also breaks at \r, \v, \f, \x1c, NEL and the Unicode separators.
    expect(formatContext(['p\u2028q\x85r\x0bs\x0ct\x1cu\rv'])).toBe('p q r s t u v\n\n');
  });

  it('is built from the selected texts in selection order', () => {
    const tree = makeTree([
      { layer: 0, angle: 20, text: 'second\nline' },
      { layer: 0, angle: 0, text: 'first' },
    ]);
    expect(retrieve(tree, at(0), { mode: 'leaves' }).context).toBe('first\n\nsecond line\n\n');
  });
});

describe('option and input errors', () => {
  const cases: [string, ArrayLike<number>, RetrieveOptions, RetrievalErrorCode][] = [
    ['topK 0 (collapsed)', at(0), { mode: 'collapsed', topK: 0 }, 'INVALID_TOP_K'],
    ['topK 0 (traversal)', at(0), { mode: 'traversal', topK: 0 }, 'INVALID_TOP_K'],
    ['topK 1.5 (leaves)', at(0), { mode: 'leaves', topK: 1.5 }, 'INVALID_TOP_K'],
    ['maxTokens 0', at(0), { mode: 'collapsed', maxTokens: 0 }, 'INVALID_MAX_TOKENS'],
    ['maxTokens NaN', at(0), { mode: 'leaves', maxTokens: Number.NaN }, 'INVALID_MAX_TOKENS'],
    ['startLayer above the top', at(0), { mode: 'traversal', startLayer: 3 }, 'INVALID_START_LAYER'],
    ['a negative startLayer', at(0), { mode: 'traversal', startLayer: -1 }, 'INVALID_START_LAYER'],
    [
      'numLayers > startLayer + 1',
      at(0),
      { mode: 'traversal', startLayer: 1, numLayers: 3 },
      'INVALID_NUM_LAYERS',
    ],
    ['numLayers 0', at(0), { mode: 'traversal', numLayers: 0 }, 'INVALID_NUM_LAYERS'],
    ['a NaN in the query', [1, Number.NaN], { mode: 'collapsed' }, 'INVALID_QUERY'],
    ['an unknown mode', at(0), { mode: 'flat' } as unknown as RetrieveOptions, 'INVALID_MODE'],
  ];
  it.each(cases)('rejects %s', (_name, query, options, code) => {
    expect(() => retrieve(layered, query, options)).toThrow(RetrievalError);
    expect(() => retrieve(layered, query, options)).toThrow(expect.objectContaining({ code }));
  });

  it('names both dimensions on a mismatch', () => {
    expect(() => retrieve(layered, [1, 0, 0], { mode: 'collapsed' })).toThrow(DimensionError);
    expect(() => retrieve(layered, [1, 0, 0], { mode: 'collapsed' })).toThrow(
      "The query embedding has 3 dimensions but the tree's embeddings have 2.",
    );
  });

  it('names the node whose embedding has the wrong length', () => {
    const tree = makeTree([
      { layer: 0, angle: 0 },
      { layer: 0, angle: 10 },
    ]);
    tree.nodes[1].embedding = Float32Array.of(1, 0, 0);
    expect(() => retrieve(tree, at(0), { mode: 'leaves' })).toThrow(
      "Node 1 has an embedding of 3 dimensions but the tree's embeddings have 2.",
    );
  });

  it('names the allowed range for startLayer', () => {
    expect(() => retrieve(layered, at(0), { mode: 'traversal', startLayer: 3 })).toThrow(
      'startLayer must be an integer in [0, 2], got 3.',
    );
  });

  it('rejects a tree without nodes', () => {
    const empty = { ...layered, nodes: [] };
    expect(() => retrieve(empty, at(0), { mode: 'collapsed' })).toThrow(
      expect.objectContaining({ code: 'EMPTY_TREE' }),
    );
  });
});

describe('error messages and details (what the app shows and logs)', () => {
  const MAX = Number.MAX_SAFE_INTEGER;
  const cases: [string, ArrayLike<number>, RetrieveOptions, string, Record<string, unknown>][] = [
    [
      'topK 0',
      at(0),
      { mode: 'collapsed', topK: 0 },
      'topK must be an integer ≥ 1, got 0.',
      { topK: 0, min: 1, max: MAX },
    ],
    [
      'traversal topK 0',
      at(0),
      { mode: 'traversal', topK: 0 },
      'topK must be an integer ≥ 1, got 0.',
      { topK: 0, min: 1, max: MAX },
    ],
    [
      'maxTokens 0',
      at(0),
      { mode: 'leaves', maxTokens: 0 },
      'maxTokens must be an integer ≥ 1, got 0.',
      { maxTokens: 0, min: 1, max: MAX },
    ],
    [
      'startLayer 3',
      at(0),
      { mode: 'traversal', startLayer: 3 },
      'startLayer must be an integer in [0, 2], got 3.',
      { startLayer: 3, min: 0, max: 2 },
    ],
    [
      'numLayers 3 from layer 1',
      at(0),
      { mode: 'traversal', startLayer: 1, numLayers: 3 },
      'numLayers must be an integer in [1, 2], got 3.',
      { numLayers: 3, min: 1, max: 2 },
    ],
    [
      'a NaN in the query',
      [1, Number.NaN],
      { mode: 'collapsed' },
      'Query value 1 is NaN, not a finite number.',
      { index: 1 },
    ],
    [
      'an unknown mode',
      at(0),
      { mode: 'flat' } as unknown as RetrieveOptions,
      'Unknown retrieval mode "flat".',
      { mode: 'flat' },
    ],
  ];
  it.each(cases)('%s', (_name, query, options, message, details) => {
    let error: unknown;
    try {
      retrieve(layered, query, options);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RetrievalError);
    expect((error as RetrievalError).message).toBe(message);
    expect((error as RetrievalError).details).toEqual(details);
  });

  it('a tree without nodes, and both kinds of dimension mismatch, say so in words and numbers', () => {
    expect(() => retrieve({ ...layered, nodes: [] }, at(0), { mode: 'collapsed' })).toThrow(
      'The tree has no nodes.',
    );
    expect(() => retrieve(layered, [1, 0, 0], { mode: 'collapsed' })).toThrow(
      expect.objectContaining({ details: { query: 3, tree: 2 } }),
    );
    const tree = makeTree([
      { layer: 0, angle: 0 },
      { layer: 0, angle: 10 },
    ]);
    tree.nodes[1].embedding = Float32Array.of(1, 0, 0);
    expect(() => retrieve(tree, at(0), { mode: 'leaves' })).toThrow(
      expect.objectContaining({ details: { node: 1, length: 3, dim: 2 } }),
    );
  });
});

describe('the per-tree index follows the nodes array it was built for', () => {
  it('a node added to the same array is ranked on the next query', () => {
    const tree = makeTree([
      { layer: 0, angle: 40 },
      { layer: 0, angle: 20 },
    ]);
    expect(ids(tree, at(0), { mode: 'leaves' })).toEqual([1, 0]);
    tree.nodes.push({ id: 2, layer: 0, text: textOf(10), tokens: 10, children: [], embedding: at(1) });
    expect(ids(tree, at(0), { mode: 'leaves' })).toEqual([2, 1, 0]);
  });

  it('a tree that declares another dimension for the same nodes is checked again', () => {
    const tree = makeTree([
      { layer: 0, angle: 0 },
      { layer: 0, angle: 10 },
    ]);
    expect(ids(tree, at(0), { mode: 'collapsed' })).toEqual([0, 1]);
    const wider = { ...tree, embedding: { ...tree.embedding, dim: 3 } };
    expect(() => retrieve(wider, [1, 0, 0], { mode: 'collapsed' })).toThrow(
      "Node 0 has an embedding of 2 dimensions but the tree's embeddings have 3.",
    );
  });
});

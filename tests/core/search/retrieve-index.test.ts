/**
 * The per-tree index retrieval builds (src/core/search/retrieve.ts `treeIndex`): embeddings are read in place only
 * when they really are consecutive rows of one buffer, a node whose embedding has the wrong length is
 * reported as a DimensionError whatever the memory layout, `prepareRetrieval` reports it before any query,
 * and a tree without leaves gives the leaves mode nothing to choose. Expected rankings come from the same
 * tree with every embedding in its own fresh array (the plainest layout).
 */
import { describe, expect, it } from 'vitest';
import { DimensionError } from '../../../src/core/errors';
import { prepareRetrieval, retrieve } from '../../../src/core/search/retrieve';
import type { RaptorTree, TreeNode } from '../../../src/core/types';
import { treeOf } from '../../support/tree-of';

const DIM = 4;
const BYTES = DIM * Float32Array.BYTES_PER_ELEMENT;

/** Distinct directions, so every query below has one clear ranking. */
const ROWS = [
  [1, 0, 0, 0],
  [0, 1, 0, 0],
  [0, 0, 1, 0],
  [0, 0, 0, 1],
  [1, 1, 0, 0],
  [0, 1, 1, 0],
];

function tree(embeddings: Float32Array[], layers?: number[]): RaptorTree {
  const nodes: TreeNode[] = embeddings.map((embedding, id) => ({
    id,
    layer: layers?.[id] ?? 0,
    text: `node ${id}`,
    tokens: 2,
    children: [],
    embedding,
  }));
  return treeOf(nodes, { title: 'index' });
}

const ownArrays = () => ROWS.map((row) => Float32Array.from(row));
const rankedIds = (t: RaptorTree, query: number[]) =>
  retrieve(t, Float32Array.from(query), { mode: 'collapsed' }).nodes.map((n) => n.id);

describe('embeddings read in place only when they are consecutive rows of one buffer', () => {
  const queries = [
    [1, 0.2, 0, 0],
    [0, 0.1, 1, 0.3],
    [0.2, 0, 0, 1],
  ];

  it('rows at consecutive offsets of different buffers rank as their own arrays do', () => {
    // Row i sits at byte offset i × BYTES, as in one shared buffer, but each in a buffer of its own.
    const views = ROWS.map((row, i) => {
      const view = new Float32Array(new ArrayBuffer((i + 1) * BYTES), i * BYTES, DIM);
      view.set(row);
      return view;
    });
    for (const q of queries) expect(rankedIds(tree(views), q)).toEqual(rankedIds(tree(ownArrays()), q));
  });

  it('rows of one buffer in another order than the nodes rank as their own arrays do', () => {
    const flat = new Float32Array(ROWS.length * DIM);
    const slot = (id: number) => ROWS.length - 1 - id;
    const views = ROWS.map((row, id) => {
      flat.set(row, slot(id) * DIM);
      return flat.subarray(slot(id) * DIM, (slot(id) + 1) * DIM);
    });
    for (const q of queries) expect(rankedIds(tree(views), q)).toEqual(rankedIds(tree(ownArrays()), q));
  });
});

describe('a node whose embedding has the wrong length is a DimensionError, whatever the layout', () => {
  it('the only node, one float short, at the end of its buffer', () => {
    const t = tree([new Float32Array(DIM - 1)]);
    expect(() => retrieve(t, new Float32Array(DIM), { mode: 'collapsed' })).toThrow(DimensionError);
  });

  it('the last of consecutive views of one buffer, one float short where the buffer ends', () => {
    const flat = new Float32Array(ROWS.length * DIM - 1);
    const views = ROWS.map((_, i) => flat.subarray(i * DIM, Math.min((i + 1) * DIM, flat.length)));
    expect(views[views.length - 1].length).toBe(DIM - 1);
    expect(() => retrieve(tree(views), new Float32Array(DIM).fill(1), { mode: 'collapsed' })).toThrow(
      DimensionError,
    );
  });

  it('prepareRetrieval reports it before any query', () => {
    const embeddings = ownArrays();
    embeddings[2] = new Float32Array(DIM + 1);
    expect(() => prepareRetrieval(tree(embeddings))).toThrow(DimensionError);
  });
});

describe('the leaves mode', () => {
  it('selects nothing from a tree whose nodes are all summaries (no layer 0)', () => {
    const t = tree(ownArrays(), [1, 1, 1, 2, 2, 2]);
    const result = retrieve(t, Float32Array.from([1, 0, 0, 0]), { mode: 'leaves' });
    expect(result.nodes).toEqual([]);
    expect(result.tokens).toBe(0);
    // The same tree's collapsed mode does rank them: the empty answer is the layer's, not the query's.
    expect(retrieve(t, Float32Array.from([1, 0, 0, 0]), { mode: 'collapsed' }).nodes.length).toBe(6);
  });
});

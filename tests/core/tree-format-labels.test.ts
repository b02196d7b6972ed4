/**
 * Tree format v1's optional topic fields (docs/tree-format.md): `label` and `title` on summaries are written,
 * read back exactly and validated; a file without them (written before labels existed) still reads.
 */
import { describe, expect, it } from 'vitest';
import { parseTree, serializeTree, TREE_LIMITS, TreeFormatError } from '../../src/core/tree-format';
import { DEFAULT_BUILD_PARAMS } from '../../src/core/types';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- hostile inputs need free-form mutation
type Json = any;

function file(): Json {
  return {
    format: 'raptor-tree',
    version: 1,
    title: 'Labels',
    createdAt: '2024-05-01T10:00:00Z',
    embedding: { model: 'test/model', dim: 2 },
    summarizer: { kind: 'llm', model: 'm' },
    params: { ...DEFAULT_BUILD_PARAMS },
    documents: [{ id: 'd', name: 'd.txt', chars: 20 }],
    nodes: [
      { id: 0, layer: 0, text: 'Darcy rode.', tokens: 1, children: [], embedding: [1, 0] },
      { id: 1, layer: 0, text: 'Jane wrote.', tokens: 1, children: [], embedding: [0, 1] },
      {
        id: 2,
        layer: 1,
        text: 'Darcy rode; Jane wrote.',
        tokens: 1,
        children: [0, 1],
        embedding: [1, 1],
        label: ['Darcy', 'Jane', 'Mr. Darcy'],
        title: 'A ride and a letter',
      },
      { id: 3, layer: 1, text: 'Jane.', tokens: 1, children: [1], embedding: [0, 1], label: [] },
    ],
  };
}

function rejection(json: Json): TreeFormatError {
  try {
    parseTree(json);
  } catch (error) {
    if (error instanceof TreeFormatError) return error;
    throw error;
  }
  throw new Error('parseTree accepted the file');
}

describe('label and title in tree format v1', () => {
  it('round-trips labels (an empty one too) and titles, and writes none where a node has none', () => {
    const tree = parseTree(file());
    expect(tree.nodes[2].label).toEqual(['Darcy', 'Jane', 'Mr. Darcy']);
    expect(tree.nodes[2].title).toBe('A ride and a letter');
    expect(tree.nodes[3].label).toEqual([]);
    expect(tree.nodes[3].title).toBeUndefined();
    const text = serializeTree(tree);
    expect(parseTree(text)).toEqual(tree);
    const lines = text.split('\n');
    expect(lines.find((l) => l.startsWith('{"id":0'))).not.toMatch(/"label"|"title"/);
    expect(lines.find((l) => l.startsWith('{"id":2'))).toMatch(/"label":\["Darcy","Jane","Mr\. Darcy"\]/);
  });

  it('reads a file written before labels existed: no label, no title, nothing else changed', () => {
    const old = file();
    for (const node of old.nodes) {
      delete node.label;
      delete node.title;
    }
    const tree = parseTree(old);
    expect(tree.nodes.every((n) => n.label === undefined && n.title === undefined)).toBe(true);
    expect(tree.nodes[2].children).toEqual([0, 1]);
  });

  it.each([
    ['a label on a leaf', (j: Json) => (j.nodes[0].label = ['x']), 'nodes[0].label', /only summaries/],
    ['a title on a leaf', (j: Json) => (j.nodes[1].title = 'x'), 'nodes[1].title', /only summaries/],
    ['a label that is not an array', (j: Json) => (j.nodes[2].label = 'Darcy'), 'nodes[2].label', /array/],
    [
      'a term that is not a string',
      (j: Json) => (j.nodes[2].label = ['a', 3]),
      'nodes[2].label[1]',
      /string/,
    ],
    ['a blank term', (j: Json) => (j.nodes[2].label = ['a', '  ']), 'nodes[2].label[1]', /non-empty/],
    [
      'too many terms',
      (j: Json) => (j.nodes[2].label = Array.from({ length: TREE_LIMITS.maxLabelTerms + 1 }, () => 'a')),
      'nodes[2].label',
      /exceed the limit/,
    ],
    [
      'a term too long',
      (j: Json) => (j.nodes[2].label = ['x'.repeat(TREE_LIMITS.maxLabelChars + 1)]),
      'nodes[2].label[0]',
      /exceed the limit/,
    ],
    ['a title that is not a string', (j: Json) => (j.nodes[2].title = 5), 'nodes[2].title', /string/],
    [
      'a title too long',
      (j: Json) => (j.nodes[2].title = 'x'.repeat(TREE_LIMITS.maxLabelChars + 1)),
      'nodes[2].title',
      /exceed the limit/,
    ],
  ])('refuses %s, naming its path', (_, mutate, path, reason) => {
    const json = file();
    mutate(json);
    const error = rejection(json);
    expect(error.details.path).toBe(path);
    expect(error.message).toMatch(reason);
  });

  it('accepts a label of exactly the limits', () => {
    const json = file();
    json.nodes[2].label = Array.from({ length: TREE_LIMITS.maxLabelTerms }, () =>
      'x'.repeat(TREE_LIMITS.maxLabelChars),
    );
    expect(parseTree(json).nodes[2].label).toHaveLength(TREE_LIMITS.maxLabelTerms);
  });
});

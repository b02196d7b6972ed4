/**
 * How far across the text a selection reaches (src/app/tree/reach.ts) and where a passage sits as the answering
 * model reads it (src/app/ask/passage-place.ts), on a book of ten leaves in two documents.
 */
import { describe, expect, it } from 'vitest';
import { placedText, passagePlace } from '../../src/app/ask/passage-place';
import { ordinal } from '../../src/app/ask/PassageList';
import { kindsOf } from '../../src/app/eval/KindTable';
import { reachOf, reachText } from '../../src/app/tree/reach';
import type { ModeReport } from '../../src/core/eval';
import type { RaptorTree, TreeNode } from '../../src/core/types';
import { treeOf } from '../support/tree-of';

/** Leaves 0–7 of "a" (800 characters, 100 each), leaves 8–9 of "b" (200), a summary 10 over leaves 2–5. */
function book(): RaptorTree {
  const nodes: TreeNode[] = Array.from({ length: 10 }, (_, id) => ({
    id,
    layer: 0,
    text: id === 0 ? 'Chapter 1\n\nIt began.' : `Leaf ${id}.`,
    tokens: 1,
    children: [],
    embedding: Float32Array.of(1, 0),
    source:
      id < 8
        ? { doc: 'a', start: id * 100, end: id * 100 + 100 }
        : { doc: 'b', start: (id - 8) * 100, end: (id - 8) * 100 + 100 },
  }));
  nodes.push({
    id: 10,
    layer: 1,
    text: 'Summary.',
    tokens: 1,
    children: [2, 3, 4, 5],
    embedding: Float32Array.of(1, 0),
  });
  return {
    ...treeOf(nodes),
    documents: [
      { id: 'a', name: 'a.txt', chars: 800 },
      { id: 'b', name: 'b.txt', chars: 200 },
    ],
  };
}

const picked = (...ids: number[]) => ids.map((id) => ({ id, layer: id === 10 ? 1 : 0, score: 0 }));

describe('reachOf', () => {
  it('places leaves at points and summaries over their stretch, documents end to end by length', () => {
    const [reach] = reachOf(book(), { collapsed: picked(0, 10, 9) });
    expect(reach.marks.map((m) => [m.id, +m.from.toFixed(9), +m.to.toFixed(9), m.summary])).toEqual([
      [0, 0, 0.1, false],
      [10, 0.2, 0.6, true],
      [9, 0.9, 1, false],
    ]);
    expect(reach.span!.from).toBe(0);
    expect(reach.span!.to).toBeCloseTo(1, 9);
    // Tenths 0, 2–5 (the summary) and 9.
    expect(reach.parts).toBe(6);
    expect(reachText(reach)).toBe('3 passages from 0% to 100% of the text, in 6 of its 10 tenths');
  });

  it('tells a selection in one place from one across the text, and counts nodes with no place', () => {
    const t = book();
    const near = { ...t.nodes[3], id: 11, source: undefined };
    const tree = { ...t, nodes: [...t.nodes, near] };
    const reaches = reachOf(tree, { leaves: picked(3, 4, 11), traversal: [] });
    expect(reaches.map((r) => r.mode)).toEqual(['traversal', 'leaves']);
    expect(reachText(reaches[1])).toBe(
      '2 passages from 30% to 50% of the text, in 2 of its 10 tenths (1 with no place in the documents)',
    );
    expect(reachText(reaches[0])).toBe('No selected passage has a place in the documents.');
  });
});

describe('where a passage sits', () => {
  it('names the section and share, with the document in a tree of several, before the text the model reads', () => {
    const t = book();
    expect(passagePlace(t, 0)).toBe('a.txt · Chapter 1 · 0%');
    expect(placedText(t, { id: 1, text: 'Leaf 1.', excerpt: { text: 'Leaf' } })).toBe(
      '(a.txt · Chapter 1 · 13%) Leaf',
    );
    const alone = { ...t, documents: t.documents.slice(0, 1), nodes: t.nodes.slice(0, 8) };
    expect(passagePlace(alone, 1)).toBe('Chapter 1 · 13%');
    expect(placedText({ ...t, nodes: [{ ...t.nodes[0], source: undefined }] }, { id: 0, text: 'x' })).toBe(
      'x',
    );
  });

  it('writes the order a passage was chosen in', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '101st',
      '111th',
    ]);
  });
});

describe('kindsOf', () => {
  it('lists the kinds a run’s questions have, questions without one last', () => {
    const mode = (kinds: string[]) =>
      ({ byKind: Object.fromEntries(kinds.map((k) => [k, {}])) }) as unknown as ModeReport;
    expect(kindsOf([mode(['theme', '', 'fact']), mode(['arc'])])).toEqual(['arc', 'fact', 'theme', '']);
  });
});

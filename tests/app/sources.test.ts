import { describe, expect, it } from 'vitest';
import { splitCitations } from '../../src/app/ask/citations';
import { passagePath, placeOf, uncitedSentences } from '../../src/app/ask/sources';
import { noPagesReason, pageAt, pagesText } from '../../src/app/document/citation-text';
import { hierarchyOf } from '../../src/app/tree/hierarchy';
import { makeTree } from '../support/storage-fixture';

const uncited = (text: string) =>
  uncitedSentences(text, splitCitations(text, [10, 11, 12])).map(([a, b]) => text.slice(a, b));

describe('the sources of an answer', () => {
  it('marks exactly the sentences that cite nothing, a citation after the full stop counting for its sentence', () => {
    expect(uncited('Anne was sad [1]. Sir Walter was vain. [2] Bath was chosen. Nobody knew why.')).toEqual([
      'Bath was chosen.',
      'Nobody knew why.',
    ]);
    expect(uncited('All of it is cited [1][2]. And this [3].')).toEqual([]);
  });

  it('gives each passage its path from the root and, for a summary, the leaves it covers', () => {
    const tree = makeTree({ leaves: 8, branching: 4 });
    const parents = hierarchyOf(tree.nodes).primaryParent;
    const leaf = passagePath(tree.nodes, parents, 0);
    expect(leaf.ancestors).toHaveLength(2); // a layer-1 summary under the root
    expect(leaf.leaves).toBeUndefined();
    const root = tree.nodes.at(-1)!;
    expect(passagePath(tree.nodes, parents, root.id)).toEqual({ ancestors: [], leaves: 8 });
  });

  it('says where a passage is: the document, its pages and the share of the document before it', () => {
    const tree = makeTree({ leaves: 8, branching: 4 });
    const text = tree.nodes
      .filter((n) => n.layer === 0)
      .map((n) => n.text)
      .join('');
    const pageStarts = [Math.floor(text.length / 2)];
    const docs = [{ id: 'doc-0', name: 'notes.pdf', pageStarts }];
    expect(placeOf(tree, docs, 0)).toBe('notes.pdf, page 1 · 0%');
    expect(placeOf(tree, docs, tree.nodes.length - 1)).toBe('notes.pdf, pages 1–2 · 0–100%');
    expect(placeOf(tree, [{ id: 'doc-0', name: 'notes.txt' }], 0)).toBe('notes.txt · 0%');
    // An imported tree has no stored texts: the tree's own list names its documents.
    expect(placeOf(tree, [], 0)).toBe('notes.html · 0%');
  });
});

describe('what the Document tab says about a citation', () => {
  it('finds pages by offset', () => {
    expect([pageAt([10, 20], 0), pageAt([10, 20], 10), pageAt([10, 20], 25), pageAt(undefined, 3)]).toEqual([
      1,
      2,
      3,
      undefined,
    ]);
    expect(pagesText([10, 20], { start: 5, end: 15 })).toBe('pages 1–2');
    expect(pagesText([10, 20], { start: 12, end: 20 })).toBe('page 2');
  });

  it('says why a PDF opens in the text view, for each reason', () => {
    expect(noPagesReason('a.pdf', { kept: true, bytes: 1, layoutBytes: 1 }, 50e6)).toBeUndefined();
    expect(noPagesReason('a.pdf', undefined, 50e6)).toMatch(/built before Aerie kept original PDFs/);
    expect(noPagesReason('a.pdf', { kept: false, reason: 'too-large', bytes: 62e6 }, 50e6)).toMatch(
      /“a.pdf” \(62(\.0)? MB\) is larger than the 50(\.0)? MB Aerie keeps/,
    );
    expect(noPagesReason('a.pdf', { kept: false, reason: 'storage-full', bytes: 1 }, 50e6)).toMatch(
      /no room left/,
    );
    expect(noPagesReason('a.pdf', { kept: false, reason: 'not-in-file', bytes: 1 }, 50e6)).toMatch(
      /imported without/,
    );
    expect(noPagesReason('a.pdf', { kept: false, reason: 'mismatch', bytes: 1 }, 50e6)).toMatch(
      /^The PDF the imported tree file carried as “a.pdf” is not this document/,
    );
  });
});

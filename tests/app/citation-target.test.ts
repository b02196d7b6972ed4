import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildTree } from '../../src/core/build';
import { createExtractiveSummarizer } from '../../src/core/extractive';
import { citationTarget, mergeRanges } from '../../src/app/document/citation-target';
import { fakeEmbedding } from '../support/fake-embedder';

const TEXT = readFileSync(new URL('../fixtures/cinderella.txt', import.meta.url), 'utf8');

async function extractiveTree() {
  const embed = async (texts: string[]) => texts.map((t) => fakeEmbedding(t));
  return buildTree(
    { id: 'd1', name: 'cinderella.txt', text: TEXT },
    { embed, summarize: createExtractiveSummarizer(embed) },
    { summarizer: { kind: 'extractive' } },
  );
}

describe('the target of a citation', () => {
  it('a leaf is exactly its source range', async () => {
    const tree = await extractiveTree();
    const leaf = tree.nodes.find((n) => n.layer === 0)!;
    const target = citationTarget(tree, 1, leaf.id, () => TEXT);
    expect(target.kind).toBe('leaf');
    expect(target.ranges).toEqual([{ doc: 'd1', start: leaf.source!.start, end: leaf.source!.end }]);
    expect(TEXT.slice(target.ranges[0].start, target.ranges[0].end)).toBe(leaf.text);
  });

  it('a leaf the answer read only some sentences of is those sentences, runs apart', async () => {
    const tree = await extractiveTree();
    const { sentenceSpans } = await import('../../src/core/text');
    const leaf = tree.nodes.find((n) => n.layer === 0 && sentenceSpans(n.text).length >= 3)!;
    const spans = sentenceSpans(leaf.text);
    const piece = (i: number) => leaf.text.slice(spans[i].start, spans[i].end);
    // The first and the third sentence, as passages by sentence give them.
    const target = citationTarget(tree, 1, leaf.id, () => TEXT, `${piece(0)} … ${piece(2)}`);
    expect(target.kind).toBe('excerpt');
    expect(target.ranges.map((r) => TEXT.slice(r.start, r.end))).toEqual([piece(0), piece(2)]);
    // The whole leaf read: its whole range, as before.
    expect(citationTarget(tree, 1, leaf.id, () => TEXT, leaf.text).kind).toBe('leaf');
  });

  it('an extractive summary is the very sentences it copied, found in the document', async () => {
    const tree = await extractiveTree();
    const summaries = tree.nodes.filter((n) => n.layer > 0);
    expect(summaries.length).toBeGreaterThan(1);
    for (const summary of summaries) {
      const target = citationTarget(tree, 2, summary.id, () => TEXT);
      expect(target.kind).toBe('sentences');
      expect(target.unlocated).toBe(0);
      // The highlighted characters, whitespace collapsed, are the summary's text.
      const shown = target.ranges
        .map((r) => TEXT.slice(r.start, r.end).replace(/\s+/g, ' ').trim())
        .join(' ');
      expect(shown).toBe(summary.text.replace(/\s+/g, ' ').trim());
    }
  });

  it("an LLM's summary is the passages of the leaves under it, neighbours joined", async () => {
    const tree = { ...(await extractiveTree()), summarizer: { kind: 'llm' as const, model: 'm' } };
    const root = tree.nodes.at(-1)!;
    const target = citationTarget(tree, 3, root.id, () => TEXT);
    expect(target.kind).toBe('leaves');
    for (let i = 1; i < target.ranges.length; i++) {
      expect(target.ranges[i].start).toBeGreaterThan(target.ranges[i - 1].end);
      expect(TEXT.slice(target.ranges[i - 1].end, target.ranges[i].start)).toMatch(/\S/);
    }
  });

  it('ranges are merged across whitespace only, in document order', () => {
    const text = 'aaa bbb\n\nccc ddd';
    const merged = mergeRanges(
      [
        { doc: 'x', start: 9, end: 12 },
        { doc: 'x', start: 0, end: 3 },
        { doc: 'x', start: 4, end: 7 },
      ],
      ['x'],
      () => text,
    );
    expect(merged).toEqual([{ doc: 'x', start: 0, end: 12 }]);
    // Words between two ranges keep them apart.
    expect(
      mergeRanges(
        [
          { doc: 'x', start: 0, end: 3 },
          { doc: 'x', start: 9, end: 12 },
        ],
        ['x'],
        () => text,
      ),
    ).toHaveLength(2);
  });
});

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildTree, BuildError, type BuildProgress } from '../../src/core/build';
import { createExtractiveSummarizer } from '../../src/core/extractive';
import { countTokens } from '../../src/core/text/tokens';
import type { RaptorTree, SummarizeFn } from '../../src/core/types';
import { createFakeEmbedder } from '../support/fake-embedder';

const cinderella = readFileSync(new URL('../fixtures/cinderella.txt', import.meta.url), 'utf8');

/** A FAKE summariser: the first words of each text, within the budget; records every call. */
function fakeSummarizer(): SummarizeFn & { calls: string[][]; maxInFlight: number } {
  let inFlight = 0;
  const fn = (async (texts: string[], { maxTokens }: { maxTokens: number }) => {
    fn.calls.push(texts);
    inFlight++;
    fn.maxInFlight = Math.max(fn.maxInFlight, inFlight);
    await new Promise((r) => setTimeout(r, 1));
    inFlight--;
    const words = texts.map((t) => t.split(/\s+/).slice(0, 6).join(' ')).join(' ');
    return words
      .split(' ')
      .slice(0, Math.max(1, Math.floor(maxTokens / 2)))
      .join(' ');
  }) as SummarizeFn & { calls: string[][]; maxInFlight: number };
  fn.calls = [];
  fn.maxInFlight = 0;
  return fn;
}

function checkStructure(tree: RaptorTree) {
  tree.nodes.forEach((node, i) => {
    expect(node.id).toBe(i);
    expect(node.embedding.length).toBe(tree.embedding.dim);
    expect(node.tokens).toBe(countTokens(node.text));
    if (node.layer === 0) {
      expect(node.children).toEqual([]);
      expect(node.source).toBeDefined();
    } else {
      expect(node.children.length).toBeGreaterThan(0);
      for (const c of node.children) expect(tree.nodes[c].layer).toBe(node.layer - 1);
    }
  });
  // Every node below the top layer has a parent.
  const top = Math.max(...tree.nodes.map((n) => n.layer));
  const hasParent = new Set(tree.nodes.flatMap((n) => n.children));
  for (const n of tree.nodes) if (n.layer < top) expect(hasParent.has(n.id)).toBe(true);
}

describe('buildTree with a fake embedder', () => {
  it('never embeds or summarises a chunk with no visible text, and refuses documents of only such text', async () => {
    const embed = createFakeEmbedder(16);
    const embedded: string[] = [];
    const summarize = fakeSummarizer();
    const invisible = '\u200b\u200c\u200d\u2060\u200e'.repeat(400);
    const text = `${cinderella.slice(0, 3000)}\n\n${invisible}\n\n${cinderella.slice(3000, 6000)}`;
    const tree = await buildTree(
      text,
      {
        embed: (texts, options) => {
          embedded.push(...texts);
          return embed(texts, options);
        },
        summarize,
      },
      { chunkTokens: 40 },
    );
    const visible = /[\p{L}\p{N}\p{P}\p{S}]/u;
    expect(tree.nodes.filter((n) => n.layer === 0).every((n) => visible.test(n.text))).toBe(true);
    expect(embedded.every((t) => visible.test(t))).toBe(true);
    expect(summarize.calls.flat().every((t) => visible.test(t))).toBe(true);
    // The invisible stretch was chunked (it is not whitespace) but left out.
    const covered = tree.nodes.filter((n) => n.layer === 0).map((n) => n.source!);
    expect(covered.some((s) => s.start < 3000 + 2 + invisible.length && s.end > 3002)).toBe(false);

    const error = await buildTree(invisible, { embed, summarize }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BuildError);
    expect(error).toMatchObject({ code: 'EMPTY_INPUT', message: expect.stringMatching(/no visible text/) });
  });

  it('builds a valid tree of the Cinderella text with the extractive summariser', async () => {
    const embed = createFakeEmbedder(64);
    const events: BuildProgress[] = [];
    const tree = await buildTree(
      cinderella,
      { embed, summarize: createExtractiveSummarizer(embed) },
      { seed: 224, createdAt: '2026-01-01T00:00:00Z' },
      (e) => events.push(e),
    );
    checkStructure(tree);
    const leaves = tree.nodes.filter((n) => n.layer === 0);
    expect(leaves.length).toBeGreaterThan(25);
    for (const leaf of leaves) {
      expect(leaf.tokens).toBeLessThanOrEqual(100);
      expect(cinderella.slice(leaf.source!.start, leaf.source!.end)).toBe(leaf.text);
    }
    const summaries = tree.nodes.filter((n) => n.layer > 0);
    expect(summaries.length).toBeGreaterThan(0);
    for (const s of summaries) expect(s.tokens).toBeLessThanOrEqual(100);
    const top = Math.max(...tree.nodes.map((n) => n.layer));
    expect(tree.nodes.filter((n) => n.layer === top).length).toBeLessThanOrEqual(11);
    expect(events.at(-1)).toMatchObject({ stage: 'done', nodes: tree.nodes.length });
    expect(events.map((e) => e.stage)).toContain('embed-leaves');
    for (const e of events) if ('done' in e && 'total' in e) expect(e.done).toBeLessThanOrEqual(e.total);
  });

  it('gives the same tree for the same seed', async () => {
    const run = () => {
      const embed = createFakeEmbedder(32);
      return buildTree(cinderella, { embed, summarize: fakeSummarizer() }, { seed: 7, createdAt: 'x' });
    };
    const [a, b] = await Promise.all([run(), run()]);
    expect(a.nodes.map((n) => [n.text, n.children])).toEqual(b.nodes.map((n) => [n.text, n.children]));
  });

  it('bounds summary calls in flight by the concurrency option', async () => {
    const summarize = fakeSummarizer();
    await buildTree(cinderella, { embed: createFakeEmbedder(32), summarize }, { concurrency: 2 });
    expect(summarize.calls.length).toBeGreaterThan(2);
    expect(summarize.maxInFlight).toBeLessThanOrEqual(2);
  });

  it('keeps a tiny document usable: leaves and one root summary', async () => {
    const summarize = fakeSummarizer();
    const text = 'The prince searched the kingdom. He found the girl. The slipper fit her foot.';
    const tree = await buildTree(text, { embed: createFakeEmbedder(16), summarize }, { chunkTokens: 8 });
    checkStructure(tree);
    const leaves = tree.nodes.filter((n) => n.layer === 0);
    expect(leaves.length).toBe(3);
    expect(tree.nodes.length).toBe(4);
    expect(tree.nodes[3].children).toEqual([0, 1, 2]);
  });

  it('makes a one-leaf tree from a one-sentence document without summarising', async () => {
    const summarize = fakeSummarizer();
    const tree = await buildTree('Just one sentence.', { embed: createFakeEmbedder(16), summarize });
    expect(tree.nodes.length).toBe(1);
    expect(summarize.calls.length).toBe(0);
  });

  it('rejects empty and whitespace-only input with EMPTY_INPUT', async () => {
    const models = { embed: createFakeEmbedder(8), summarize: fakeSummarizer() };
    await expect(buildTree('', models)).rejects.toMatchObject({ code: 'EMPTY_INPUT' });
    await expect(buildTree(' \n\t ', models)).rejects.toBeInstanceOf(BuildError);
  });

  it('keeps each leaf with its document when several documents share a tree', async () => {
    const embed = createFakeEmbedder(16);
    const docs = [
      { id: 'a', name: 'a.txt', text: cinderella.slice(0, 3000) },
      { id: 'b', name: 'b.txt', text: cinderella.slice(3000, 6000) },
    ];
    const tree = await buildTree(docs, { embed, summarize: fakeSummarizer() });
    expect(tree.documents.map((d) => d.id)).toEqual(['a', 'b']);
    for (const leaf of tree.nodes.filter((n) => n.layer === 0)) {
      const doc = docs.find((d) => d.id === leaf.source!.doc)!;
      expect(doc.text.slice(leaf.source!.start, leaf.source!.end)).toBe(leaf.text);
    }
    expect(new Set(tree.nodes.filter((n) => n.layer === 0).map((n) => n.source!.doc))).toEqual(
      new Set(['a', 'b']),
    );
  });

  it('never stores a failed or empty summary', async () => {
    const embed = createFakeEmbedder(16);
    const failing: SummarizeFn = async () => {
      throw new Error('endpoint down');
    };
    await expect(buildTree(cinderella, { embed, summarize: failing })).rejects.toThrow('endpoint down');
    const empty: SummarizeFn = async () => '   ';
    await expect(buildTree(cinderella, { embed, summarize: empty })).rejects.toMatchObject({
      code: 'EMPTY_SUMMARY',
    });
  });

  it('rejects a broken embedder output', async () => {
    const bad = async (texts: string[]) => texts.map((_, i) => new Float32Array(i === 1 ? 3 : 4));
    await expect(buildTree(cinderella, { embed: bad, summarize: fakeSummarizer() })).rejects.toMatchObject({
      code: 'BAD_EMBEDDING',
    });
  });

  it('stops promptly when aborted and makes no further model calls', async () => {
    const controller = new AbortController();
    const summarize = fakeSummarizer();
    const embed = createFakeEmbedder(16);
    const slowSummarize: SummarizeFn = async (texts, opts) => {
      if (summarize.calls.length === 1) controller.abort();
      return summarize(texts, opts);
    };
    await expect(
      buildTree(
        cinderella,
        { embed, summarize: slowSummarize },
        { signal: controller.signal, concurrency: 1 },
      ),
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(summarize.calls.length).toBeLessThanOrEqual(2);
  });

  it('validates parameters', async () => {
    const models = { embed: createFakeEmbedder(8), summarize: fakeSummarizer() };
    await expect(buildTree('Hi.', models, { chunkTokens: 0 })).rejects.toMatchObject({
      code: 'INVALID_PARAM',
    });
    await expect(buildTree('Hi.', models, { clusterThreshold: 1.5 })).rejects.toMatchObject({
      code: 'INVALID_PARAM',
    });
  });
});

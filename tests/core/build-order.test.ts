/**
 * The order buildTree embeds texts in: longest first by the embedder's own token counts (or cl100k counts
 * without them), in calls of EMBED_BATCH, each vector back on its own node. FAKE models: an embedder whose
 * vector spells out its text's index, and a summariser that returns a text of a given length.
 */
import { describe, expect, it } from 'vitest';
import { buildTree, EMBED_BATCH, embeddingOrder } from '../../src/core/build';
import { countTokens } from '../../src/core/tokens';
import type { EmbedFn, SummarizeFn } from '../../src/core/types';

/** Paragraphs of 1 … 12 words (word i of paragraph p is "wP"), in a scrambled order of lengths. */
function paragraphs(count: number): string[] {
  return Array.from({ length: count }, (_, p) => {
    const words = 1 + ((p * 7) % 12);
    return `${Array.from({ length: words }, () => `w${p}`).join(' ')}.`;
  });
}

/** A FAKE embedder: the vector of "wP wP …" is (P, words), so a node's vector says which text it was given. */
function recordingEmbedder() {
  const calls: string[][] = [];
  const fn: EmbedFn = async (texts) => {
    calls.push(texts);
    return texts.map((t) => Float32Array.of(Number(/w(\d+)/.exec(t)?.[1] ?? -1) + 1, t.split(' ').length));
  };
  return Object.assign(fn, { calls });
}

const summarize: SummarizeFn = async (texts) => `summary of ${texts.length}.`;

describe('buildTree embeds texts of similar length together (FAKE models)', () => {
  it('embeddingOrder: longest first, ties in text order', () => {
    expect(embeddingOrder([3, 9, 3, 1, 9])).toEqual([1, 4, 0, 2, 3]);
    expect(embeddingOrder([])).toEqual([]);
  });

  it('orders the leaves by the embedder’s token counts, in calls of EMBED_BATCH, and keeps each vector on its leaf', async () => {
    const texts = paragraphs(7 * EMBED_BATCH);
    const embed = recordingEmbedder();
    // The embedder's own counts: here the reverse of the words' order, so they are visibly what decides.
    const counted: string[][] = [];
    const embedLengths = async (batch: string[]) => {
      counted.push(batch);
      return batch.map((t) => 100 - t.split(' ').length);
    };
    const tree = await buildTree(
      texts.join('\n\n'),
      { embed, summarize, embedLengths },
      { chunkTokens: 40, maxLayers: 0 },
    );
    const leaves = tree.nodes.length;
    expect(leaves).toBeGreaterThan(2 * EMBED_BATCH);
    expect(counted).toEqual([tree.nodes.map((n) => n.text)]);
    const sizes = embed.calls.map((c) => c.length);
    expect(sizes.slice(0, -1).every((n) => n === EMBED_BATCH)).toBe(true);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(leaves);
    const words = embed.calls.flat().map((t) => t.split(' ').length);
    // Shortest first (the counts are reversed).
    expect(words).toEqual([...words].sort((a, b) => a - b));
    for (const node of tree.nodes) {
      const p = Number(/w(\d+)/.exec(node.text)![1]);
      expect(Array.from(node.embedding)).toEqual([p + 1, node.text.split(' ').length]);
    }
  });

  it('without the embedder’s counts, orders by cl100k tokens, longest first', async () => {
    const texts = paragraphs(40);
    const embed = recordingEmbedder();
    await buildTree(texts.join('\n\n'), { embed, summarize }, { chunkTokens: 40, maxLayers: 0 });
    const tokens = embed.calls.flat().map((t) => countTokens(t));
    expect(tokens).toEqual([...tokens].sort((a, b) => b - a));
  });

  it('counts that do not fit the texts (wrong number, not numbers) fall back to cl100k tokens', async () => {
    for (const bad of [async () => [1, 2], async (t: string[]) => t.map(() => NaN)]) {
      const texts = paragraphs(30);
      const embed = recordingEmbedder();
      await buildTree(
        texts.join('\n\n'),
        { embed, summarize, embedLengths: bad },
        { chunkTokens: 40, maxLayers: 0 },
      );
      const tokens = embed.calls.flat().map((t) => countTokens(t));
      expect(tokens).toEqual([...tokens].sort((a, b) => b - a));
    }
  });

  it('orders the summaries of a layer the same way, each vector on its summary', async () => {
    const texts = paragraphs(30);
    const embed = recordingEmbedder();
    const lengthsAsked: number[] = [];
    const embedLengths = async (batch: string[]) => {
      lengthsAsked.push(batch.length);
      return batch.map((t) => t.length);
    };
    // Summaries of different lengths: "wK" repeated by the cluster's size.
    let next = 100;
    const varied: SummarizeFn = async (children) =>
      `${Array.from({ length: children.length }, () => `w${next}`).join(' ')}${next++ && '.'}`;
    const tree = await buildTree(
      texts.join('\n\n'),
      { embed, summarize: varied, embedLengths },
      { chunkTokens: 40, maxLayers: 1, reductionDim: 2 },
    );
    const summaries = tree.nodes.filter((n) => n.layer === 1);
    expect(summaries.length).toBeGreaterThan(1);
    expect(lengthsAsked).toEqual([tree.nodes.filter((n) => n.layer === 0).length, summaries.length]);
    const call = embed.calls.at(-1)!;
    expect(call).toHaveLength(summaries.length);
    const lengths = call.map((t) => t.length);
    expect(lengths).toEqual([...lengths].sort((a, b) => b - a));
    for (const node of summaries) {
      expect(node.embedding[0]).toBe(Number(/w(\d+)/.exec(node.text)![1]) + 1);
    }
  });
});

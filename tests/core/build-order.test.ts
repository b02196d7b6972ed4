/**
 * The order buildTree embeds texts in: longest first by the embedder's own token counts (or cl100k counts
 * without them), in calls of EMBED_BATCH, each vector back on its own node. FAKE models: an embedder whose
 * vector spells out its text's index, and a summariser that returns a text of a given length.
 */
import { describe, expect, it } from 'vitest';
import {
  buildTree,
  EMBED_BATCH,
  embeddingOrder,
  summarizeAndEmbed,
  type BuildProgress,
} from '../../src/core/build';
import { countTokens } from '../../src/core/text/tokens';
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

  it('embeds the summaries in cluster order, each vector on its summary; counts only the leaves', async () => {
    const texts = paragraphs(30);
    const embed = recordingEmbedder();
    const lengthsAsked: number[] = [];
    const embedLengths = async (batch: string[]) => {
      lengthsAsked.push(batch.length);
      return batch.map((t) => t.length);
    };
    let next = 100;
    const varied: SummarizeFn = async (children) =>
      `${Array.from({ length: children.length }, () => `w${next}`).join(' ')}${next++ && '.'}`;
    const tree = await buildTree(
      texts.join('\n\n'),
      { embed, summarize: varied, embedLengths },
      { chunkTokens: 40, maxLayers: 1, reductionDim: 2, concurrency: 1 },
    );
    const summaries = tree.nodes.filter((n) => n.layer === 1);
    expect(summaries.length).toBeGreaterThan(1);
    expect(lengthsAsked).toEqual([tree.nodes.filter((n) => n.layer === 0).length]);
    expect(embed.calls.at(-1)).toEqual(summaries.map((n) => n.text));
    for (const node of summaries) {
      expect(node.embedding[0]).toBe(Number(/w(\d+)/.exec(node.text)![1]) + 1);
    }
  });
});

describe('summarizeAndEmbed: summaries embedded while the rest are written (FAKE models)', () => {
  const clusters = (count: number) => Array.from({ length: count }, (_, c) => [`text ${c}`]);
  const dim = 2;

  it('sends each call of EMBED_BATCH summaries, in cluster order, as soon as its summaries exist', async () => {
    const count = 2 * EMBED_BATCH + 7;
    const embed = recordingEmbedder();
    let firstCall!: () => void;
    const embedderStarted = new Promise<void>((resolve) => (firstCall = resolve));
    const calls: string[][] = [];
    const watching: EmbedFn = async (texts, options) => {
      calls.push(texts);
      firstCall();
      return embed(texts, options);
    };
    // The summaries after the first call's wait until the embedder has that call: only streaming finishes.
    const summarize: SummarizeFn = async ([text]) => {
      const c = Number(text.split(' ')[1]);
      if (c >= EMBED_BATCH) await embedderStarted;
      return `w${c} summary.`;
    };
    const events: BuildProgress[] = [];
    const result = await summarizeAndEmbed(
      { embed: watching, summarize },
      clusters(count),
      1,
      dim,
      { maxTokens: 100, concurrency: 3 },
      (p) => events.push(p),
    );
    expect(calls.map((c) => c.length)).toEqual([EMBED_BATCH, EMBED_BATCH, 7]);
    expect(calls.flat()).toEqual(result.summaries);
    result.vectors.forEach((v, c) => expect(v[0]).toBe(c + 1));
    expect(result.summaryTokens).toEqual(result.summaries.map((t) => countTokens(t)));
    // Progress: summarising to the end, then the embedding, starting from what was done meanwhile.
    const stages = events.map((e) => e.stage);
    const firstEmbed = stages.indexOf('embed-summaries');
    expect(stages.lastIndexOf('summarize')).toBeLessThan(firstEmbed);
    const embedDone = events.slice(firstEmbed).map((e) => (e as { done: number }).done);
    expect(embedDone[0]).toBeGreaterThanOrEqual(EMBED_BATCH);
    expect(embedDone.at(-1)).toBe(count);
  });

  it('a failing summary fails the layer, and the embedder is not sent the call it belongs to', async () => {
    const embed = recordingEmbedder();
    const summarize: SummarizeFn = async ([text]) => {
      const c = Number(text.split(' ')[1]);
      if (c === EMBED_BATCH + 3) throw new Error('LLM down');
      return `w${c}.`;
    };
    await expect(
      summarizeAndEmbed({ embed, summarize }, clusters(2 * EMBED_BATCH), 1, dim, {
        maxTokens: 100,
        concurrency: 2,
      }),
    ).rejects.toThrow('LLM down');
    expect(embed.calls.every((call) => call.length === EMBED_BATCH)).toBe(true);
    expect(embed.calls.flat().some((t) => t.startsWith(`w${EMBED_BATCH + 3}`))).toBe(false);
  });

  it('a failing embedder stops the summaries: no summary is asked for after it failed', async () => {
    let asked = 0;
    let failedAt = -1;
    const summarize: SummarizeFn = async ([text]) => {
      asked++;
      await new Promise((resolve) => setTimeout(resolve, 1));
      return `${text}.`;
    };
    const embed: EmbedFn = async () => {
      failedAt = asked;
      throw new Error('embedder crashed');
    };
    await expect(
      summarizeAndEmbed({ embed, summarize }, clusters(4 * EMBED_BATCH), 1, dim, {
        maxTokens: 100,
        concurrency: 2,
      }),
    ).rejects.toThrow('embedder crashed');
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The two summaries already running when it failed may finish; none starts after.
    expect(asked).toBeLessThanOrEqual(failedAt + 2);
    expect(asked).toBeLessThan(4 * EMBED_BATCH);
  });
});

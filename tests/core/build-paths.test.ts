/**
 * buildTree on a handful of leaves: the paths build-contract.test.ts leaves open (the embedder's options and
 * batches, a null vector, whitespace-only input and summaries, the layer-size rules, maxClusters, cluster
 * progress). FAKE models: a hashed bag-of-words embedder and a summariser that records its calls.
 */
import { describe, expect, it } from 'vitest';
import { buildTree, EMBED_BATCH, type BuildProgress } from '../../src/core/build';
import type { EmbedFn, SummarizeFn } from '../../src/core/types';
import { createFakeEmbedder } from '../support/fake-embedder';

/** A FAKE summariser: "summary of N" (or a given reply); records the texts of every call. */
function recordingSummarizer(reply?: (texts: string[]) => unknown) {
  const calls: string[][] = [];
  const fn: SummarizeFn = async (texts) => {
    calls.push(texts);
    return (reply ? reply(texts) : `summary of ${texts.length}`) as string;
  };
  return Object.assign(fn, { calls });
}

/** `count` one-sentence paragraphs, each of its own words (so each is one leaf at chunkTokens 8). */
const WORDS = ['apple', 'river', 'stone', 'cloud', 'music', 'tiger', 'paper', 'glass', 'honey', 'storm'];
const sentences = (count: number) =>
  Array.from({ length: count }, (_, i) => `${WORDS[i % 10]} ${WORDS[(i * 3 + 1) % 10]} number ${i}.`).join(
    '\n\n',
  );

describe('buildTree paths on a few leaves (FAKE models)', () => {
  it('names a seed that is not a number', async () => {
    await expect(
      buildTree(
        'Hello there.',
        { embed: createFakeEmbedder(8), summarize: recordingSummarizer() },
        { seed: NaN },
      ),
    ).rejects.toMatchObject({
      code: 'INVALID_PARAM',
      message: 'seed must be a number.',
      details: { seed: NaN },
    });
  });

  it(`a multiple of ${EMBED_BATCH} leaves takes exactly that many batches, each given the build's signal`, async () => {
    const seen: unknown[] = [];
    const sizes: number[] = [];
    const signal = { aborted: false };
    const embed: EmbedFn = async (texts, options) => {
      seen.push(options?.signal);
      sizes.push(texts.length);
      return texts.map(() => Float32Array.of(1, 0));
    };
    const tree = await buildTree(
      sentences(2 * EMBED_BATCH),
      { embed, summarize: recordingSummarizer() },
      { chunkTokens: 8, maxLayers: 0, signal },
    );
    expect(tree.nodes).toHaveLength(2 * EMBED_BATCH);
    expect(sizes).toEqual([EMBED_BATCH, EMBED_BATCH]);
    expect(seen).toEqual([signal, signal]);
  });

  it('a null vector is a BAD_EMBEDDING (not a TypeError), first or later in a batch', async () => {
    for (const [nullAt, expected] of [
      [0, undefined],
      [1, 2],
    ] as const) {
      const embed = (async (texts: string[]) =>
        texts.map((_, i) => (i === nullAt ? null : Float32Array.of(1, 0)))) as unknown as EmbedFn;
      await expect(
        buildTree(sentences(3), { embed, summarize: recordingSummarizer() }, { chunkTokens: 8 }),
      ).rejects.toMatchObject({
        code: 'BAD_EMBEDDING',
        message: `The embedder returned an invalid vector (length undefined, expected ${expected}).`,
        details: { expected, actual: undefined },
      });
    }
  });

  it('whitespace-only documents are EMPTY_INPUT', async () => {
    const embed = createFakeEmbedder(8);
    await expect(buildTree(' \n\n \t ', { embed, summarize: recordingSummarizer() })).rejects.toMatchObject({
      code: 'EMPTY_INPUT',
      message: 'The documents contain no visible text to build a tree from.',
      details: { documents: 1 },
    });
    expect(embed.calls).toEqual([]);
  });

  it('a whitespace-only summary is EMPTY_SUMMARY', async () => {
    await expect(
      buildTree(
        sentences(3),
        { embed: createFakeEmbedder(8), summarize: recordingSummarizer(() => ' \n ') },
        {
          chunkTokens: 8,
        },
      ),
    ).rejects.toMatchObject({ code: 'EMPTY_SUMMARY' });
  });

  it('one leaf gets no summary; two leaves get one root over both', async () => {
    const one = recordingSummarizer();
    expect(
      (await buildTree(sentences(1), { embed: createFakeEmbedder(8), summarize: one })).nodes,
    ).toHaveLength(1);
    expect(one.calls).toEqual([]);
    const two = recordingSummarizer();
    const tree = await buildTree(
      sentences(2),
      { embed: createFakeEmbedder(8), summarize: two },
      { chunkTokens: 8 },
    );
    expect(two.calls).toHaveLength(1);
    expect(tree.nodes[2]).toMatchObject({ layer: 1, children: [0, 1] });
  });

  it('a layer of d + 1 nodes is not clustered (the paper’s stop rule): one root, no clustering reported', async () => {
    const events: BuildProgress[] = [];
    const summarize = recordingSummarizer();
    const tree = await buildTree(
      sentences(3),
      { embed: createFakeEmbedder(8), summarize },
      { chunkTokens: 8, reductionDim: 2 },
      (e) => events.push(e),
    );
    expect(events.some((e) => e.stage === 'cluster')).toBe(false);
    expect(tree.nodes[3]).toMatchObject({ layer: 1, children: [0, 1, 2] });
  });

  it('maxClusters 1 reaches the clustering: one component, so one cluster of every leaf', async () => {
    const events: BuildProgress[] = [];
    const summarize = recordingSummarizer();
    await buildTree(
      sentences(16),
      { embed: createFakeEmbedder(8), summarize },
      { chunkTokens: 8, reductionDim: 2, maxClusters: 1, maxLayers: 1 },
      (e) => events.push(e),
    );
    expect(summarize.calls).toHaveLength(1);
    expect(summarize.calls[0]).toHaveLength(16);
    // The clustering's own progress is passed on, under the layer it builds.
    const details = events.filter((e) => e.stage === 'cluster' && 'detail' in e);
    expect(details.length).toBeGreaterThan(0);
    expect(details.every((e) => e.stage === 'cluster' && e.layer === 1)).toBe(true);
  });
});

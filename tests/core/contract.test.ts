/**
 * The public contract of src/core (issue #2): every name external checks call is exported from the barrel
 * and behaves as documented on a small input.
 */
import { describe, expect, it } from 'vitest';
import * as core from '../../src/core';
import { blobs, createFakeEmbedder } from '../support/fake-embedder';

describe('src/core barrel', () => {
  it('exports the contract names as functions', () => {
    for (const name of [
      'countTokens',
      'chunkText',
      'fitGmm',
      'selectClusterCount',
      'clusterNodes',
      'buildTree',
      'retrieve',
      'serializeTree',
      'parseTree',
    ] as const) {
      expect(typeof core[name]).toBe('function');
    }
  });

  it('runs the whole method end to end through the barrel (fake embedder)', async () => {
    expect(core.countTokens('hello world')).toBe(2);
    const text = Array.from(
      { length: 40 },
      (_, i) => `Sentence number ${i} talks about topic ${i % 4}.`,
    ).join(' ');
    const chunks = core.chunkText(text, { maxTokens: 30 });
    expect(chunks.every((c) => c.tokens <= 30 && text.slice(c.start, c.end) === c.text)).toBe(true);

    // Well separated: centres ~N(0, 1) per axis, spread 0.03 (about 30 standard deviations apart).
    const { vectors } = blobs(3, 20, 10, 0.03, 5);
    const gmm = core.fitGmm(vectors, 3, { seed: 1 });
    expect(gmm.weights.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10);
    expect(gmm.predictProba(vectors)[0].length).toBe(3);
    expect(core.selectClusterCount(vectors, { seed: 1 }).k).toBe(3);

    const embed = createFakeEmbedder(32);
    const tree = await core.buildTree(
      text,
      { embed, summarize: core.createExtractiveSummarizer(embed) },
      { chunkTokens: 30 },
    );
    const parsed = core.parseTree(core.serializeTree(tree));
    expect(parsed.nodes.length).toBe(tree.nodes.length);
    const query = (await embed(['topic 2']))[0];
    for (const mode of ['collapsed', 'traversal', 'leaves'] as const) {
      const result = core.retrieve(parsed, query, { mode });
      expect(result.nodes.length).toBeGreaterThan(0);
      expect(result.context.length).toBeGreaterThan(0);
    }
  });
});

/**
 * buildTree over several layers on a small input (about twenty leaves on four topics, a 2-d reduction):
 * the structure every RAPTOR tree must have, checked node by node — each parent summarises exactly its
 * children's texts, in order, with the summary budget; every node of a layer has a parent in the next; at most
 * `concurrency` summaries are in flight; the stop is the one the layer sizes call for. FAKE models (a hashed
 * bag-of-words embedder, a summariser that joins the first word of each text). Quick enough for the mutation
 * run, which leaves out build.test.ts's whole-document builds (vitest.mutate.config.ts).
 */
import { describe, expect, it } from 'vitest';
import { buildTree, type BuildProgress } from '../../src/core/build';
import { chunkText } from '../../src/core/text/chunk';
import { countTokens } from '../../src/core/text/tokens';
import type { RaptorTree, SummarizeFn } from '../../src/core/types';
import { createFakeEmbedder, fakeEmbedding } from '../support/fake-embedder';

const TOPICS = [
  ['slipper', 'glass', 'dance', 'prince', 'ball'],
  ['pumpkin', 'coach', 'mice', 'horses', 'midnight'],
  ['stepmother', 'sisters', 'ashes', 'kitchen', 'chores'],
  ['hazel', 'tree', 'grave', 'birds', 'branch'],
];
/** 24 one-sentence paragraphs, six per topic, interleaved (so topic ≠ document order). */
const TEXT = Array.from({ length: 24 }, (_, i) => {
  const words = TOPICS[i % 4];
  return `${words[i % 5]} ${words[(i + 1) % 5]} ${words[(i + 2) % 5]}.`;
}).join('\n\n');
/** The leaves: the chunks of 8 tokens (one or two sentences each). */
const LEAVES = chunkText(TEXT, { maxTokens: 8 }).map((c) => c.text);

/** A FAKE summariser: the first word of each text; records calls and the most calls in flight. */
function summarizer() {
  const calls: { texts: string[]; maxTokens: number }[] = [];
  let inFlight = 0;
  let most = 0;
  const fn: SummarizeFn = async (texts, { maxTokens }) => {
    calls.push({ texts, maxTokens });
    most = Math.max(most, ++inFlight);
    await new Promise((r) => setTimeout(r, 2));
    inFlight--;
    return texts.map((t) => t.split(' ')[0]).join(' ') + ' summary';
  };
  return Object.assign(fn, { calls, most: () => most });
}

function layers(tree: RaptorTree): number[][] {
  const out: number[][] = [];
  for (const node of tree.nodes) (out[node.layer] ??= []).push(node.id);
  return out;
}

describe('buildTree over several layers (small input, FAKE models)', () => {
  const options = { chunkTokens: 8, reductionDim: 2, summaryTokens: 40, concurrency: 2, seed: 9 };

  it('each parent summarises its children’s texts in order; every node below the top has a parent', async () => {
    const summarize = summarizer();
    const events: BuildProgress[] = [];
    const tree = await buildTree(TEXT, { embed: createFakeEmbedder(16), summarize }, options, (e) =>
      events.push(e),
    );
    const byLayer = layers(tree);
    expect(LEAVES.length).toBeGreaterThan(12);
    expect(byLayer[0].map((id) => tree.nodes[id].text)).toEqual(LEAVES);
    expect(byLayer.length).toBeGreaterThanOrEqual(2);
    // Summaries in node order, one call per parent, with its children's texts.
    const parents = tree.nodes.filter((n) => n.layer > 0);
    expect(summarize.calls).toHaveLength(parents.length);
    parents.forEach((node, c) => {
      expect(node.children.length).toBeGreaterThan(0);
      for (const child of node.children) expect(tree.nodes[child].layer).toBe(node.layer - 1);
      expect(summarize.calls[c]).toEqual({
        texts: node.children.map((child) => tree.nodes[child].text),
        maxTokens: 40,
      });
      expect(node.text).toBe(summarize.calls[c].texts.map((t) => t.split(' ')[0]).join(' ') + ' summary');
    });
    for (const node of tree.nodes) {
      expect(node.tokens).toBe(countTokens(node.text));
      expect(Array.from(node.embedding)).toEqual(Array.from(fakeEmbedding(node.text, 16)));
    }
    for (let layer = 0; layer + 1 < byLayer.length; layer++) {
      const children = new Set(byLayer[layer + 1].flatMap((id) => tree.nodes[id].children));
      expect(children).toEqual(new Set(byLayer[layer]));
      // A layer that was clustered again had more than reductionDim + 1 nodes and shrank.
      expect(byLayer[layer].length).toBeGreaterThan(3);
      expect(byLayer[layer + 1].length).toBeLessThan(byLayer[layer].length);
    }
    // The top layer is small (≤ reductionDim + 1 nodes): the paper's stop.
    const top = byLayer.length - 1;
    expect(byLayer[top].length).toBeLessThanOrEqual(3);
    expect(events.at(-1)).toEqual({
      stage: 'done',
      layers: top,
      nodes: tree.nodes.length,
      stopReason: 'small-layer',
    });
    // Concurrency: more than one summary at once, never more than two.
    expect(summarize.most()).toBe(2);
    // Progress of each summarised layer counts 0 … clusters.
    for (let layer = 1; layer <= top; layer++) {
      const done = events.flatMap((e) => (e.stage === 'summarize' && e.layer === layer ? [e.done] : []));
      expect(done).toEqual(Array.from({ length: byLayer[layer].length + 1 }, (_, i) => i));
      const clusterEvents = events.filter((e) => e.stage === 'cluster' && e.layer === layer && !e.detail);
      expect(clusterEvents).toEqual([
        { stage: 'cluster', layer, done: 0, total: 1 },
        { stage: 'cluster', layer, done: 1, total: 1 },
      ]);
    }
    expect(tree.params).toMatchObject({ chunkTokens: 8, reductionDim: 2, summaryTokens: 40, seed: 9 });
  });

  it('maxLayers bounds the tree and is the stop reason; 0 layers keeps the leaves only', async () => {
    const one = await buildTree(
      TEXT,
      { embed: createFakeEmbedder(16), summarize: summarizer() },
      { ...options, maxLayers: 1 },
      (e) => {
        if (e.stage === 'done') expect(e).toMatchObject({ layers: 1, stopReason: 'max-layers' });
      },
    );
    expect(Math.max(...one.nodes.map((n) => n.layer))).toBe(1);
    const summarize = summarizer();
    const none = await buildTree(
      TEXT,
      { embed: createFakeEmbedder(16), summarize },
      { ...options, maxLayers: 0 },
    );
    expect(none.nodes.map((n) => n.text)).toEqual(LEAVES);
    expect(summarize.calls).toEqual([]);
  });

  it('concurrency 1 runs one summary at a time and gives the same tree', async () => {
    const a = await buildTree(TEXT, { embed: createFakeEmbedder(16), summarize: summarizer() }, options);
    const summarize = summarizer();
    const b = await buildTree(
      TEXT,
      { embed: createFakeEmbedder(16), summarize },
      { ...options, concurrency: 1, createdAt: a.createdAt },
    );
    expect(summarize.most()).toBe(1);
    expect(b.nodes.map((n) => [n.layer, n.children, n.text])).toEqual(
      a.nodes.map((n) => [n.layer, n.children, n.text]),
    );
  });
});

/**
 * buildTree's contract on small inputs where every expectation can be worked out by hand: parameter checks,
 * defaults recorded in the tree, pages, batching of embedding calls, progress, stop reasons and what a broken
 * model gets told. FAKE models throughout (a hashed bag-of-words embedder; summarisers that record their calls).
 */
import { describe, expect, it } from 'vitest';
import { buildTree, EMBED_BATCH, EMBED_BATCHES_IN_FLIGHT, type BuildProgress } from '../../src/core/build';
import { DEFAULT_BUILD_PARAMS, type EmbedFn, type SummarizeFn } from '../../src/core/types';
import { createFakeEmbedder, fakeEmbedding } from '../support/fake-embedder';

/** A FAKE summariser: "summary of N" (or a given reply); records the texts and budget of every call. */
function recordingSummarizer(reply?: (texts: string[]) => unknown) {
  const calls: { texts: string[]; maxTokens: number }[] = [];
  const fn: SummarizeFn = async (texts, { maxTokens }) => {
    calls.push({ texts, maxTokens });
    return (reply ? reply(texts) : `summary of ${texts.length}`) as string;
  };
  return Object.assign(fn, { calls });
}

/** `count` one-sentence paragraphs of about 5 tokens each. */
const sentences = (count: number) =>
  Array.from({ length: count }, (_, i) => `Sentence ${i} is here.`).join('\n\n');

describe('buildTree parameters', () => {
  const models = { embed: createFakeEmbedder(8), summarize: recordingSummarizer() };
  const reject = (options: object, message: string, details: object) =>
    expect(buildTree('Hello there.', models, options)).rejects.toMatchObject({
      name: 'BuildError',
      code: 'INVALID_PARAM',
      message,
      details,
    });

  it('names the parameter, the rule and the value', async () => {
    for (const key of ['chunkTokens', 'reductionDim', 'maxClusterTokens', 'summaryTokens']) {
      for (const bad of [0, 1.5]) {
        await reject({ [key]: bad }, `${key} must be a positive integer (got ${bad}).`, { [key]: bad });
      }
    }
    await reject({ maxLayers: -1 }, 'maxLayers must be a whole number ≥ 0 (got -1).', { maxLayers: -1 });
    await reject({ maxLayers: 0.5 }, 'maxLayers must be a whole number ≥ 0 (got 0.5).', { maxLayers: 0.5 });
    for (const t of [0, 1, Number.NaN]) {
      await reject({ clusterThreshold: t }, `clusterThreshold must lie in (0, 1) (got ${t}).`, {
        clusterThreshold: t,
      });
    }
    await reject({ seed: Number.NaN }, 'seed must be a number.', {});
    for (const c of [0, 2.5]) {
      await reject({ concurrency: c }, `concurrency must be a positive integer (got ${c}).`, {
        concurrency: c,
      });
    }
    await expect(
      buildTree(
        [
          { id: 'a', text: 'x.' },
          { id: 'a', text: 'y.' },
        ],
        models,
      ),
    ).rejects.toMatchObject({
      code: 'INVALID_PARAM',
      message: 'Two documents share the id "a".',
      details: { id: 'a' },
    });
  });

  it('accepts the smallest valid values', async () => {
    const tree = await buildTree('Hello there.', models, {
      chunkTokens: 1,
      reductionDim: 1,
      maxClusterTokens: 1,
      summaryTokens: 1,
      maxLayers: 0,
      clusterThreshold: 0.001,
      concurrency: 1,
      seed: -5,
    });
    // One token per chunk: "Hello", "there", ".".
    expect(tree.nodes.map((n) => [n.text, n.tokens])).toEqual([
      ['Hello', 1],
      ['there', 1],
      ['.', 1],
    ]);
    expect(tree.params).toMatchObject({
      chunkTokens: 1,
      reductionDim: 1,
      maxLayers: 0,
      seed: -5,
      clusterThreshold: 0.001,
    });
  });
});

describe('buildTree records what it was given', () => {
  it('defaults: document ids and names, title, model, summariser and the paper’s parameters', async () => {
    const before = Date.now();
    const tree = await buildTree([{ text: 'One here.' }, { text: 'Two here.', name: 'second.txt' }], {
      embed: createFakeEmbedder(8),
      summarize: recordingSummarizer(),
    });
    expect(tree.documents).toEqual([
      { id: 'doc-0', name: 'doc-0', chars: 9 },
      { id: 'doc-1', name: 'second.txt', chars: 9 },
    ]);
    expect(tree.title).toBe('doc-0');
    expect(tree.embedding).toEqual({ model: 'unknown', dim: 8 });
    expect(tree.summarizer).toEqual({ kind: 'llm' });
    expect(tree.params).toEqual({ ...DEFAULT_BUILD_PARAMS });
    expect(Date.parse(tree.createdAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(tree).toMatchObject({ format: 'raptor-tree', version: 1 });
  });

  it('options: title, timestamp, model, summariser and parameters', async () => {
    const tree = await buildTree(
      { id: 'x', name: 'x.md', text: 'A line here.' },
      { embed: createFakeEmbedder(8), summarize: recordingSummarizer() },
      {
        title: 'My tree',
        createdAt: '2026-01-02T03:04:05Z',
        embeddingModel: 'm/1',
        summarizer: { kind: 'extractive' },
        chunkTokens: 50,
        summaryTokens: 60,
        maxLayers: 2,
        seed: 9,
        reductionDim: 4,
        maxClusterTokens: 999,
        clusterThreshold: 0.2,
      },
    );
    expect(tree).toMatchObject({
      title: 'My tree',
      createdAt: '2026-01-02T03:04:05Z',
      embedding: { model: 'm/1', dim: 8 },
      summarizer: { kind: 'extractive' },
      params: {
        chunkTokens: 50,
        summaryTokens: 60,
        maxLayers: 2,
        seed: 9,
        reductionDim: 4,
        maxClusterTokens: 999,
        clusterThreshold: 0.2,
      },
      documents: [{ id: 'x', name: 'x.md', chars: 12 }],
    });
  });

  it('gives each leaf the page its chunk starts on', async () => {
    // Chunks of one sentence each ("Page one text." etc.), starting at offsets 0, 16, 32 and 48.
    const text = 'Page one text.\n\nPage two text.\n\nPage two more.\n\nPage three end.';
    const starts = [0, 16, 32, 48];
    starts.forEach((s, i) => expect(text.slice(s).startsWith(i === 3 ? 'Page three' : 'Page')).toBe(true));
    const tree = await buildTree(
      { text, pageStarts: [16, 48] },
      { embed: createFakeEmbedder(8), summarize: recordingSummarizer() },
      { chunkTokens: 5, maxLayers: 0 },
    );
    expect(tree.nodes.map((n) => [n.source!.start, n.source!.page])).toEqual([
      [0, 1],
      [16, 2],
      [32, 2],
      [48, 3],
    ]);
    const noPages = await buildTree(
      text,
      { embed: createFakeEmbedder(8), summarize: recordingSummarizer() },
      {
        chunkTokens: 5,
        maxLayers: 0,
      },
    );
    expect(noPages.nodes.every((n) => !('page' in n.source!))).toBe(true);
  });
});

describe('buildTree calls the models in batches and reports progress', () => {
  it(`embeds leaves ${EMBED_BATCH} at a time and reports when it starts and after each batch`, async () => {
    const embed = createFakeEmbedder(8);
    const events: BuildProgress[] = [];
    const tree = await buildTree(
      sentences(150),
      { embed, summarize: recordingSummarizer() },
      { chunkTokens: 8, maxLayers: 0 },
      (e) => events.push(e),
    );
    expect(tree.nodes).toHaveLength(150);
    expect(embed.calls.map((c) => c.length)).toEqual([64, 64, 22]);
    expect(events.filter((e) => e.stage === 'embed-leaves')).toEqual([
      { stage: 'embed-leaves', done: 0, total: 150 },
      { stage: 'embed-leaves', done: 64, total: 150 },
      { stage: 'embed-leaves', done: 128, total: 150 },
      { stage: 'embed-leaves', done: 150, total: 150 },
    ]);
    expect(events.at(-1)).toEqual({ stage: 'done', layers: 0, nodes: 150, stopReason: 'max-layers' });
  });

  it(`keeps ${EMBED_BATCHES_IN_FLIGHT} batches with the embedder: the next is asked for before the previous returns`, async () => {
    // A FAKE embedder whose calls resolve only when the test lets them, in any order.
    const inner = createFakeEmbedder(8);
    const open: { texts: string[]; release: () => void }[] = [];
    let most = 0;
    const embed: EmbedFn = (texts, options) =>
      new Promise((resolve, reject) => {
        open.push({ texts, release: () => inner(texts, options).then(resolve, reject) });
        most = Math.max(most, open.length);
      });
    const events: BuildProgress[] = [];
    const built = buildTree(
      sentences(250),
      { embed, summarize: recordingSummarizer() },
      { chunkTokens: 8, maxLayers: 0 },
      (e) => events.push(e),
    );
    const settle = () => new Promise((r) => setTimeout(r, 5));
    // Waits (on any machine load) until `ok`, then a little more, so a call too many would show.
    const until = async (ok: () => boolean) => {
      for (let i = 0; i < 4_000 && !ok(); i++) await settle();
      await settle();
    };
    let finished = false;
    built.then(
      () => (finished = true),
      () => (finished = true),
    );
    await until(() => open.length >= 2);
    // Two calls asked for at once (batches 1 and 2), none answered yet.
    expect(open.map((c) => c.texts[0])).toEqual(['Sentence 0 is here.', 'Sentence 64 is here.']);
    // The second returns first: nothing is reported until the first has.
    open.splice(1, 1)[0].release();
    await settle();
    expect(events.filter((e) => e.stage === 'embed-leaves')).toEqual([
      { stage: 'embed-leaves', done: 0, total: 250 },
    ]);
    expect(open).toHaveLength(1);
    open.shift()!.release();
    await until(() => open.length >= 2);
    // Batches 1 and 2 are in (2 had returned early): batches 3 and 4 are asked for, 2 in flight again.
    expect(open.map((c) => c.texts[0])).toEqual(['Sentence 128 is here.', 'Sentence 192 is here.']);
    while (!finished) {
      open.shift()?.release();
      await settle();
    }
    const tree = await built;
    expect(tree.nodes.map((n) => n.text)).toEqual(
      Array.from({ length: 250 }, (_, i) => `Sentence ${i} is here.`),
    );
    expect(Array.from(tree.nodes[200].embedding)).toEqual(
      Array.from(fakeEmbedding('Sentence 200 is here.', 8)),
    );
    expect(most).toBe(EMBED_BATCHES_IN_FLIGHT);
    expect(events.filter((e) => e.stage === 'embed-leaves').map((e) => ('done' in e ? e.done : -1))).toEqual([
      0, 64, 128, 192, 250,
    ]);
  });

  it("fails with the first batch's error when a later batch, asked for ahead, fails too", async () => {
    let calls = 0;
    const embed: EmbedFn = async () => {
      const call = ++calls;
      await new Promise((r) => setTimeout(r, call === 1 ? 20 : 1));
      throw new Error(`batch ${call} failed`);
    };
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      await expect(
        buildTree(
          sentences(150),
          { embed, summarize: recordingSummarizer() },
          { chunkTokens: 8, maxLayers: 0 },
        ),
      ).rejects.toThrow('batch 1 failed');
      await new Promise((r) => setTimeout(r, 30));
      expect(calls).toBe(EMBED_BATCHES_IN_FLIGHT);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('a document too short to cluster: one root summary of all leaves, in order, with the summary budget', async () => {
    const summarize = recordingSummarizer(() => '  the root  ');
    const events: BuildProgress[] = [];
    const tree = await buildTree(
      [
        { id: 'a', text: sentences(2) },
        { id: 'b', text: 'Last one here.' },
      ],
      { embed: createFakeEmbedder(8), summarize },
      { chunkTokens: 8, summaryTokens: 42 },
      (e) => events.push(e),
    );
    expect(summarize.calls).toEqual([
      { texts: ['Sentence 0 is here.', 'Sentence 1 is here.', 'Last one here.'], maxTokens: 42 },
    ]);
    expect(tree.nodes[3]).toMatchObject({
      id: 3,
      layer: 1,
      text: 'the root',
      tokens: 2,
      children: [0, 1, 2],
    });
    expect(Array.from(tree.nodes[3].embedding)).toEqual(Array.from(fakeEmbedding('the root', 8)));
    // Chunking counts characters of both documents, from 0 to all of them, never going back, and passes the
    // end of the first document on the way.
    const total = sentences(2).length + 'Last one here.'.length;
    const chunking = events.filter((e) => e.stage === 'chunk').map((e) => [e.done, e.total]);
    expect(chunking[0]).toEqual([0, total]);
    expect(chunking.at(-1)).toEqual([total, total]);
    expect(chunking.map(([d]) => d)).toEqual(chunking.map(([d]) => d).sort((x, y) => x - y));
    expect(chunking.map(([d]) => d)).toContain(sentences(2).length);
    expect(new Set(chunking.map(([d]) => d)).size).toBe(chunking.length);
    expect(events.filter((e) => e.stage !== 'chunk')).toEqual([
      { stage: 'embed-leaves', done: 0, total: 3 },
      { stage: 'embed-leaves', done: 3, total: 3 },
      { stage: 'summarize', layer: 1, done: 0, total: 1 },
      { stage: 'summarize', layer: 1, done: 1, total: 1 },
      { stage: 'embed-summaries', layer: 1, done: 0, total: 1 },
      { stage: 'embed-summaries', layer: 1, done: 1, total: 1 },
      { stage: 'done', layers: 1, nodes: 4, stopReason: 'small-layer' },
    ]);
  });

  it('stops when clustering no longer makes the layer smaller', async () => {
    // Every cluster exceeds a 1-token budget, so each is cut into single nodes: as many clusters as nodes.
    const summarize = recordingSummarizer();
    const events: BuildProgress[] = [];
    const tree = await buildTree(
      sentences(14),
      { embed: createFakeEmbedder(16), summarize },
      { chunkTokens: 8, maxClusterTokens: 1 },
      (e) => events.push(e),
    );
    expect(tree.nodes).toHaveLength(14);
    expect(summarize.calls).toEqual([]);
    expect(events.filter((e) => e.stage === 'cluster' && !('detail' in e))).toEqual([
      { stage: 'cluster', layer: 1, done: 0, total: 1 },
      { stage: 'cluster', layer: 1, done: 1, total: 1 },
    ]);
    expect(events.at(-1)).toEqual({ stage: 'done', layers: 0, nodes: 14, stopReason: 'no-reduction' });
  });

  it('stops with an AbortError before any model call when the signal has already fired', async () => {
    const embed = createFakeEmbedder(8);
    const summarize = recordingSummarizer();
    await expect(
      buildTree(sentences(3), { embed, summarize }, { signal: { aborted: true } }),
    ).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(embed.calls).toEqual([]);
    expect(summarize.calls).toEqual([]);
  });
});

describe('buildTree rejects broken model output with BAD_EMBEDDING or EMPTY_SUMMARY', () => {
  const summarize = recordingSummarizer();
  const cases: [string, EmbedFn, string, object][] = [
    [
      'too few vectors',
      async (texts) => texts.slice(1).map(() => new Float32Array(4)),
      'The embedder returned 2 vectors for 3 texts.',
      { expected: 3, actual: 2 },
    ],
    [
      'not an array',
      (async () => undefined) as unknown as EmbedFn,
      'The embedder returned undefined vectors for 3 texts.',
      { expected: 3, actual: undefined },
    ],
    [
      'plain number arrays',
      (async (texts: string[]) => texts.map(() => [1, 2, 3, 4])) as unknown as EmbedFn,
      'The embedder returned an invalid vector (length 4, expected 4).',
      { expected: 4, actual: 4 },
    ],
    [
      'empty vectors',
      async (texts) => texts.map(() => new Float32Array(0)),
      'The embedder returned an invalid vector (length 0, expected 0).',
      { expected: 0, actual: 0 },
    ],
    [
      'a NaN',
      async (texts) => texts.map((_, i) => Float32Array.of(1, i === 2 ? Number.NaN : 0)),
      'The embedder returned an invalid vector (length 2, expected 2).',
      { expected: 2, actual: 2 },
    ],
  ];
  it.each(cases)('%s', async (_name, embed, message, details) => {
    await expect(buildTree(sentences(3), { embed, summarize }, { chunkTokens: 8 })).rejects.toMatchObject({
      code: 'BAD_EMBEDDING',
      message,
      details,
    });
  });

  it('summary vectors of another length than the leaves', async () => {
    let call = 0;
    const embed: EmbedFn = async (texts) => texts.map(() => new Float32Array(call++ < 3 ? 4 : 5).fill(1));
    await expect(buildTree(sentences(3), { embed, summarize }, { chunkTokens: 8 })).rejects.toMatchObject({
      code: 'BAD_EMBEDDING',
      message: 'The embedder returned an invalid vector (length 5, expected 4).',
    });
  });

  it('a summary that is not text', async () => {
    const bad = recordingSummarizer(() => undefined);
    await expect(
      buildTree(sentences(3), { embed: createFakeEmbedder(8), summarize: bad }, { chunkTokens: 8 }),
    ).rejects.toMatchObject({
      code: 'EMPTY_SUMMARY',
      message: 'The summariser returned an empty summary for a cluster of 3 nodes.',
      details: { layer: 1, cluster: 0 },
    });
  });
});

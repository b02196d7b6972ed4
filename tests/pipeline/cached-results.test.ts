import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { buildTree, type BuildInput } from '../../src/core/build';
import type { EmbedFn, RaptorTree, SummarizeFn } from '../../src/core/types';
import { countRecords, type AerieDb, type SummaryCacheKey } from '../../src/storage';
import {
  cachedEmbedder,
  cachedSummarizer,
  embeddingCacheKeyFor,
  summaryCacheKeyFor,
} from '../../src/pipeline/cached-results';
import { createFakeEmbedder, fakeEmbedding } from '../support/fake-embedder';
import { failNthPut, FIXTURE_ENDPOINT, openFixture, recordTree } from '../support/storage-fixture';

const cinderella = readFileSync(new URL('../fixtures/cinderella.txt', import.meta.url), 'utf8');
const half = cinderella.length >> 1;
const docA = { id: 'a', name: 'first half', text: cinderella.slice(0, half) };
const docB = { id: 'b', name: 'second half', text: cinderella.slice(half) };

const LLM_KEY: SummaryCacheKey = {
  kind: 'llm',
  protocol: 'openai',
  model: 'fake-llm',
  systemPrompt: 'You are a Summarizing Text Portal',
  userTemplate: 'Summarise: {context}',
};
const EMBED_KEY = { model: 'fake/bag-of-words', dtype: 'fp32' };
const DIM = 32;
/** Small chunks give the Cinderella text two layers of summaries (about 240 leaves, 15 summaries). */
const CHUNK_TOKENS = 20;

class FakeOutage extends Error {}

/** A FAKE LLM: deterministic summaries (leading words), every request recorded; fails after `failAfter` successes. */
function fakeLlm(failAfter = Infinity): SummarizeFn & { requests: string[]; successes: string[] } {
  const requests: string[] = [];
  const successes: string[] = [];
  const fn = async (texts: string[], { maxTokens }: { maxTokens: number }) => {
    const id = JSON.stringify(texts);
    requests.push(id);
    await new Promise((r) => setTimeout(r, 1));
    if (successes.length >= failAfter) throw new FakeOutage('the fake LLM is down');
    successes.push(id);
    const words = texts.flatMap((t) => t.split(/\s+/).slice(0, 5));
    return words.slice(0, Math.max(1, maxTokens >> 1)).join(' ');
  };
  return Object.assign(fn, { requests, successes });
}

function build(db: AerieDb, treeId: string, input: BuildInput, embed: EmbedFn, summarize: SummarizeFn) {
  const models = {
    embed: cachedEmbedder(db, embed, EMBED_KEY, treeId),
    summarize: cachedSummarizer(db, summarize, LLM_KEY, treeId),
  };
  // Storage caches results only for a tree that exists: the page records the build before it starts.
  const run = recordTree(db, treeId).then(() =>
    buildTree(input, models, {
      seed: 224,
      chunkTokens: CHUNK_TOKENS,
      concurrency: 4,
      createdAt: '2026-01-01T00:00:00Z',
    }),
  );
  return { run, models };
}

const summaryCount = (tree: RaptorTree) => tree.nodes.filter((n) => n.layer > 0).length;

describe('cached models in a build with a fake embedder and a fake LLM (fake IndexedDB)', () => {
  it('rebuilding the same document with the same settings calls neither model and gives the same tree', async () => {
    const { db } = await openFixture({ empty: true });
    await recordTree(db, 'tree');
    const llm1 = fakeLlm();
    const first = await build(db, 'one', cinderella, createFakeEmbedder(DIM), llm1).run;
    expect(llm1.requests.length).toBe(summaryCount(first));
    expect(summaryCount(first)).toBeGreaterThan(3);

    const embed2 = createFakeEmbedder(DIM);
    const llm2 = fakeLlm();
    const { run, models } = build(db, 'two', cinderella, embed2, llm2);
    const second = await run;
    expect(llm2.requests).toEqual([]);
    expect(embed2.calls).toEqual([]);
    expect(models.summarize.stats).toEqual({ hits: summaryCount(first), misses: 0, cut: 0 });
    expect(second).toEqual(first);
  });

  it('an interrupted build, resumed, makes only the remaining calls and never requests a summary twice', async () => {
    const reference = await openFixture({ empty: true });
    const llm0 = fakeLlm();
    const expected = await build(reference.db, 'ref', cinderella, createFakeEmbedder(DIM), llm0).run;
    const total = llm0.requests.length;
    const k = 3;
    expect(total).toBeGreaterThan(k + 1);

    const { db } = await openFixture({ empty: true });
    await recordTree(db, 'tree');
    const embed1 = createFakeEmbedder(DIM);
    const llm1 = fakeLlm(k);
    const interrupted = build(db, 't', cinderella, embed1, llm1);
    await expect(interrupted.run).rejects.toBeInstanceOf(FakeOutage);
    await interrupted.models.summarize.flush();
    expect(llm1.successes).toHaveLength(k);
    // Each finished summary is stored; each failed call stored nothing.
    const embedded = new Set(embed1.calls.flat()).size;
    expect((await countRecords(db)).cache).toBe(embedded + k);

    const embed2 = createFakeEmbedder(DIM);
    const llm2 = fakeLlm();
    const resumed = await build(db, 't', cinderella, embed2, llm2).run;
    expect(resumed).toEqual(expected);
    expect(llm2.requests.filter((r) => llm1.successes.includes(r))).toEqual([]);
    expect(new Set(llm2.requests).size).toBe(llm2.requests.length);
    expect(llm2.requests.length).toBe(total - k);
    // No leaf is embedded again: only summaries are new.
    const leaves = new Set(resumed.nodes.filter((n) => n.layer === 0).map((n) => n.text));
    expect(embed2.calls.flat().filter((t) => leaves.has(t))).toEqual([]);
  });

  it('adding a document embeds only its own leaves again', async () => {
    const { db } = await openFixture({ empty: true });
    await recordTree(db, 'tree');
    await build(db, 'first', [docA], createFakeEmbedder(DIM), fakeLlm()).run;
    const embed2 = createFakeEmbedder(DIM);
    const llm2 = fakeLlm();
    const { run, models } = build(db, 'both', [docA, docB], embed2, llm2);
    const tree = await run;
    const embeddedLeaves = new Set(embed2.calls.flat());
    for (const leaf of tree.nodes.filter((n) => n.layer === 0)) {
      expect(embeddedLeaves.has(leaf.text)).toBe(leaf.source?.doc === 'b');
    }
    // Every summary of the new tree came from the cache or from exactly one LLM call.
    expect(models.summarize.stats.hits + llm2.requests.length).toBe(summaryCount(tree));
  });
});

describe('cachedSummarizer with a fake summariser (fake IndexedDB)', () => {
  it('stores nothing for a failed or blank call, and shares one call between concurrent identical requests', async () => {
    const { db } = await openFixture({ empty: true });
    await recordTree(db, 'tree');
    let calls = 0;
    let reply: string | Error = new FakeOutage('down');
    const fake: SummarizeFn = async () => {
      calls++;
      await new Promise((r) => setTimeout(r, 1));
      if (reply instanceof Error) throw reply;
      return reply;
    };
    const summarize = cachedSummarizer(db, fake, LLM_KEY, 'tree');
    await expect(summarize(['x'], { maxTokens: 10 })).rejects.toBeInstanceOf(FakeOutage);
    reply = '   ';
    expect(await summarize(['x'], { maxTokens: 10 })).toBe('   ');
    expect((await countRecords(db)).cache).toBe(0);
    reply = 'a summary';
    const results = await Promise.all([1, 2, 3].map(() => summarize(['x'], { maxTokens: 10 })));
    expect(results).toEqual(['a summary', 'a summary', 'a summary']);
    expect(calls).toBe(3);
    expect((await countRecords(db)).cache).toBe(1);
    // Everything in the key matters: the token limit, the texts and their order, the model, the prompt.
    await summarize(['x'], { maxTokens: 11 });
    await summarize(['x', 'y'], { maxTokens: 10 });
    await summarize(['y', 'x'], { maxTokens: 10 });
    await cachedSummarizer(db, fake, { ...LLM_KEY, model: 'other' }, 'tree')(['x'], { maxTokens: 10 });
    await cachedSummarizer(
      db,
      fake,
      { ...LLM_KEY, systemPrompt: 'Be brief.' },
      'tree',
    )(['x'], { maxTokens: 10 });
    expect(calls).toBe(8);
    await summarize(['x'], { maxTokens: 10 });
    expect(calls).toBe(8);
  });

  it('summaries written at once share their lookups’ and writes’ transactions (fake IndexedDB)', async () => {
    const { db } = await openFixture({ empty: true });
    await recordTree(db, 'tree');
    let transactions = 0;
    const counted = new Proxy(db, {
      get(target, name, receiver) {
        if (name !== 'transaction') return Reflect.get(target, name, receiver) as unknown;
        return (...args: Parameters<AerieDb['transaction']>) => {
          transactions++;
          return target.transaction(...args);
        };
      },
    });
    const fake: SummarizeFn = async (texts) => `summary of ${texts.join(' ')}`;
    const summarize = cachedSummarizer(counted, fake, LLM_KEY, 'tree');
    const clusters = Array.from({ length: 8 }, (_, c) => [`cluster ${c}`]);
    // The eight keys' SHA-256 digests are held until all eight are done, so the calls reach the cache together
    // whatever order and turns Web Crypto answers them in (left alone, a digest answered after the first batch
    // had started made a batch of its own: a flaky count).
    const digest = crypto.subtle.digest.bind(crypto.subtle);
    let releaseDigests = (): void => {};
    const digestsDone = new Promise<void>((resolve) => (releaseDigests = resolve));
    let digested = 0;
    const held = vi.spyOn(crypto.subtle, 'digest').mockImplementation(async (algorithm, data) => {
      const out = await digest(algorithm, data);
      if (++digested === clusters.length) releaseDigests();
      await digestsDone;
      return out;
    });
    const summaries = await Promise.all(clusters.map((texts) => summarize(texts, { maxTokens: 10 })));
    held.mockRestore();
    expect(digested).toBe(clusters.length);
    expect(summaries).toEqual(clusters.map((texts) => `summary of ${texts[0]}`));
    expect((await countRecords(db)).cache).toBe(8);
    // One lookup and one write per summary made 16; gathered, the eight go in one of each.
    expect(transactions).toBeLessThanOrEqual(2);
    // And they are found again, each from the cache.
    const again = cachedSummarizer(db, async () => 'not called', LLM_KEY, 'tree');
    expect(await Promise.all(clusters.map((texts) => again(texts, { maxTokens: 10 })))).toEqual(summaries);
    expect(again.stats).toMatchObject({ hits: 8, misses: 0 });
  });

  it('derives keys so that default and explicit prompts share entries and models differ', () => {
    const embedding = { kind: 'browser', model: 'Xenova/m' } as const;
    const implicit = summaryCacheKeyFor({ kind: 'llm', endpoint: FIXTURE_ENDPOINT }, embedding);
    const explicit = summaryCacheKeyFor(
      { kind: 'llm', endpoint: FIXTURE_ENDPOINT, systemPrompt: 'You are a Summarizing Text Portal' },
      embedding,
    );
    expect(explicit).toEqual(implicit);
    expect(JSON.stringify(implicit)).not.toContain(FIXTURE_ENDPOINT.apiKey as string);
    expect(summaryCacheKeyFor({ kind: 'extractive' }, embedding)).toEqual({
      kind: 'extractive',
      embeddingModel: 'Xenova/m',
    });
    expect(embeddingCacheKeyFor(embedding)).toEqual({ model: 'Xenova/m', dtype: 'q8' });
    expect(embeddingCacheKeyFor({ kind: 'endpoint', endpoint: FIXTURE_ENDPOINT })).toEqual({
      model: 'openai:fake-llm',
    });
  });
});

describe('cachedEmbedder with a fake embedder (fake IndexedDB)', () => {
  it('embeds only misses, each distinct text once, and stores each batch as it completes', async () => {
    const { db } = await openFixture({ empty: true });
    await recordTree(db, 'tree');
    const texts = ['a b', 'c d', 'a b', 'e f', 'g h', 'i j'];
    let batches = 0;
    const failing: EmbedFn = async (batch) => {
      if (++batches === 3) throw new FakeOutage('the fake embedder is down');
      return batch.map((t) => fakeEmbedding(t, 4));
    };
    const first = cachedEmbedder(db, failing, EMBED_KEY, 'tree', { batchSize: 2 });
    await expect(first(texts)).rejects.toBeInstanceOf(FakeOutage);
    expect((await countRecords(db)).cache).toBe(4); // two batches of two distinct texts

    const fake = createFakeEmbedder(4);
    const second = cachedEmbedder(db, fake, EMBED_KEY, 'tree', { batchSize: 2 });
    const vectors = await second(texts);
    expect(fake.calls).toEqual([['i j']]);
    expect(second.stats).toEqual({ hits: 5, misses: 1 });
    expect(vectors.map((v) => Array.from(v))).toEqual(texts.map((t) => Array.from(fakeEmbedding(t, 4))));
    expect(vectors[0]).not.toBe(vectors[2]);

    const otherDtype = createFakeEmbedder(4);
    await cachedEmbedder(db, otherDtype, { ...EMBED_KEY, dtype: 'q8' }, 'tree')(['a b']);
    expect(otherDtype.calls).toEqual([['a b']]);
  });

  it('rejects a wrong number of vectors and caches none of them', async () => {
    const { db } = await openFixture({ empty: true });
    await recordTree(db, 'tree');
    const broken: EmbedFn = async (batch) => batch.slice(1).map((t) => fakeEmbedding(t, 4));
    await expect(cachedEmbedder(db, broken, EMBED_KEY, 'tree')(['a', 'b'])).rejects.toMatchObject({
      code: 'BAD_EMBEDDING',
    });
    expect((await countRecords(db)).cache).toBe(0);
  });

  it('a full quota (fake) stops with QUOTA_EXCEEDED and keeps the batches stored before', async () => {
    const { db } = await openFixture({ empty: true });
    await recordTree(db, 'tree');
    const texts = ['p', 'q', 'r', 's', 't', 'u'];
    const quota = failNthPut(3);
    try {
      const error = await cachedEmbedder(db, createFakeEmbedder(4), EMBED_KEY, 'tree', { batchSize: 2 })(
        texts,
      ).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'QUOTA_EXCEEDED' });
      expect((error as Error).message).toMatch(/deleting trees/);
    } finally {
      quota.restore();
    }
    expect((await countRecords(db)).cache).toBe(2);
    const fake = createFakeEmbedder(4);
    await cachedEmbedder(db, fake, EMBED_KEY, 'tree', { batchSize: 2 })(texts);
    expect(fake.calls.flat()).toEqual(['r', 's', 't', 'u']);
  });
});

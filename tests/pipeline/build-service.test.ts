/**
 * The build pipeline end to end in Node: real transformers.js with the committed GloVe model, a real HTTP
 * server speaking the OpenAI protocol (the FAKE LLM server), and a FAKE IndexedDB (fake-indexeddb).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EmbedderError, createEmbedService } from '../../src/models/embed';
import { OFFLINE_MODEL_ID } from '../../src/models/embed/embedding-presets';
import { createBuildService } from '../../src/pipeline/build-service';
import type { BuildRequest, PipelineProgress } from '../../src/protocol/build';
import type { ChannelLike } from '../../src/pipeline/build-stop';
import {
  countRecords,
  createTree,
  deleteTree,
  getCheckpoint,
  getTree,
  listTrees,
  loadTree,
  resumeRequest,
  setSetting,
  type AerieDb,
} from '../../src/storage';
import { startFakeLlmServer, type FakeLlmServer } from '../support/llm-server';
import { fillDisk, openFixture } from '../support/storage-fixture';

const cinderella = readFileSync(new URL('../fixtures/cinderella.txt', import.meta.url), 'utf8');
const MODELS = fileURLToPath(new URL('../../public/models/', import.meta.url));
const embedService = createEmbedService({ localModelPath: MODELS }, false);

let llm: FakeLlmServer;
beforeAll(async () => {
  llm = await startFakeLlmServer({ apiKey: 'sk-test-key', models: ['fake-model'] });
});
afterAll(() => llm.close());
beforeEach(() => llm.reset());

function request(buildId: string, text = cinderella): BuildRequest {
  return {
    buildId,
    title: 'Cinderella',
    documents: [{ id: 'cinderella', name: 'cinderella.txt', text }],
    params: { concurrency: 2 },
    embedding: { kind: 'browser', model: OFFLINE_MODEL_ID, dtype: 'q8' },
    summarizer: {
      kind: 'llm',
      endpoint: {
        protocol: 'openai',
        baseUrl: llm.openaiBaseUrl,
        apiKey: 'sk-test-key',
        model: 'fake-model',
      },
    },
  };
}

/** The app saves endpoints (with their keys) in settings; a resumed build takes its key from there. */
async function saveEndpoint(db: AerieDb): Promise<void> {
  const llm = request('x').summarizer;
  if (llm.kind === 'llm') await setSetting(db, 'llmEndpoints', [llm.endpoint]);
}

/** Bodies of the summary requests the fake server received, as comparable strings. */
function summaryBodies(): string[] {
  return llm.modelRequests
    .filter((r) => r.path.endsWith('/chat/completions'))
    .map((r) => JSON.stringify(r.body));
}

describe('build service (GloVe model, fake LLM server, fake IndexedDB)', () => {
  it('builds and stores a tree with the paper prompt, reporting progress and token usage', async () => {
    const { db } = await openFixture({ empty: true });
    const service = createBuildService({ embedService, openDb: async () => db });
    const events: PipelineProgress[] = [];
    const outcome = await service.build(
      request('t1'),
      [{ type: 'text/plain', size: cinderella.length }],
      (p) => events.push(p),
    );
    expect(outcome.layers).toBeGreaterThanOrEqual(1);
    const tree = await loadTree(db, 't1');
    expect(tree.nodes.length).toBe(outcome.nodes);
    expect(tree.embedding).toMatchObject({ model: OFFLINE_MODEL_ID, dim: 100 });
    expect(tree.summarizer).toMatchObject({ kind: 'llm', model: 'fake-model' });
    expect((await getTree(db, 't1'))?.status).toBe('ready');
    const first = llm.modelRequests[0].body as { messages: { role: string; content: string }[] };
    expect(first.messages[0]).toEqual({ role: 'system', content: 'You are a Summarizing Text Portal' });
    expect(first.messages[1].content).toMatch(
      /^Write a summary of the following, including as many key details as possible: /,
    );
    const stages = new Set(events.map((e) => e.event.stage));
    for (const s of ['embed-leaves', 'cluster', 'summarize', 'embed-summaries', 'done'])
      expect(stages).toContain(s);
    expect(events.at(-1)!.usage.requests).toBe(summaryBodies().length);
    expect(events.at(-1)!.usage.totalTokens).toBeGreaterThan(0);
    // The build has ended: the embedding service forgets the texts (and words) it tokenised for it.
    await expect.poll(() => embedService.textMemory()).toEqual({ texts: 0, words: 0 });
  });

  it("sends an endpoint the build's concurrency of summaries at once, not the built-in model's batch", async () => {
    const { db } = await openFixture({ empty: true });
    const service = createBuildService({ embedService, openDb: async () => db });
    llm.configure({ latencyMs: 40 }); // replies overlap, so the peak shows the bound
    try {
      await service.build(request('t-conc'));
    } finally {
      llm.configure({ latencyMs: 0 });
    }
    expect(summaryBodies().length).toBeGreaterThan(2);
    expect(llm.maxInFlight).toBe(2);
  });

  it('asks the model’s own token counts of the leaves and embeds them longest first', async () => {
    const { db } = await openFixture({ empty: true });
    const counted: number[] = [];
    const embedded: string[][] = [];
    const watched: typeof embedService = {
      ...embedService,
      lengths: (texts, choice) => {
        counted.push(texts.length);
        return embedService.lengths(texts, choice);
      },
      embed: (texts, choice, options) => {
        embedded.push(texts);
        return embedService.embed(texts, choice, options);
      },
    };
    const service = createBuildService({ embedService: watched, openDb: async () => db });
    const outcome = await service.build({ ...request('len'), summarizer: { kind: 'extractive' } });
    // Once, for the leaves (summaries are embedded as they are written, in cluster order).
    const tree = await loadTree(db, 'len');
    const leaves = tree.nodes.filter((n) => n.layer === 0).length;
    expect(counted).toEqual([leaves]);
    expect(outcome.nodes).toBeGreaterThan(leaves);
    // The leaves' calls, in the order sent, go from the longest texts (model tokens) to the shortest.
    const sent = embedded.flat().slice(0, leaves);
    const lengths = await embedService.lengths(sent, { model: OFFLINE_MODEL_ID, dtype: 'q8' });
    expect(lengths).toEqual([...lengths].sort((a, b) => b - a));
  });

  it('"auto" precision settles on the device’s weights: the tree, its stored request and the cache keys name them', async () => {
    const { db } = await openFixture({ empty: true });
    const dtypes: (string | undefined)[] = [];
    const watched: typeof embedService = {
      ...embedService,
      embed: (texts, choice, options) => {
        dtypes.push(choice.dtype);
        return embedService.embed(texts, choice, options);
      },
    };
    const service = createBuildService({ embedService: watched, openDb: async () => db });
    const auto = (id: string): BuildRequest => ({
      ...request(id),
      summarizer: { kind: 'extractive' },
      embedding: { kind: 'browser', model: OFFLINE_MODEL_ID, dtype: 'auto' },
    });
    const first = await service.build(auto('p1'));
    // Node runs the CPU: 8-bit weights.
    expect(new Set(dtypes)).toEqual(new Set(['q8']));
    const record = await getTree(db, 'p1');
    expect(record?.embedding.dtype).toBe('q8');
    expect((await resumeRequest(db, 'p1')).embedding).toMatchObject({ kind: 'browser', dtype: 'q8' });
    expect(first.cache.embedMisses).toBe(first.nodes);
    // The same documents asked for with explicit q8 weights: every embedding comes from the cache.
    const again = await service.build({
      ...auto('p2'),
      embedding: { kind: 'browser', model: OFFLINE_MODEL_ID, dtype: 'q8' },
    });
    expect(again.cache.embedMisses).toBe(0);
    expect(again.cache.embedHits).toBe(again.nodes);
  });

  it('extractive summaries rank sentence vectors from the nodes’ own pass: no sentence is embedded alone', async () => {
    const { db } = await openFixture({ empty: true });
    const calls: { texts: number; sentences: boolean }[] = [];
    const counting: typeof embedService = {
      ...embedService,
      embed: (texts, choice, options) => {
        calls.push({ texts: texts.length, sentences: options?.sentences === true });
        return embedService.embed(texts, choice, options);
      },
    };
    const service = createBuildService({ embedService: counting, openDb: async () => db });
    const outcome = await service.build({ ...request('x1'), summarizer: { kind: 'extractive' } });
    const tree = await loadTree(db, 'x1');
    const summaries = tree.nodes.filter((n) => n.layer > 0);
    expect(summaries.length).toBeGreaterThan(1);
    // Every summary is made of its children's sentences (extractive), and every call also gave sentences.
    for (const node of summaries) {
      const source = node.children.map((c) => tree.nodes[c].text.replace(/\s+/g, ' ')).join(' ');
      for (const sentence of node.text.split(/(?<=[.!?])\s+/)) expect(source).toContain(sentence);
    }
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((c) => c.sentences)).toBe(true);
    // Texts embedded: the nodes, once each (leaves, then each layer's summaries), and nothing else.
    expect(calls.reduce((sum, c) => sum + c.texts, 0)).toBe(outcome.nodes);
  });

  it('a recorded build sent without its texts reads them from storage and builds the same tree', async () => {
    const { db } = await openFixture({ empty: true });
    const service = createBuildService({ embedService, openDb: async () => db });
    await service.build(request('whole'));
    const recorded = request('recorded');
    await createTree(db, recorded);
    const outcome = await service.build({ ...recorded, documents: [] }, undefined, undefined, {
      recorded: true,
    });
    const [whole, fromStore] = [await loadTree(db, 'whole'), await loadTree(db, 'recorded')];
    expect(outcome.nodes).toBe(whole.nodes.length);
    expect(fromStore.nodes.map((n) => [n.text, n.children])).toEqual(
      whole.nodes.map((n) => [n.text, n.children]),
    );
  });

  it('rebuilding the same document with the same settings makes no LLM call', async () => {
    const { db } = await openFixture({ empty: true });
    const service = createBuildService({ embedService, openDb: async () => db });
    await service.build(request('a'));
    const firstCalls = summaryBodies().length;
    expect(firstCalls).toBeGreaterThan(0);
    llm.reset();
    const again = await service.build(request('b'));
    expect(summaryBodies()).toEqual([]);
    expect(again.cache.summaryMisses).toBe(0);
    const [a, b] = [await loadTree(db, 'a'), await loadTree(db, 'b')];
    expect(b.nodes.map((n) => [n.text, n.children])).toEqual(a.nodes.map((n) => [n.text, n.children]));
  });

  it('a build that fails when the endpoint goes down resumes without requesting any summary twice', async () => {
    const { db } = await openFixture({ empty: true });
    await saveEndpoint(db);
    const service = createBuildService({ embedService, openDb: async () => db });
    // Two summaries succeed, then the endpoint rejects the key (a final error: no retries).
    const down = { kind: 'error' as const, status: 401 };
    llm.enqueue(
      { kind: 'reply', text: 'First summary of the ashes.' },
      { kind: 'reply', text: 'Second summary of the ball.' },
      down,
      down,
      down,
      down,
    );
    await expect(service.build(request('r'))).rejects.toMatchObject({ code: 'AUTH' });
    const stopped = (await listTrees(db)).find((t) => t.id === 'r');
    expect(stopped?.status).toBe('failed');
    llm.reset();
    const outcome = await service.resume('r');
    expect(outcome.cache.summaryHits).toBeGreaterThanOrEqual(2);
    const bodies = summaryBodies();
    expect(new Set(bodies).size).toBe(bodies.length); // no summary requested twice after resuming
    expect((await getTree(db, 'r'))?.status).toBe('ready');
  });

  it('cancel stops the build (paused) and resume finishes it', async () => {
    const { db } = await openFixture({ empty: true });
    await saveEndpoint(db);
    const service = createBuildService({ embedService, openDb: async () => db });
    llm.configure({ latencyMs: 30 });
    const pending = service.build(request('c'), undefined, (p) => {
      if (p.event.stage === 'summarize' && p.event.done === 1) service.cancel('c');
    });
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect((await getTree(db, 'c'))?.status).toBe('paused');
    llm.configure({ latencyMs: 0 });
    const outcome = await service.resume('c');
    expect(outcome.cache.summaryHits).toBeGreaterThanOrEqual(1);
    expect((await getTree(db, 'c'))?.status).toBe('ready');
  });

  it('a stop message for a tree being deleted (from any tab) aborts its build; the delete leaves nothing', async () => {
    const { db } = await openFixture({ empty: true });
    await saveEndpoint(db);
    // A FAKE BroadcastChannel: the test posts what another tab's page would.
    const channel: ChannelLike = { postMessage: () => undefined, close: () => undefined, onmessage: null };
    const service = createBuildService({ embedService, openDb: async () => db, channel });
    llm.configure({ latencyMs: 30 });
    let stoppedAt = Infinity;
    const pending = service.build(request('d'), undefined, (p) => {
      if (p.event.stage === 'summarize' && p.event.done === 1 && stoppedAt === Infinity) {
        stoppedAt = Date.now();
        channel.onmessage?.({ data: { type: 'stop', treeId: 'd', reason: 'deleted', from: 'other-tab' } });
      }
    });
    await expect(pending).rejects.toMatchObject({ name: 'AbortError', message: /deleted/ });
    // The run has ended: every call in flight settled and was flushed before the build let go.
    const settled = Date.now();
    await deleteTree(db, 'd');
    await new Promise((r) => setTimeout(r, 200));
    expect(llm.modelRequests.filter((r) => r.time > settled)).toEqual([]);
    expect(llm.modelRequests.filter((r) => r.time > stoppedAt).length).toBeLessThanOrEqual(2); // in flight
    expect(await countRecords(db)).toMatchObject({
      trees: 0,
      nodes: 0,
      checkpoints: 0,
      cache: 0,
      documents: 0,
    });
  });

  it('a disk that fills mid-build (FAKE full disk) keeps the finished summaries; resume pays for none twice', async () => {
    const { db } = await openFixture({ empty: true });
    await saveEndpoint(db);
    const service = createBuildService({ embedService, openDb: async () => db, channel: null });
    let disk: ReturnType<typeof fillDisk> | undefined;
    try {
      const pending = service.build(request('q'), undefined, (p) => {
        if (p.event.stage === 'summarize' && p.event.done === 2) disk ??= fillDisk();
      });
      await expect(pending).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED' });
    } finally {
      disk?.restore();
    }
    const kept = (await db.getAll('cache')).filter((e) => e.kind === 'summary').length;
    expect(kept).toBeGreaterThanOrEqual(2);
    llm.reset();
    const outcome = await service.resume('q');
    // Every kept summary is reused, and only the others are requested (each once).
    expect(outcome.cache.summaryHits).toBe(kept);
    expect(summaryBodies()).toHaveLength(outcome.cache.summaryMisses);
    expect(new Set(summaryBodies()).size).toBe(outcome.cache.summaryMisses);
    expect((await getTree(db, 'q'))?.status).toBe('ready');
  });

  it('a recorded build whose tree was deleted before it began fails NOT_FOUND and records nothing again', async () => {
    const { db } = await openFixture({ empty: true });
    const service = createBuildService({ embedService, openDb: async () => db, channel: null });
    await expect(
      service.build(request('gone'), undefined, undefined, { recorded: true }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', details: { treeId: 'gone' } });
    expect(await getTree(db, 'gone')).toBeUndefined();
    expect(llm.modelRequests).toEqual([]);
  });

  it('records the build before the model loads: loading is its first stage, recorded before it starts', async () => {
    const { db } = await openFixture({ empty: true });
    const seen: (string | undefined)[] = [];
    // The embedding service, watched: when the model starts loading, storage already has the build there.
    const watched = {
      ...embedService,
      load: async (...args: Parameters<typeof embedService.load>) => {
        seen.push((await getTree(db, 'm'))?.status, (await getCheckpoint(db, 'm'))?.stage);
        return embedService.load(...args);
      },
    };
    const service = createBuildService({ embedService: watched, openDb: async () => db });
    // The page records the build itself first; the worker then runs the recorded build.
    await createTree(db, request('m'));
    const events: PipelineProgress[] = [];
    await service.build(request('m'), undefined, (p) => events.push(p));
    expect(seen).toEqual(['building', 'model-load']);
    const stages = events.filter((e) => !e.recorded).map((e) => e.event.stage);
    expect(stages[0]).toBe('model-load');
    expect(stages.indexOf('chunk')).toBeGreaterThan(0);
    // Each stage change is reported a second time once storage has it (the library reads it from there).
    expect(events.filter((e) => e.recorded).map((e) => e.event.stage)).toEqual(
      expect.arrayContaining(['model-load', 'chunk', 'embed-leaves', 'cluster', 'summarize']),
    );
    expect((await getTree(db, 'm'))?.status).toBe('ready');
  });

  it('falls back to the offline model when the hub is unreachable (FAKE hub failure), records it and resumes with it', async () => {
    const { db } = await openFixture({ empty: true });
    await saveEndpoint(db);
    const hubModel = 'Xenova/multi-qa-MiniLM-L6-cos-v1';
    const noHub = {
      ...embedService,
      load: async (...args: Parameters<typeof embedService.load>) => {
        if (args[0].model === hubModel)
          throw new EmbedderError('HUB_UNREACHABLE', 'The model hub could not be reached.', {});
        return embedService.load(...args);
      },
    };
    const service = createBuildService({ embedService: noHub, openDb: async () => db });
    const wanted: BuildRequest = { ...request('f'), embedding: { kind: 'browser', model: hubModel } };
    const events: PipelineProgress[] = [];
    llm.enqueue({ kind: 'reply', text: 'One summary.' }, { kind: 'error', status: 401 });
    await expect(service.build(wanted, undefined, (p) => events.push(p))).rejects.toMatchObject({
      code: 'AUTH',
    });
    expect(events.map((e) => e.event)).toContainEqual({
      stage: 'model-fallback',
      from: hubModel,
      to: OFFLINE_MODEL_ID,
    });
    const record = await getTree(db, 'f');
    expect(record?.embedding).toEqual({ model: OFFLINE_MODEL_ID, dtype: 'q8', fallbackFrom: hubModel });
    expect((await listTrees(db)).find((t) => t.id === 'f')?.embeddingFallbackFrom).toBe(hubModel);
    // A resume runs with the model the embeddings came from, not the unreachable one.
    expect((await resumeRequest(db, 'f')).embedding).toMatchObject({ model: OFFLINE_MODEL_ID });
    llm.reset();
    await service.resume('f');
    expect((await loadTree(db, 'f')).embedding.model).toBe(OFFLINE_MODEL_ID);
  });

  it('a model that cannot load fails the build and keeps it recorded, resumable', async () => {
    const { db } = await openFixture({ empty: true });
    const broken = {
      ...embedService,
      load: async () => {
        throw new EmbedderError('LOAD_FAILED', 'The embedding model could not be loaded: bad file.', {});
      },
    };
    const service = createBuildService({ embedService: broken, openDb: async () => db });
    await expect(service.build(request('x'))).rejects.toMatchObject({ code: 'LOAD_FAILED' });
    const record = await getTree(db, 'x');
    expect(record?.status).toBe('failed');
    expect(record?.error?.code).toBe('LOAD_FAILED');
    expect((await getCheckpoint(db, 'x'))?.stage).toBe('model-load');
  });
});

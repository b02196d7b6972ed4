/**
 * Builds whose summaries the built-in model writes, through the build service as the build worker runs them:
 * the real generate service with the committed random-weight Qwen2 (local:aerie-tiny-qwen2), the committed
 * GloVe embedder, and a FAKE IndexedDB (fake-indexeddb). Checked: the model's load is a stage, a measured
 * warm-up gives the expected time before the first summary, tokens/s are reported, the tree records the model,
 * the summaries are generated (not sentences of the document), cancel and resume lose nothing, a rebuild costs
 * no generation, and an unreachable hub (a SCRIPTED load failure) falls back to extractive summaries.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isAbortError } from '../../src/core/abort';
import { countTokens } from '../../src/core/text';
import { createEmbedService } from '../../src/models/embed';
import { createGenerateService, GeneratorError, DEFAULT_CPU_BATCH_SIZE } from '../../src/models/generate';
import { TEST_GENERATOR_ID } from '../../src/models/generate/generator-presets';
import { OFFLINE_MODEL_ID } from '../../src/models/embed/embedding-presets';
import { createBuildService } from '../../src/pipeline/build-service';
import type { BuildRequest, PipelineProgress, SummaryEstimate } from '../../src/protocol/build';
import { getTree, listTrees, loadTree, resumeRequest } from '../../src/storage';
import { openFixture } from '../support/storage-fixture';

const cinderella = readFileSync(new URL('../fixtures/cinderella.txt', import.meta.url), 'utf8');
const MODELS = fileURLToPath(new URL('../../public/models/', import.meta.url));
const embedService = createEmbedService({ localModelPath: MODELS }, false);
const generateService = createGenerateService(
  { localModelPath: MODELS },
  { probeGpu: async () => ({ adapter: false, f16: false, fallback: false, name: '' }) },
);
const TAG = `builtin:${TEST_GENERATOR_ID}@q8`;
/** Short summaries keep the tiny model's work small; the path is the same at any budget. */
const SUMMARY_TOKENS = 24;

function request(buildId: string): BuildRequest {
  return {
    buildId,
    title: 'Cinderella',
    documents: [{ id: 'cinderella', name: 'cinderella.txt', text: cinderella }],
    params: { concurrency: 2, summaryTokens: SUMMARY_TOKENS },
    embedding: { kind: 'browser', model: OFFLINE_MODEL_ID, dtype: 'q8' },
    summarizer: { kind: 'builtin', generator: { model: TEST_GENERATOR_ID } },
  };
}

const stages = (events: PipelineProgress[]) => [...new Set(events.map((e) => e.event.stage))];

describe('build service with the built-in model (tiny Qwen2, GloVe, fake IndexedDB)', () => {
  it('loads the model, estimates from a warm-up, writes the summaries and records the model', async () => {
    const { db } = await openFixture({ empty: true });
    // The real service, watched: which requests may be batched, and how many wait or run at once.
    let inFlight = 0;
    let mostInFlight = 0;
    const batchFlags: (boolean | undefined)[] = [];
    const watched: typeof generateService = {
      ...generateService,
      generate: async (...args: Parameters<typeof generateService.generate>) => {
        batchFlags.push(args[2].batch);
        mostInFlight = Math.max(mostInFlight, ++inFlight);
        try {
          return await generateService.generate(...args);
        } finally {
          inFlight--;
        }
      },
    };
    const service = createBuildService({
      embedService,
      generateService: watched,
      openDb: async () => db,
    });
    const events: PipelineProgress[] = [];
    const outcome = await service.build(request('b1'), undefined, (p) => events.push(p));

    const order = stages(events);
    expect(order.indexOf('llm-load')).toBeGreaterThan(order.indexOf('model-load'));
    expect(order.indexOf('llm-estimate')).toBeGreaterThan(order.indexOf('llm-load'));
    // The estimate comes before the first summary is asked for.
    expect(order.indexOf('summarize')).toBeGreaterThan(order.indexOf('llm-estimate'));
    const estimate = events.find((e) => e.event.stage === 'llm-estimate')!.event as SummaryEstimate;
    expect(estimate.model).toBe(TAG);
    expect(estimate.placement).toEqual({ device: 'cpu' }); // measured where the summaries are written
    expect(estimate.summaries.fewest).toBeLessThanOrEqual(estimate.summaries.likely);
    expect(estimate.summaries.likely).toBeLessThanOrEqual(estimate.summaries.most);
    for (const s of Object.values(estimate.seconds)) expect(s).toBeGreaterThan(0);
    expect(estimate.speed.decodeTokensPerSecond).toBeGreaterThan(0);
    // The warm-up measured the model writing several summaries together, and the build asked for them so.
    expect(estimate.batchRows).toBe(DEFAULT_CPU_BATCH_SIZE);
    expect(batchFlags.length).toBeGreaterThan(1);
    expect(batchFlags.every((b) => b === true)).toBe(true);
    expect(mostInFlight).toBeGreaterThan(2); // more than the request's concurrency of 2
    // Tokens/s are reported once the first summary is written.
    const rated = events.filter((e) => e.generation !== undefined);
    expect(rated.length).toBeGreaterThan(0);
    expect(rated.at(-1)!.generation!.decodeTokensPerSecond).toBeGreaterThan(0);
    expect(events.at(-1)!.usage.requests).toBe(outcome.cache.summaryMisses);

    const tree = await loadTree(db, 'b1');
    const summaries = tree.nodes.filter((n) => n.layer > 0);
    // The random-weight model writes 24 of its tokens, often more cl100k tokens: those are cut, and counted.
    const recorded = (await listTrees(db))[0].summarizer;
    expect(recorded).toMatchObject({ kind: 'llm', model: TAG });
    if (recorded.cuts) expect(recorded.cuts).toMatchObject({ of: summaries.length, budget: 24, model: TAG });
    expect(tree.summarizer).toEqual(recorded);
    expect(summaries.length).toBeGreaterThan(0);
    for (const node of summaries) expect(countTokens(node.text)).toBeLessThanOrEqual(24);
    expect(outcome.cache.summaryMisses).toBe(summaries.length);
    for (const node of summaries) {
      expect(node.text.trim().length).toBeGreaterThan(0);
      // Generated, not extracted: an extractive summary is made of the document's own sentences.
      expect(cinderella.includes(node.text)).toBe(false);
    }

    // The same documents and settings again: every summary comes from the cache, none is generated.
    const again = await service.build(request('b2'));
    expect(again.cache).toMatchObject({ summaryHits: summaries.length, summaryMisses: 0 });
    expect((await loadTree(db, 'b2')).nodes.map((n) => n.text)).toEqual(tree.nodes.map((n) => n.text));
  }, 300_000);

  it('cancels between summaries, then resumes without writing a finished summary again', async () => {
    const { db } = await openFixture({ empty: true });
    const service = createBuildService({ embedService, generateService, openDb: async () => db });
    let written = 0;
    const cancelled = await service
      .build(request('c1'), undefined, (p) => {
        if (p.event.stage === 'summarize' && p.event.done > 0 && written === 0) {
          written = p.event.done;
          service.cancel('c1');
        }
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(isAbortError(cancelled)).toBe(true);
    expect((await getTree(db, 'c1'))?.status).toBe('paused');
    expect((await resumeRequest(db, 'c1')).summarizer).toEqual(request('c1').summarizer);
    const resumed = await service.resume('c1');
    expect(resumed.cache.summaryHits).toBeGreaterThanOrEqual(written);
    expect((await loadTree(db, 'c1')).summarizer).toMatchObject({ kind: 'llm', model: TAG });
  }, 300_000);

  it('falls back to extractive summaries when the hub is unreachable (SCRIPTED load failure), and says so', async () => {
    const { db } = await openFixture({ empty: true });
    const hubModel = 'onnx-community/Qwen2.5-0.5B-Instruct';
    const noHub = {
      ...generateService,
      load: async () => {
        throw new GeneratorError('HUB_UNREACHABLE', 'The model hub (huggingface.co) could not be reached.', {
          model: hubModel,
        });
      },
    };
    const service = createBuildService({ embedService, generateService: noHub, openDb: async () => db });
    const wanted: BuildRequest = {
      ...request('f1'),
      summarizer: { kind: 'builtin', generator: { model: hubModel } },
    };
    const events: PipelineProgress[] = [];
    await service.build(wanted, undefined, (p) => events.push(p));
    expect(events.map((e) => e.event)).toContainEqual({
      stage: 'summarizer-fallback',
      from: hubModel,
      to: 'extractive',
      reason: 'The model hub (huggingface.co) could not be reached.',
    });
    const record = await getTree(db, 'f1');
    expect(record?.status).toBe('ready');
    expect(record?.summarizer).toEqual({ kind: 'extractive', fallbackFrom: hubModel });
    expect(record?.request?.summarizer).toEqual({ kind: 'extractive' });
    expect((await listTrees(db))[0].summarizer.fallbackFrom).toBe(hubModel);
  }, 300_000);

  it('refuses a built-in model build when no generate service is connected', async () => {
    const { db } = await openFixture({ empty: true });
    const service = createBuildService({ embedService, openDb: async () => db });
    await expect(service.build(request('n1'))).rejects.toMatchObject({ code: 'NO_GENERATOR' });
    expect((await getTree(db, 'n1'))?.status).toBe('failed');
  }, 120_000);
});

/**
 * The generation benchmark page: bench/llm.bench.ts drives it with Playwright through `window.aerieBench.run`.
 * Each run starts a fresh worker of bench/browser/llm-bench.worker.ts (the app's generate service), loads the
 * model (timed apart), primes it with a tiny generation, then times whole generations from the page.
 */
import { releaseProxy, wrap } from 'comlink';
import type { ChatMessage } from '../../src/core/chat';
import type { GeneratorChoice, GenerationResult } from '../../src/models/generate';
import type { LlmBenchLoad, LlmBenchWorkerApi, LlmBenchWorkerConfig } from './llm-bench.worker';

/** One timed configuration. */
export interface LlmPageConfig {
  choice: GeneratorChoice;
  messages: ChatMessage[];
  /** Tokens generated per timed run. */
  newTokens: number;
  /** Timed runs (the fastest prefill and the fastest decoding count). */
  repeats: number;
  worker: LlmBenchWorkerConfig;
  /**
   * Summaries asked for all at once as a build asks (`batch: true`), after the timed runs: the generate service
   * writes up to `worker.batchSize` of them together. Their results are `LlmPageResult.batch`.
   */
  batchPrompts?: ChatMessage[][];
}

/** What a run measured. */
export interface LlmPageResult {
  load: LlmBenchLoad;
  /** Milliseconds from creating the worker to a loaded model (fetch from the bench server, session creation). */
  loadMs: number;
  runs: GenerationResult[];
  /** The results of `batchPrompts`, in order, and the wall time from asking to the last result. */
  batch?: { results: GenerationResult[]; wallMs: number };
  pageCrossOriginIsolated: boolean;
}

/** Tokens of the untimed first generation (first-run allocations). */
const PRIMING_TOKENS = 2;

async function run(config: LlmPageConfig): Promise<LlmPageResult> {
  release();
  const started = performance.now();
  const worker = new Worker(new URL('./llm-bench.worker.ts', import.meta.url), {
    type: 'module',
    name: 'aerie-llm-bench',
  });
  const api = wrap<LlmBenchWorkerApi>(worker);
  try {
    await api.open(config.worker);
    const load = await api.load(config.choice);
    const loadMs = performance.now() - started;
    await api.generate(config.messages, config.choice, PRIMING_TOKENS);
    const runs: GenerationResult[] = [];
    for (let r = 0; r < config.repeats; r++)
      runs.push(await api.generate(config.messages, config.choice, config.newTokens));
    let batch: LlmPageResult['batch'];
    if (config.batchPrompts) {
      const asked = performance.now();
      const results = await Promise.all(
        config.batchPrompts.map((messages) => api.generate(messages, config.choice, config.newTokens, true)),
      );
      batch = { results, wallMs: performance.now() - asked };
    }
    // The worker stays until `release`, so the bench can read the process's memory with the model and the
    // batch's cache still allocated.
    live = { worker, release: () => api[releaseProxy]() };
    return {
      load,
      loadMs,
      runs,
      ...(batch ? { batch } : {}),
      pageCrossOriginIsolated: self.crossOriginIsolated,
    };
  } catch (error) {
    api[releaseProxy]();
    worker.terminate();
    throw error;
  }
}

let live: { worker: Worker; release: () => void } | undefined;

/** Ends the last run's worker. */
function release(): void {
  live?.release();
  live?.worker.terminate();
  live = undefined;
}

(
  globalThis as {
    aerieBench?: { run(config: LlmPageConfig): Promise<LlmPageResult>; release(): void };
  }
).aerieBench = { run, release };

/**
 * The generation benchmark page: bench/llm.bench.ts drives it with Playwright through `window.aerieBench.run`.
 * Each run starts a fresh worker of bench/browser/llm-bench.worker.ts (the app's generate service), loads the
 * model (timed apart), primes it with a tiny generation, then times whole generations from the page.
 */
import { releaseProxy, wrap } from 'comlink';
import type { ChatMessage } from '../../src/llm/types';
import type { GeneratorChoice } from '../../src/models/generator-presets';
import type { GenerationResult } from '../../src/models/generator';
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
}

/** What a run measured. */
export interface LlmPageResult {
  load: LlmBenchLoad;
  /** Milliseconds from creating the worker to a loaded model (fetch from the bench server, session creation). */
  loadMs: number;
  runs: GenerationResult[];
  pageCrossOriginIsolated: boolean;
}

/** Tokens of the untimed first generation (first-run allocations). */
const PRIMING_TOKENS = 2;

async function run(config: LlmPageConfig): Promise<LlmPageResult> {
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
    return { load, loadMs, runs, pageCrossOriginIsolated: self.crossOriginIsolated };
  } finally {
    api[releaseProxy]();
    worker.terminate();
  }
}

(globalThis as { aerieBench?: { run(config: LlmPageConfig): Promise<LlmPageResult> } }).aerieBench = { run };

/**
 * The benchmark page: bench/embed.bench.ts drives it with Playwright through `window.aerieBench.run`. Each run
 * starts fresh workers of bench/browser/embed-bench.worker.ts (the app's embedding service), loads the model
 * (not timed), warms up, then times complete embed calls from the page, as the app makes them.
 */
import { releaseProxy, wrap } from 'comlink';
import type { ModelChoice } from '../../src/models/embed';
import { mergeUses, type DeviceUse } from '../../src/models/device';
import type { BenchWorkerApi, BenchWorkerConfig, BenchWorkerInfo } from './embed-bench.worker';

/** One timed configuration. */
export interface PageRunConfig {
  texts: string[];
  choice: ModelChoice;
  batchSize: number;
  /** Timed passes over all texts; the fastest is the result. */
  repeats: number;
  /** No further pass starts once the passes so far took this many milliseconds (at least one pass runs). */
  budgetMs?: number;
  /** Texts embedded once before timing (first-run allocations and compilation); 0: none. */
  warmupTexts: number;
  /** Also each text's sentence vectors, as a build embeds its leaves (EmbedApi.embed's `sentences`). */
  sentences?: boolean;
  /** Workers embedding disjoint halves (thirds, …) of the texts at the same time. Default 1 (the app). */
  workers?: number;
  worker: BenchWorkerConfig;
}

/** What a run measured. */
export interface PageRunResult {
  /** Milliseconds of each timed pass over all texts, as the page saw them. */
  runsMs: number[];
  /**
   * Sum over batches of each batch's fastest time across the passes (slowest worker when several): on a shared
   * machine, other work only adds time, so this is the least disturbed estimate of a pass.
   */
  bestBatchesMs: number;
  /** Share of the fastest pass spent inside ONNX Runtime's session.run (first worker). */
  ortShare: number;
  pageCrossOriginIsolated: boolean;
  workers: BenchWorkerInfo[];
  dim: number;
  /** The embedding of the first text (to compare with the reference's). */
  first: number[];
  /** Where the timed passes' texts were embedded, by the embedding service's account (all workers, all passes). */
  ranOn: DeviceUse[];
}

async function run(config: PageRunConfig): Promise<PageRunResult> {
  const count = config.workers ?? 1;
  const workers = Array.from(
    { length: count },
    () =>
      new Worker(new URL('./embed-bench.worker.ts', import.meta.url), {
        type: 'module',
        name: 'aerie-embed-bench',
      }),
  );
  const apis = workers.map((w) => wrap<BenchWorkerApi>(w));
  try {
    // Worker w embeds every count-th text, so each gets the same mix of lengths.
    const shares = apis.map((_, w) => config.texts.filter((_, i) => i % count === w));
    const infos: BenchWorkerInfo[] = [];
    for (const api of apis) {
      await api.open(config.worker);
      infos.push(await api.load(config.choice));
    }
    if (config.warmupTexts > 0) {
      await Promise.all(
        apis.map((api, w) =>
          api.embed(
            shares[w].slice(0, config.warmupTexts),
            config.choice,
            config.batchSize,
            config.sentences,
          ),
        ),
      );
    }
    let ranOn: DeviceUse[] = [];
    const runsMs: number[] = [];
    const fastest = apis.map((): number[] => []);
    let first: number[] = [];
    let dim = 0;
    let ortShare = 0;
    let best = Infinity;
    const budget = config.budgetMs ?? Infinity;
    for (let r = 0; r < config.repeats && (r === 0 || runsMs.reduce((a, b) => a + b, 0) < budget); r++) {
      const start = performance.now();
      const results = await Promise.all(
        apis.map((api, w) => api.embed(shares[w], config.choice, config.batchSize, config.sentences)),
      );
      const ms = performance.now() - start;
      runsMs.push(ms);
      for (const { batch } of results) ranOn = mergeUses(ranOn, batch.ranOn ?? []);
      if (ms < best) {
        best = ms;
        ortShare = results[0].runMs / results[0].batchMs.reduce((sum, t) => sum + t, 0);
      }
      results.forEach(({ batchMs }, w) =>
        batchMs.forEach((t, b) => (fastest[w][b] = Math.min(fastest[w][b] ?? t, t))),
      );
      dim = results[0].batch.dim;
      first = Array.from(results[0].batch.data.subarray(0, dim));
    }
    const bestBatchesMs = Math.max(...fastest.map((times) => times.reduce((sum, ms) => sum + ms, 0)));
    return {
      runsMs,
      bestBatchesMs,
      ortShare,
      pageCrossOriginIsolated: self.crossOriginIsolated,
      workers: infos,
      dim,
      first,
      ranOn,
    };
  } finally {
    apis.forEach((api) => api[releaseProxy]());
    workers.forEach((w) => w.terminate());
  }
}

/** The page's entry point for the driver. */
export interface AerieBenchPage {
  run(config: PageRunConfig): Promise<PageRunResult>;
}

(globalThis as { aerieBench?: AerieBenchPage }).aerieBench = { run };

/**
 * The whole-pipeline benchmark page, built by `vite build` like the app: bench/build.bench.ts drives it with
 * Playwright through `window.aerieBuildBench.run`. It asks the app's own workers (src/client/workers.ts: the
 * build worker, connected to the embedding worker) for a build, exactly as the page's "Build tree" does, and
 * records when each stage started (the worker's own progress events, stamped where they happen).
 */
import { proxy } from 'comlink';
import { buildWorker, embedWorker, terminateAll } from '../../src/client/workers';
import type { BuildRequest, PipelineProgress } from '../../src/protocol/build';

/** One build to time. */
export interface BuildRunConfig {
  request: BuildRequest;
  /**
   * Load the embedding model and start the build worker before the clock starts, as the app does when a
   * document is added (src/models/embed/warmup.ts, useBuildWorkerWarmup) and the user clicks "Build tree" after that.
   */
  warm?: boolean;
}

/** A stage as the progress events named it (`cluster 1`, `embed-leaves`, …) and when it started. */
export interface StageMark {
  stage: string;
  /** Milliseconds since the build was asked for. */
  startMs: number;
  /** The stage's last reported count (e.g. chunks embedded), and its total. */
  done: number;
  total: number;
}

/** What a build measured. */
export interface BuildRunResult {
  /** From the request to the stored tree (the build worker's promise resolving). */
  totalMs: number;
  /** `Date.now()` when the build was asked for: stage times are relative to it. */
  startedAtMs: number;
  /** Stages in the order they started; a stage ends where the next one starts, the last at `doneMs`. */
  stages: StageMark[];
  /** When the `done` event came (the tree is complete; storing it follows). */
  doneMs: number;
  nodes: number;
  layers: number;
  hardwareConcurrency: number;
  crossOriginIsolated: boolean;
  /** With `warm`: how long loading the model took before the build was asked for. */
  warmMs?: number;
}

/**
 * `embed-leaves`, `cluster 1`, … and, inside a layer's clustering, its steps (`cluster 1 global-umap`,
 * `cluster 1 global-gmm`, `cluster 1 local`, with the re-clustering depth when it is not 0), so the note shows
 * what the clustering spends its time on.
 */
function stageKey(progress: PipelineProgress): string {
  const e = progress.event;
  const key = 'layer' in e && typeof e.layer === 'number' ? `${e.stage} ${e.layer}` : e.stage;
  const detail = (e as { detail?: { step: string; depth?: number } }).detail;
  if (!detail) return key;
  const step = detail.step.startsWith('local') ? 'local' : detail.step;
  return `${key} ${step}${detail.depth ? `@${detail.depth}` : ''}`;
}

async function run(config: BuildRunConfig): Promise<BuildRunResult> {
  let warmMs: number | undefined;
  const { embedding } = config.request;
  if (config.warm && embedding.kind === 'browser') {
    const warmStarted = Date.now();
    await embedWorker().load({ model: embedding.model, dtype: embedding.dtype, device: embedding.device });
    // The app also starts the build worker while documents wait (useBuildWorkerWarmup).
    await buildWorker();
    warmMs = Date.now() - warmStarted;
  }
  const startedAt = Date.now();
  const stages: StageMark[] = [];
  let doneMs = NaN;
  try {
    const api = await buildWorker();
    const outcome = await api.build(
      config.request,
      undefined,
      proxy((p: PipelineProgress) => {
        if (p.recorded) return;
        const key = stageKey(p);
        const at = p.at - startedAt;
        if (key === 'done') doneMs = at;
        let last = stages[stages.length - 1];
        if (!last || last.stage !== key) {
          last = { stage: key, startMs: at, done: 0, total: 0 };
          stages.push(last);
        }
        const e = p.event as { done?: number; total?: number };
        if (typeof e.done === 'number') last.done = e.done;
        if (typeof e.total === 'number') last.total = e.total;
      }),
    );
    return {
      totalMs: Date.now() - startedAt,
      startedAtMs: startedAt,
      stages,
      doneMs,
      nodes: outcome.nodes,
      layers: outcome.layers,
      hardwareConcurrency: navigator.hardwareConcurrency,
      crossOriginIsolated: self.crossOriginIsolated,
      warmMs,
    };
  } finally {
    terminateAll();
  }
}

/** The page's entry point for the driver. */
export interface AerieBuildBenchPage {
  run(config: BuildRunConfig): Promise<BuildRunResult>;
}

(globalThis as { aerieBuildBench?: AerieBuildBenchPage }).aerieBuildBench = { run };

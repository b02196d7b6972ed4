/**
 * How a build tells where it is: every event goes to the page at once, with the token usage, the built-in
 * model's rates and where the models ran; stages are recorded in storage (throttled, except at a stage change,
 * so the library shows where a build stopped), and the page hears `recorded` once storage has one. Notices are
 * shown, never recorded as a stage. Once the leaves are counted, the built-in model's expected time is
 * announced (`llm-estimate`) before its first summary.
 */
import type { BuildDocument } from '../core/build';
import type { UsageAccumulator } from '../llm';
import { isNotice, type BuildRequest, type PipelineEvent, type PipelineProgress } from '../protocol/build';
import { recordProgress, type AerieDb } from '../storage';
import { estimateSummaries, type BuiltinSummaries } from './builtin-summaries';
import type { DeviceTally } from './device-tally';

/** Progress is written to storage at most this often (the UI gets every event). */
export const PROGRESS_WRITE_INTERVAL_MS = 1000;

/** What the reporter of one build reads. */
export interface BuildReporterOptions {
  store: AerieDb;
  treeId: string;
  usage: UsageAccumulator;
  devices: DeviceTally;
  onProgress: ((p: PipelineProgress) => void) | undefined;
  /** The built-in model's summaries, once loaded (their rates and the estimate). */
  builtin: () => BuiltinSummaries | undefined;
  params: BuildRequest['params'];
  documents: readonly BuildDocument[];
}

/** The reporter of one build run. */
export function createBuildReporter(options: BuildReporterOptions) {
  const { store, treeId, usage, devices, onProgress } = options;
  let lastWrite = 0;
  let lastStage = '';
  let recorded: Promise<void> = Promise.resolve();
  let estimated = false;

  const snapshot = (event: PipelineEvent): PipelineProgress => {
    const progress: PipelineProgress = { event, usage: usage.snapshot(), at: Date.now() };
    const builtin = options.builtin();
    if (builtin && builtin.meter.completionTokens > 0) progress.generation = builtin.meter.speed;
    if (!devices.empty) progress.devices = devices.snapshot();
    return progress;
  };
  /** Records where the build is; the page hears `recorded` once storage has it (the library reads it). */
  const record = (progress: PipelineProgress): Promise<void> => {
    lastWrite = progress.at;
    lastStage = progress.event.stage;
    recorded = recordProgress(store, treeId, progress).then(
      () => onProgress?.({ ...progress, recorded: true }),
      () => undefined,
    );
    return recorded;
  };
  const report = (event: PipelineEvent): void => {
    const builtin = options.builtin();
    // Once the leaves are counted, and before any summary, the expected time of the built-in model's work.
    if (event.stage === 'embed-leaves' && !estimated && builtin?.sample) {
      estimated = true;
      const { summaryTokens, reductionDim, maxLayers } = options.params;
      report({
        stage: 'llm-estimate',
        ...estimateSummaries(builtin.info.tag, builtin.sample, event.total, options.documents, {
          summaryTokens,
          reductionDim,
          maxLayers,
        }),
      });
    }
    const progress = snapshot(event);
    onProgress?.(progress);
    if (isNotice(event)) return;
    // Throttled, except at stage changes, so the library shows where a build stopped.
    if (progress.at - lastWrite >= PROGRESS_WRITE_INTERVAL_MS || event.stage !== lastStage)
      void record(progress);
  };
  return {
    report,
    /** A stage that holds the worker (model loading, chunking) is recorded before it starts, then shown. */
    async enter(event: PipelineEvent): Promise<void> {
      const progress = snapshot(event);
      await record(progress);
      onProgress?.(progress);
    },
    /** Resolves once the latest progress write has settled. */
    settled: (): Promise<void> => recorded,
  };
}

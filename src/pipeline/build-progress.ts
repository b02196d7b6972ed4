/**
 * How a build tells where it is: events go to the page with the token usage, the built-in model's rates and
 * where the models ran — a stage's counts at most every PROGRESS_SEND_INTERVAL_MS (the latest; a new stage,
 * a notice and the end at once); stages are recorded in storage (throttled, except at a stage change, so the
 * library shows where a build stopped), and the page hears `recorded` once storage has one. Notices are shown,
 * never recorded as a stage. Once the leaves are counted, the built-in model's expected time is announced
 * (`llm-estimate`) before its first summary.
 */
import type { BuildDocument } from '../core/build';
import type { UsageAccumulator } from '../llm';
import { isNotice, type BuildRequest, type PipelineEvent, type PipelineProgress } from '../protocol/build';
import { recordProgress, type AerieDb } from '../storage';
import { estimateSummaries, type BuiltinSummaries } from './builtin-summaries';
import type { DeviceTally } from './device-tally';

/** Progress is written to storage at most this often. */
export const PROGRESS_WRITE_INTERVAL_MS = 1000;

/**
 * A stage's counts reach the page at most this often (ten times a second). Every event the page hears is a
 * message and a render on its main thread: unthrottled, chunking a 78k-token book sent 200 in half a second and
 * layer-1 clustering ~160 a second (its steps' details), about half a core of the two spent on drawing a
 * progress bar while the build waited for cores (a trace of `npm run bench build`, issue #44).
 */
export const PROGRESS_SEND_INTERVAL_MS = 100;

/** The stages whose events only update counts: the latest stands for those before it. */
const COUNTED_STAGES = new Set(['chunk', 'embed-leaves', 'cluster', 'summarize', 'embed-summaries']);

/** Which events one count stands for (a stage of a layer), or undefined for an event the page must see. */
function countedKey(event: PipelineEvent): string | undefined {
  if (!COUNTED_STAGES.has(event.stage)) return undefined;
  return 'layer' in event ? `${event.stage} ${event.layer}` : event.stage;
}

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
  /** The page's side: the counted stage it last heard, when, and the latest count held back since. */
  let sentKey: string | undefined;
  let sentAt = -Infinity;
  let held: PipelineProgress | undefined;
  let holdTimer: ReturnType<typeof setTimeout> | undefined;

  const send = (progress: PipelineProgress): void => {
    sentAt = progress.at;
    onProgress?.(progress);
  };
  /** Sends the count held back, if any (before anything that follows it, so the page sees events in order). */
  const release = (): void => {
    if (holdTimer !== undefined) clearTimeout(holdTimer);
    holdTimer = undefined;
    const progress = held;
    held = undefined;
    if (progress) send(progress);
  };
  /** To the page: a count within PROGRESS_SEND_INTERVAL_MS of the last of its stage waits; the rest go at once. */
  const toPage = (progress: PipelineProgress): void => {
    const key = countedKey(progress.event);
    if (key === undefined || key !== sentKey) {
      release();
      sentKey = key;
      send(progress);
      return;
    }
    const wait = sentAt + PROGRESS_SEND_INTERVAL_MS - progress.at;
    if (wait <= 0) {
      held = undefined;
      release();
      send(progress);
      return;
    }
    held = progress;
    holdTimer ??= setTimeout(release, wait);
  };

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
    toPage(progress);
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
      toPage(progress);
    },
    /** Sends the count held back, if any; resolves once the latest progress write has settled. */
    settled: (): Promise<void> => {
      release();
      return recorded;
    },
  };
}

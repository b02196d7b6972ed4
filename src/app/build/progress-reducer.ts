/**
 * Turns the build worker's progress reports into what the progress view shows: one row per stage and
 * layer, in the order the stages first reported, with counts, a rate and an estimate of the time left.
 *
 * Pure: time comes only from the events' `at` stamps, so a replayed sequence of events gives the same
 * state. Rates are measured from a stage's first event (items gained ÷ seconds since then), which ignores
 * the work done before that first report but never mixes in time spent in other stages.
 */
import { formatPercent } from '../format';
import type { UsageTotals } from '../../llm';
import { isNotice, type PipelineProgress, type PipelineStageEvent } from '../../protocol/build';
import type { BuildProgressState, StageProgress } from '../state/types';

/** Bytes in the MB the model download is counted in (decimal, like the preset sizes). */
export const BYTES_PER_MB = 1_000_000;

const MS_PER_SECOND = 1000;

/** Bytes of one model file as transformers.js reported them. */
export interface FileBytes {
  loaded: number;
  /** 0 while unknown. */
  total: number;
}

/**
 * A stage row with the bookkeeping the reducer needs between events. The extra fields are plain data
 * (they survive structured clone and storage); views may ignore them, except `detail`.
 */
export interface TrackedStage extends StageProgress {
  /** `at` of the stage's first event: the start of its rate measurement. */
  firstAt: number;
  /** `done` at the stage's first event. */
  firstDone: number;
  /** `at` of the stage's latest event (with `firstAt`, how long a finished stage took). */
  lastAt: number;
  /** Model loading: bytes per file, summed into done/total (in MB). */
  files?: Readonly<Record<string, FileBytes>>;
  /** Clustering: what it is doing now, e.g. "UMAP on all nodes (50%)", "mixture model on group 3". */
  detail?: string;
}

/** Token usage before any LLM call. */
export const NO_USAGE: Readonly<UsageTotals> = Object.freeze({
  promptTokens: 0,
  completionTokens: 0,
  totalTokens: 0,
  requests: 0,
  unreported: 0,
});

type StageId = StageProgress['id'];

/** Stages whose counts are not work items (clustering is one pass of unknown length). */
const UNMEASURED: ReadonlySet<StageId> = new Set<StageId>(['cluster']);

const UNITS: Readonly<Record<StageId, string>> = {
  'model-load': 'MB',
  'llm-load': 'MB',
  chunk: 'characters',
  'embed-leaves': 'chunks',
  cluster: 'pass',
  summarize: 'summaries',
  'embed-summaries': 'summaries',
};

/** What the UI calls a stage: "Loading model", "Chunking", "Summarizing layer 2", … */
export function stageLabel(id: StageId, layer?: number): string {
  switch (id) {
    case 'model-load':
      return 'Loading model';
    case 'llm-load':
      return 'Loading the language model';
    case 'chunk':
      return 'Chunking';
    case 'embed-leaves':
      return 'Embedding leaves';
    case 'cluster':
      return `Clustering layer ${layer ?? 1}`;
    case 'summarize':
      return `Summarizing layer ${layer ?? 1}`;
    case 'embed-summaries':
      return `Embedding summaries (layer ${layer ?? 1})`;
  }
}

/** The unit a stage counts in ("chunks", "MB", …). */
export function stageUnit(id: StageId): string {
  return UNITS[id];
}

/** The state before the first event of a build. `now` is milliseconds since the epoch. */
export function initialProgress(treeId: string, title: string, now: number): BuildProgressState {
  return {
    treeId,
    title,
    stages: [],
    usage: { ...NO_USAGE },
    startedAt: now,
    updatedAt: now,
    status: 'running',
  };
}

type ClusterDetail = {
  step: string;
  group?: number;
  fraction?: number;
  done?: number;
  groups?: number;
  workers?: number;
};

function clusterDetail(detail: ClusterDetail | undefined): string | undefined {
  if (!detail) return undefined;
  if (detail.step === 'local' && detail.groups !== undefined) {
    // Groups run in parallel: count finished ones, never a single group's share.
    const workers = detail.workers === 1 ? '1 worker' : `${detail.workers ?? 1} workers`;
    return `UMAP and mixture models in groups: ${detail.done ?? 0} of ${detail.groups} done (${workers})`;
  }
  const where = detail.group === undefined ? 'all nodes' : `group ${detail.group + 1}`;
  const what = detail.step.endsWith('umap') ? `UMAP on ${where}` : `mixture model on ${where}`;
  return detail.fraction === undefined ? what : `${what} (${formatPercent(detail.fraction, 'en-US')})`;
}

function isComplete(stage: StageProgress): boolean {
  return stage.total > 0 && stage.done >= stage.total;
}

/** Marks a stage finished: full, no estimate left (its average rate stays). */
function finish(stage: StageProgress): StageProgress {
  if (stage.status === 'done') return stage;
  const next: TrackedStage = { ...(stage as TrackedStage), status: 'done', etaSeconds: undefined };
  if (next.total > 0) next.done = Math.max(next.done, next.total);
  delete next.detail;
  return next;
}

/** Rate since the stage's first event and time left at that rate; undefined until measurable. */
function measure(stage: TrackedStage): Pick<StageProgress, 'ratePerSecond' | 'etaSeconds'> {
  if (UNMEASURED.has(stage.id)) return {};
  const seconds = (stage.lastAt - stage.firstAt) / MS_PER_SECOND;
  const gained = stage.done - stage.firstDone;
  if (!(seconds > 0) || !(gained > 0)) return {};
  const ratePerSecond = gained / seconds;
  if (!(stage.total > 0)) return { ratePerSecond };
  return { ratePerSecond, etaSeconds: Math.max(0, stage.total - stage.done) / ratePerSecond };
}

/** done/total of the event in the stage's unit; model loading sums every file's bytes. */
function countsOf(
  event: PipelineStageEvent,
  previous: TrackedStage | undefined,
): Pick<TrackedStage, 'done' | 'total' | 'files' | 'detail'> {
  if (event.stage === 'model-load' || event.stage === 'llm-load') {
    const loaded = event.status === 'done' ? Math.max(event.loaded, event.total) : event.loaded;
    const files = { ...previous?.files, [event.file]: { loaded, total: event.total } };
    let loadedBytes = 0;
    let totalBytes = 0;
    for (const file of Object.values(files)) {
      loadedBytes += file.loaded;
      totalBytes += file.total;
    }
    return { done: loadedBytes / BYTES_PER_MB, total: totalBytes / BYTES_PER_MB, files };
  }
  if (event.stage === 'done') return { done: 0, total: 0 };
  const detail =
    event.stage === 'cluster' && event.done < event.total ? clusterDetail(event.detail) : undefined;
  return { done: event.done, total: event.total, ...(detail === undefined ? {} : { detail }) };
}

/**
 * The state after one progress report. A stage not seen before is appended; when it is not model loading,
 * every earlier stage is marked done (the pipeline runs its stages one after another). Model loading runs
 * inside whichever stage first needs the model, so it only closes earlier stages that are already complete.
 * A 'done' event finishes every stage and the build. Usage is the report's.
 */
export function reduceProgress(state: BuildProgressState, p: PipelineProgress): BuildProgressState {
  const event = p.event;
  const usage = { ...p.usage };
  const updatedAt = Math.max(state.updatedAt, p.at);
  if (p.generation) state = { ...state, generation: { ...p.generation } };
  if (p.devices) state = { ...state, devices: p.devices };
  if (event.stage === 'done') {
    return { ...state, stages: state.stages.map(finish), usage, updatedAt, status: 'done' };
  }
  if (event.stage === 'llm-estimate') {
    const { stage: _stage, ...estimate } = event;
    return { ...state, summarizer: 'builtin', estimate, updatedAt };
  }
  if (event.stage === 'summarizer-fallback')
    return { ...state, summarizer: 'extractive', summarizerFallback: event.reason, updatedAt };
  if (event.stage === 'summary-cut') {
    const { stage: _stage, ...cuts } = event;
    return { ...state, summaryCuts: cuts, updatedAt };
  }
  if (isNotice(event)) return state; // a notice (useBuild shows it), not a stage
  const layer = 'layer' in event ? event.layer : undefined;
  const index = state.stages.findIndex((s) => s.id === event.stage && s.layer === layer);
  const previous = index < 0 ? undefined : (state.stages[index] as TrackedStage);
  const counts = countsOf(event, previous);

  let stage: TrackedStage;
  if (previous) {
    stage = {
      ...previous,
      ...counts,
      lastAt: Math.max(previous.lastAt, p.at),
      status: previous.status === 'done' ? 'done' : 'active',
    };
    if (counts.detail === undefined) delete stage.detail;
  } else {
    stage = {
      id: event.stage,
      label: stageLabel(event.stage, layer),
      ...(layer === undefined ? {} : { layer }),
      unit: stageUnit(event.stage),
      status: 'active',
      firstAt: p.at,
      firstDone: counts.done,
      lastAt: p.at,
      ...counts,
    };
  }
  const measured = measure(stage);
  stage.ratePerSecond = measured.ratePerSecond;
  stage.etaSeconds = stage.status === 'done' ? undefined : measured.etaSeconds;

  let stages: StageProgress[];
  if (previous) {
    stages = state.stages.slice();
    stages[index] = stage;
  } else {
    const closesAll = event.stage !== 'model-load';
    stages = state.stages.map((s) => (closesAll || isComplete(s) ? finish(s) : s));
    stages.push(stage);
  }
  return { ...state, stages, usage, updatedAt };
}

/** The state once the user asked to cancel (only a running build can be cancelled). */
export function markCancelling(state: BuildProgressState): BuildProgressState {
  return state.status === 'running' ? { ...state, status: 'cancelling' } : state;
}

/**
 * The state once the build stopped without finishing: `cancelled` (the user cancelled; the build can be
 * resumed) or `failed`, with a sentence the user can act on. Stages keep their counts.
 * @param at milliseconds since the epoch when it stopped (default: the latest event's).
 */
export function markStopped(
  state: BuildProgressState,
  status: 'cancelled' | 'failed',
  message?: string,
  at: number = state.updatedAt,
): BuildProgressState {
  const next: BuildProgressState = {
    ...state,
    status,
    updatedAt: Math.max(state.updatedAt, at),
    stages: state.stages.map((s) => (s.etaSeconds === undefined ? s : { ...s, etaSeconds: undefined })),
  };
  if (message === undefined) delete next.message;
  else next.message = message;
  return next;
}

/**
 * The progress of one build: a row per stage (a progress bar named after the stage, with "done / total
 * unit · rate · ETA"), the LLM tokens spent, the elapsed time, and Cancel while running or the reason and
 * Resume once it stopped. Rows have a fixed height and numbers use tabular figures, so nothing jumps as
 * counts change.
 */
import { useEffect, useState } from 'react';
import {
  formatCount,
  formatDecimal,
  formatDuration,
  formatDurationMs,
  formatPercent,
  formatQuantity,
  formatRate,
} from '../format';
import type { UsageTotals } from '../../llm';
import type { BuildProgressState, StageProgress } from '../state/types';
import { summaryCutText } from './budget-text';
import { estimateSummary, formatTokenRate } from './builtin-text';
import { devicesLines } from './devices-text';
import type { TrackedStage } from './progress-reducer';
import './build.css';

/** Props of `ProgressView`. */
export interface ProgressViewProps {
  progress: BuildProgressState;
  /** Asks the build to stop; the button then shows "Cancelling…" until the state changes. */
  onCancel(): void;
  /**
   * Restarts a failed or cancelled build from its checkpoint; without it there is no Resume button. A build that
   * could not be recorded (`progress.unrecorded`) never offers Resume.
   */
  onResume?(): void;
  /** Starts again a build that could not be recorded (its documents are still waiting). */
  onBuildAgain?(): void;
  /** Asks the browser to keep this site's data on this device (offered when storage was full). */
  onKeepData?(): void;
}

/** How often the elapsed time is refreshed while the build runs. */
const TICK_MS = 1000;
const MS_PER_SECOND = 1000;
/** Decimals of MB counts ("12.3 / 23.0 MB"). */
const MB_DECIMALS = 1;

const STAGE_ICONS: Record<StageProgress['status'] | 'stopped', string> = {
  pending: '○',
  active: '●',
  done: '✓',
  stopped: '■',
};

const STATUS_TEXT: Record<BuildProgressState['status'], string> = {
  running: 'Building…',
  cancelling: 'Cancelling…',
  done: 'Done',
  cancelled: 'Cancelled',
  failed: 'Failed',
};

function amount(value: number, unit: string): string {
  return unit === 'MB' ? formatDecimal(value, MB_DECIMALS, MB_DECIMALS) : formatCount(value);
}

/** What a stage row says: its counts ("12 / 40 chunks") and its pace ("3.1/s · ETA 10 s"). */
export interface StageTexts {
  counts: string;
  pace: string;
}

/** The counts and pace of a stage, as its row shows them. */
export function stageTexts(stage: StageProgress): StageTexts {
  const tracked = stage as Partial<TrackedStage>;
  if (stage.status === 'pending') return { counts: 'Waiting', pace: '' };
  const took = stage.status === 'done' ? stageDuration(tracked) : undefined;
  if (stage.id === 'model-load' && stage.total === 0) {
    // No sizes: the files came from the app itself or the browser's cache, not a download.
    return { counts: stage.status === 'done' ? 'Ready (no download)' : 'Loading…', pace: took ?? '' };
  }
  if (stage.id === 'cluster') {
    if (stage.status === 'done') return { counts: 'Done', pace: took ?? '' };
    return { counts: tracked.detail ?? 'Working…', pace: '' };
  }
  const counts =
    stage.total > 0
      ? `${amount(stage.done, stage.unit)} / ${amount(stage.total, stage.unit)} ${stage.unit}`
      : `${amount(stage.done, stage.unit)} ${stage.unit}`;
  const pace: string[] = [];
  // A finished stage says how long it took; its average rate would only crowd the line.
  if (stage.ratePerSecond !== undefined && !took) {
    pace.push(formatRate(stage.ratePerSecond, stage.unit === 'MB' ? 'MB' : ''));
  }
  if (took) pace.push(took);
  else if (stage.status !== 'done' && stage.etaSeconds !== undefined) {
    pace.push(`ETA ${formatDuration(stage.etaSeconds)}`);
  }
  return { counts, pace: pace.join(' · ') };
}

/** The whole line of a stage: "12 / 40 chunks · 3.1/s · ETA 10 s" (the progress bar's value text). */
export function stageSummary(stage: StageProgress): string {
  const { counts, pace } = stageTexts(stage);
  return pace ? `${counts} · ${pace}` : counts;
}

function stageDuration(stage: Partial<TrackedStage>): string | undefined {
  if (stage.firstAt === undefined || stage.lastAt === undefined || stage.lastAt <= stage.firstAt)
    return undefined;
  return `took ${formatDurationMs(stage.lastAt - stage.firstAt)}`;
}

/** "LLM tokens: 12,345 (prompt 10,000 + completion 2,345)" or the extractive note. */
export function usageSummary(usage: UsageTotals, summarizer?: BuildProgressState['summarizer']): string {
  if (usage.requests === 0) {
    if (summarizer === 'builtin') return 'No summaries written yet';
    return summarizer === 'llm' ? 'No LLM calls yet' : 'No LLM calls (extractive summaries)';
  }
  const base =
    `LLM tokens: ${formatCount(usage.totalTokens)} ` +
    `(prompt ${formatCount(usage.promptTokens)} + completion ${formatCount(usage.completionTokens)})`;
  if (usage.unreported === 0) return base;
  return `${base}; ${formatCount(usage.unreported)} of ${formatCount(usage.requests)} responses reported no usage`;
}

/** The built-in model's lines: the expected time (from the warm-up) and its pace while it writes. */
function BuiltinFacts({ progress }: { progress: BuildProgressState }) {
  const { estimate, generation, summarizerFallback } = progress;
  if (summarizerFallback) {
    return (
      <p className="progress-builtin" role="status">
        {`${summarizerFallback} The extractive summarizer writes this tree’s summaries.`}
      </p>
    );
  }
  if (!estimate && !generation) return null;
  return (
    <div className="progress-builtin" role="status" aria-label="Built-in model">
      {estimate && <p className="progress-estimate">{estimateSummary(estimate)}</p>}
      {generation && (
        <p className="progress-speed">
          {`Built-in model writing at ${formatTokenRate(generation.decodeTokensPerSecond)} (reading ` +
            `${formatTokenRate(generation.prefillTokensPerSecond)}).`}
        </p>
      )}
    </div>
  );
}

function StageRow({ stage, stopped }: { stage: StageProgress; stopped: boolean }) {
  // A stage still active when the build failed or was cancelled is shown halted, not working.
  const state = stopped && stage.status === 'active' ? 'stopped' : stage.status;
  const summary = stageSummary(stage);
  // A finished stage is a full bar, even one that had no counts (a model loaded from the cache).
  const finished = stage.status === 'done';
  const indeterminate = !finished && (stage.total <= 0 || stage.id === 'cluster');
  const fraction = finished ? 1 : indeterminate ? 0 : Math.min(1, stage.done / stage.total);
  const valueNow = stage.unit === 'MB' ? Number(stage.done.toFixed(MB_DECIMALS)) : stage.done;
  const valueMax = stage.unit === 'MB' ? Number(stage.total.toFixed(MB_DECIMALS)) : stage.total;
  return (
    <li className={`progress-stage is-${state}`} aria-current={state === 'active' ? 'step' : undefined}>
      <span className="progress-stage-icon" aria-hidden="true">
        {STAGE_ICONS[state]}
      </span>
      <span className="progress-stage-label">{stage.label}</span>
      <span className="progress-stage-percent" aria-hidden="true">
        {indeterminate ? '' : formatPercent(fraction)}
      </span>
      <div
        className={`progress-bar${indeterminate ? ' is-indeterminate' : ''}`}
        role="progressbar"
        aria-label={stage.label}
        aria-valuemin={0}
        aria-valuemax={stage.total > 0 ? valueMax : undefined}
        aria-valuenow={indeterminate ? undefined : valueNow}
        aria-valuetext={summary}
      >
        <div
          className="progress-bar-fill"
          style={indeterminate ? undefined : { transform: `scaleX(${fraction})` }}
        />
      </div>
      <span className="progress-stage-text">{summary}</span>
    </li>
  );
}

/**
 * "Reused 120 of 134 embeddings and 9 of 14 summaries from earlier runs": what a resumed (or repeated) build
 * did not pay for again.
 */
export function reuseSummary(reuse: NonNullable<BuildProgressState['reuse']>): string {
  const embeddings = reuse.embedHits + reuse.embedMisses;
  const summaries = reuse.summaryHits + reuse.summaryMisses;
  return (
    `Reused ${formatCount(reuse.embedHits)} of ${formatCount(embeddings)} embeddings and ` +
    `${formatCount(reuse.summaryHits)} of ${formatCount(summaries)} summaries from earlier runs.`
  );
}

/** Where the models run (and ran, after a move to the CPU). */
function DevicesFacts({ lines }: { lines: string[] }) {
  if (lines.length === 0) return null;
  return (
    <div className="progress-devices" role="status" aria-label="Where the models run">
      {lines.map((line) => (
        <p key={line}>{line}</p>
      ))}
    </div>
  );
}

function ReuseNote({ reuse }: { reuse: NonNullable<BuildProgressState['reuse']> }) {
  if (reuse.embedHits + reuse.summaryHits === 0) return null;
  return (
    <p className="progress-reuse" role="status">
      {reuseSummary(reuse)}
    </p>
  );
}

/** Milliseconds since the epoch, refreshed every second while `live`. */
function useNow(live: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!live) return;
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, [live]);
  return now;
}

/** The build progress region; see the module comment. */
export function ProgressView({ progress, onCancel, onResume, onBuildAgain, onKeepData }: ProgressViewProps) {
  const running = progress.status === 'running' || progress.status === 'cancelling';
  // Which run the Cancel click was for: a resumed build (same tree, new start) gets its button back.
  const run = `${progress.treeId}@${progress.startedAt}`;
  const [cancelClickedFor, setCancelClickedFor] = useState<string | undefined>(undefined);
  const now = useNow(running);
  const cancelling =
    progress.status === 'cancelling' || (progress.status === 'running' && cancelClickedFor === run);
  const end = running ? Math.max(now, progress.updatedAt) : progress.updatedAt;
  const elapsed = Math.max(0, end - progress.startedAt) / MS_PER_SECOND;
  const stopped = progress.status === 'failed' || progress.status === 'cancelled';
  const resumable = stopped && !progress.unrecorded && onResume !== undefined;
  const again = stopped && progress.unrecorded === true && onBuildAgain !== undefined;
  const keepData = stopped && progress.storageFull === true && onKeepData !== undefined;
  const stageList = (
    <ol className="progress-stages">
      {progress.stages.map((stage) => (
        <StageRow key={`${stage.id}:${stage.layer ?? 0}`} stage={stage} stopped={stopped} />
      ))}
    </ol>
  );

  return (
    <section className={`progress-view is-${progress.status}`} aria-label="Build progress">
      <header className="progress-header">
        <h2 className="progress-title">{progress.title}</h2>
        <span className={`progress-status is-${progress.status}`}>{STATUS_TEXT[progress.status]}</span>
      </header>
      {progress.stages.length === 0 ? (
        <p className="progress-waiting">Starting…</p>
      ) : progress.status === 'done' ? (
        // Finished: the stages fold away, so the tree and the library stay in sight.
        <details className="progress-details">
          <summary>{`${formatQuantity(progress.stages.length, 'stage')}, all done`}</summary>
          {stageList}
        </details>
      ) : (
        stageList
      )}
      <dl className="progress-facts">
        <div>
          <dt>Elapsed</dt>
          <dd>{formatDuration(elapsed)}</dd>
        </div>
        <div>
          <dt className="visually-hidden">Tokens</dt>
          <dd>{usageSummary(progress.usage, progress.summarizer)}</dd>
        </div>
      </dl>
      <BuiltinFacts progress={progress} />
      <DevicesFacts lines={devicesLines(progress.devices)} />
      {progress.summaryCuts && (
        <p className="progress-cuts" role="status">
          {summaryCutText(progress.summaryCuts)}
        </p>
      )}
      {progress.status === 'done' && progress.reuse && <ReuseNote reuse={progress.reuse} />}
      {stopped && (
        <p
          className={`progress-message is-${progress.status}`}
          role={progress.status === 'failed' ? 'alert' : 'status'}
        >
          {progress.message ??
            (progress.status === 'failed'
              ? 'The build stopped with an error.'
              : 'The build was cancelled. Finished stages are kept; Resume continues from there.')}
        </p>
      )}
      <div className="progress-actions" hidden={!running && !resumable && !again && !keepData}>
        {running && (
          <button
            type="button"
            className="progress-button"
            disabled={cancelling}
            onClick={() => {
              setCancelClickedFor(run);
              onCancel();
            }}
          >
            {cancelling ? 'Cancelling…' : 'Cancel'}
          </button>
        )}
        {resumable && (
          <button type="button" className="progress-button progress-button-primary" onClick={onResume}>
            Resume
          </button>
        )}
        {again && (
          <button type="button" className="progress-button progress-button-primary" onClick={onBuildAgain}>
            Build again
          </button>
        )}
        {keepData && (
          <button type="button" className="progress-button" onClick={onKeepData}>
            Keep data on this device
          </button>
        )}
      </div>
    </section>
  );
}

/**
 * What the page asks the build worker for, and what it hears back. Plain data: everything here crosses
 * the worker boundary by structured clone.
 */
import type { BuildDocument, BuildProgress } from '../core/build';
import type { BuildParams } from '../core/types';
import type { LlmEndpoint } from '../llm';
import type { UsageTotals } from '../llm';
import type { ModelLoadProgress } from '../models/files';
import type { ModelChoice } from '../models/embed';
import type { GenerationSpeed, GenerationDevice, GenerationDtype } from '../models/generate';
import type { DeviceFallback, DeviceUse, ModelPlacement } from '../models/device';

/** How leaves and summaries are embedded. */
export type EmbeddingChoice =
  ({ kind: 'browser' } & ModelChoice) | { kind: 'endpoint'; endpoint: LlmEndpoint };

/**
 * How clusters are summarised: extractively, by the user's LLM endpoint, or by the built-in model (a language
 * model running in the page's generate worker; `generator.model` a hub id or `local:<folder>`, device and dtype
 * chosen by `resolveRuntime` when left out or `auto`).
 */
export type SummarizerChoice =
  | { kind: 'extractive' }
  | { kind: 'llm'; endpoint: LlmEndpoint; systemPrompt?: string; userTemplate?: string }
  | { kind: 'builtin'; generator: BuiltinModelChoice; systemPrompt?: string; userTemplate?: string };

/** The built-in model a build or an answer runs (the generate service's `GeneratorChoice`). */
export interface BuiltinModelChoice {
  model: string;
  device?: GenerationDevice | 'auto';
  dtype?: GenerationDtype | 'auto';
}

/** Seconds the built-in model's summaries are expected to take: fewest, likely and most summaries planned. */
export interface SummaryEstimate {
  /** The model's tag (`builtin:<model>@<dtype>`). */
  model: string;
  /** Summaries planned (fewest, likely, most). */
  summaries: { fewest: number; likely: number; most: number };
  /** Expected seconds of those summaries on this device. */
  seconds: { fewest: number; likely: number; most: number };
  /**
   * The rates measured by the warm-up: reading one prompt at a time, and writing `batchRows` summaries together
   * (`decodeTokensPerSecond` counts every row's tokens).
   */
  speed: GenerationSpeed;
  /** Summaries written together (1: one at a time). */
  batchRows: number;
  /** Where the warm-up measured those rates (where the summaries are written). */
  placement: ModelPlacement;
}

/** One build, fully described. */
export interface BuildRequest {
  /** Unique id of this build (also the tree's id once stored). */
  buildId: string;
  title: string;
  documents: BuildDocument[];
  params: Partial<BuildParams> & { concurrency?: number };
  embedding: EmbeddingChoice;
  summarizer: SummarizerChoice;
}

/**
 * What the pipeline reports: a build stage, model download bytes, or that the chosen model could not be loaded
 * and the build uses `to` instead (`model-fallback`, never a stage of its own).
 */
export type PipelineEvent =
  | BuildProgress
  | ({ stage: 'model-load' } & ModelLoadProgress)
  | ({ stage: 'llm-load' } & ModelLoadProgress)
  | PipelineNotice;

/**
 * Reports that are not stages: the embedding model fell back to the offline one; the built-in language model
 * could not be loaded and the extractive summariser writes the summaries (`summarizer-fallback`, with the
 * sentence saying why); the expected time of the built-in model's summaries, from its measured warm-up
 * (`llm-estimate`, before the first summary); summaries cut to their budget (`summary-cut`).
 */
export type PipelineNotice =
  | { stage: 'model-fallback'; from: string; to: string }
  | DeviceFallbackNotice
  | ({ stage: 'summary-cut' } & SummaryCutNotice)
  | { stage: 'summarizer-fallback'; from: string; to: 'extractive'; reason: string }
  | ({ stage: 'llm-estimate' } & SummaryEstimate);

/**
 * Summaries the model wrote past the summary budget so far, each cut at a sentence end within it: `cut` of the
 * `of` summaries written or reused so far, by `model` (at `endpoint`, an origin, for an LLM endpoint).
 */
export interface SummaryCutNotice {
  cut: number;
  of: number;
  /** The summary budget in cl100k tokens. */
  budget: number;
  model: string;
  endpoint?: string;
}

/**
 * A model of the build left WebGPU (or could not use it) and goes on on the CPU: which model, where it runs now
 * and why (`fallback.message` names the cause). Nothing it had finished is redone.
 */
export interface DeviceFallbackNotice {
  stage: 'device-fallback';
  model: 'embedding' | 'summaries';
  to: ModelPlacement;
  fallback: DeviceFallback;
}

/**
 * Where a build's models ran: texts embedded (`embedding`) and summary tokens written (`summaries`) on each
 * device, a resumed build's earlier runs included. A model that has loaded and done nothing yet has one entry
 * of count 0.
 */
export interface RunDevices {
  embedding?: DeviceUse[];
  summaries?: DeviceUse[];
}

/** The stages of a build (every event that is not a notice). */
export type PipelineStageEvent = Exclude<PipelineEvent, PipelineNotice>;

const NOTICE_STAGES: ReadonlySet<string> = new Set([
  'model-fallback',
  'device-fallback',
  'summarizer-fallback',
  'llm-estimate',
  'summary-cut',
]);

/** True for a notice (never a stage of its own, never a checkpoint). */
export function isNotice(event: PipelineEvent): event is PipelineNotice {
  return NOTICE_STAGES.has(event.stage);
}

/** A progress report of the pipeline, with token usage so far. */
export interface PipelineProgress {
  event: PipelineEvent;
  /** LLM tokens spent by this build so far. */
  usage: UsageTotals;
  /** The built-in model's rates over this build's summaries so far (set once it wrote one). */
  generation?: GenerationSpeed;
  /** Where the build's models ran so far (set once a model has loaded). */
  devices?: RunDevices;
  /** Milliseconds since the epoch when the event happened (for rates and ETAs). */
  at: number;
  /** Set on a second copy of a stage's report once storage has it (the library can show it). */
  recorded?: boolean;
}

/** The model string a tree records for an embedding choice. */
export function embeddingModelId(choice: EmbeddingChoice): string {
  return choice.kind === 'browser' ? choice.model : `openai:${choice.endpoint.model}`;
}

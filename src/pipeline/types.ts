/**
 * What the page asks the build worker for, and what it hears back. Plain data: everything here crosses
 * the worker boundary by structured clone.
 */
import type { BuildDocument, BuildProgress } from '../core/build';
import type { BuildParams } from '../core/types';
import type { LlmEndpoint } from '../llm';
import type { UsageTotals } from '../llm/usage';
import type { ModelLoadProgress } from '../models/embedder';
import type { ModelChoice } from '../models/embed-service';

/** How leaves and summaries are embedded. */
export type EmbeddingChoice =
  ({ kind: 'browser' } & ModelChoice) | { kind: 'endpoint'; endpoint: LlmEndpoint };

/** How clusters are summarised. */
export type SummarizerChoice =
  | { kind: 'extractive' }
  | { kind: 'llm'; endpoint: LlmEndpoint; systemPrompt?: string; userTemplate?: string };

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
  | { stage: 'model-fallback'; from: string; to: string };

/** A progress report of the pipeline, with token usage so far. */
export interface PipelineProgress {
  event: PipelineEvent;
  /** LLM tokens spent by this build so far. */
  usage: UsageTotals;
  /** Milliseconds since the epoch when the event happened (for rates and ETAs). */
  at: number;
  /** Set on a second copy of a stage's report once storage has it (the library can show it). */
  recorded?: boolean;
}

/** The model string a tree records for an embedding choice. */
export function embeddingModelId(choice: EmbeddingChoice): string {
  return choice.kind === 'browser' ? choice.model : `openai:${choice.endpoint.model}`;
}

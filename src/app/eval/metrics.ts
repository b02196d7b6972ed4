/**
 * The figures the Evaluate view shows per mode, in one list the table, the charts and the comparison share:
 * how to read each from a report entry, how to write it and which way is better.
 */
import type { ModeReport } from '../../core/eval';
import { RETRIEVAL_MODES, type RetrievalMode } from '../modes';

/** One figure of a mode. */
export interface MetricDef {
  key: string;
  /** Chart title. */
  label: string;
  /** Column heading. */
  short: string;
  /** What it means, for the chart's caption and the heading's title. */
  description: string;
  value(mode: ModeReport): number | null;
  format(value: number): string;
  /** Which way is better (`none`: neither, e.g. context size). */
  better: 'higher' | 'lower' | 'none';
  /** A share in [0, 1] (charts scale to 1, not to the largest bar). */
  share: boolean;
  /** Needs answers. */
  answers: boolean;
}

const twoDecimals = (v: number) => v.toFixed(2);

/** Every figure, retrieval first. */
export const METRICS: readonly MetricDef[] = [
  {
    key: 'evidenceRecall',
    short: 'Recall',
    label: 'Evidence recall',
    description:
      'Share of each question’s evidence quotes inside the retrieved context (generated questions: 1 when their node, a parent or a child was retrieved), averaged.',
    value: (m) => m.evidenceRecall,
    format: twoDecimals,
    better: 'higher',
    share: true,
    answers: false,
  },
  {
    key: 'mrr',
    short: 'MRR',
    label: 'MRR',
    description:
      'Mean reciprocal rank of the first retrieved node that completes an evidence quote (or is a gold node).',
    value: (m) => m.mrr,
    format: twoDecimals,
    better: 'higher',
    share: true,
    answers: false,
  },
  {
    key: 'hitRate',
    short: 'Hit rate',
    label: 'Hit rate',
    description: 'Share of questions with at least one hit.',
    value: (m) => m.hitRate,
    format: twoDecimals,
    better: 'higher',
    share: true,
    answers: false,
  },
  {
    key: 'contextTokens',
    short: 'Tokens',
    label: 'Context tokens',
    description: 'Mean cl100k tokens of the retrieved context.',
    value: (m) => m.contextTokens,
    format: (v) => String(Math.round(v)),
    better: 'none',
    share: false,
    answers: false,
  },
  {
    key: 'timeMs',
    short: 'ms',
    label: 'ms per question',
    description: 'Mean time of the retrieval itself (the question’s embedding is shared by every mode).',
    value: (m) => m.timeMs,
    format: (v) => v.toFixed(1),
    better: 'lower',
    share: false,
    answers: false,
  },
  {
    key: 'accuracy',
    short: 'MC acc.',
    label: 'MC accuracy',
    description: 'Share of multiple-choice questions answered with the gold option.',
    value: (m) => m.answers?.accuracy ?? null,
    format: twoDecimals,
    better: 'higher',
    share: true,
    answers: true,
  },
  {
    key: 'f1',
    short: 'F1',
    label: 'Token F1',
    description: 'Word overlap of the answer with the reference answer (SQuAD’s F1), averaged.',
    value: (m) => m.answers?.f1 ?? null,
    format: twoDecimals,
    better: 'higher',
    share: true,
    answers: true,
  },
  {
    key: 'rougeL',
    short: 'ROUGE-L',
    label: 'ROUGE-L',
    description: 'Longest common word subsequence of answer and reference (F-measure), averaged.',
    value: (m) => m.answers?.rougeL ?? null,
    format: twoDecimals,
    better: 'higher',
    share: true,
    answers: true,
  },
  {
    key: 'judge',
    short: 'Judge',
    label: 'Judge',
    description: 'Share of answers the LLM judge called correct.',
    value: (m) => m.answers?.judge ?? null,
    format: twoDecimals,
    better: 'higher',
    share: true,
    answers: true,
  },
];

/** The metrics a report has values for (answer metrics only once answered). */
export function metricsOf(modes: readonly ModeReport[]): MetricDef[] {
  return METRICS.filter((metric) => modes.some((m) => metric.value(m) !== null));
}

/** The retrieval mode of a report entry as the page's mode type (for its colour). */
export function modeOf(entry: Pick<ModeReport, 'mode'>): RetrievalMode {
  return RETRIEVAL_MODES.includes(entry.mode) ? entry.mode : 'collapsed';
}

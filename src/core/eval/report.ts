/**
 * The shape of an evaluation report and the figures per mode computed from its per-question results. A report
 * is plain JSON: `modes` holds one entry per variant (see `variantKey` for the names), `perQuestion` what each
 * variant retrieved for each question. Means over no question are null (JSON has no NaN).
 */
import type { SearchMode } from '../search';
import type { AnswerFigures, AnswerRecord, AnswerSettings } from './answer-types';
import type { RetrievalMode } from './variants';

/** How a question's retrieval is scored. */
export type QuestionScoring = 'evidence' | 'gold-node' | 'none';

/** What one variant retrieved for one question, and how it scored. */
export interface QuestionModeResult {
  /** Retrieved node ids in selection order. */
  nodes: number[];
  /** Their similarity scores, as `retrieve` reports them. */
  scores: number[];
  /** Context tokens (cl100k), as `retrieve` counts them. */
  tokens: number;
  /** Time of the retrieval alone (the question's embedding is shared by every variant), ms. */
  timeMs: number;
  /**
   * Evidence questions: the share of quotes inside the context; generated questions: 1 when the gold node, a
   * parent or a child of it was retrieved, else 0; null when there is nothing to score.
   */
  recall: number | null;
  /** Evidence questions: whether each quote is inside the context. */
  found?: boolean[];
  /** 1-based rank of the retrieved node where the first hit became complete; 0 for none; null if unscored. */
  firstHit: number | null;
  /**
   * The context as it was read, when it differs from `nodes` whole in that order (passages by sentence): each
   * node in reading order, with the indexes of its sentences that entered when not all did.
   */
  read?: { id: number; sentences?: number[] }[];
  /** The answer written from this context and its scores (`evaluateAnswers`). */
  answer?: AnswerRecord;
}

/** One question's results in every variant. */
export interface QuestionReport {
  /** 0-based position in the question set. */
  index: number;
  id?: string;
  question: string;
  kind?: string;
  scoring: QuestionScoring;
  /** Generated questions: the node of this tree their hits are counted around. */
  goldNode?: number;
  /** Keyed like `RetrievalReport.modes`. */
  modes: Record<string, QuestionModeResult>;
}

/** Retrieval figures over a group of scored questions. */
export interface RetrievalFigures {
  /** Scored questions (those with evidence or a gold node). */
  questions: number;
  /** Mean per-question recall (see `QuestionModeResult.recall`); null without scored questions. */
  evidenceRecall: number | null;
  /** Mean reciprocal rank of the first hit; null without scored questions. */
  mrr: number | null;
  /** Share of scored questions with at least one hit; null without scored questions. */
  hitRate: number | null;
}

/** One variant's figures: the paper's Figure 7 and Tables 18–20 read per mode. */
export interface ModeReport extends RetrievalFigures {
  /** This entry's key in `modes`. */
  key: string;
  mode: RetrievalMode;
  search: SearchMode;
  /** The rerank hook's name, when one reordered the candidates. */
  rerank?: string;
  /** Questions run (scored or not). */
  ran: number;
  /** Mean context tokens per question (every question run). */
  contextTokens: number | null;
  /** Mean retrieval time per question, ms. */
  timeMs: number | null;
  /** Total retrieval time, ms. */
  totalTimeMs: number;
  /** Share of the retrieved nodes that came from each layer (index = layer), over every question run. */
  layers: number[];
  /** Count of retrieved nodes per layer, over every question run. */
  layerCounts: number[];
  /** The figures per question kind (e.g. "fact", "arc"); questions without a kind are under "". */
  byKind: Record<string, RetrievalFigures>;
  /** Answer quality of this variant's contexts (`evaluateAnswers`). */
  answers?: AnswerFigures;
}

/** What `evaluateRetrieval` returns. */
export interface RetrievalReport {
  format: 'aerie-eval';
  version: 1;
  /** The tree evaluated. */
  tree: {
    title: string;
    embedding: string;
    summarizer: string;
    nodes: number;
    /** Node count per layer (index = layer). */
    nodesPerLayer: number[];
  };
  settings: { maxTokens: number; traversalTopK: number };
  /** Questions run. */
  questions: number;
  /** Questions with something to score (evidence or a gold node). */
  scored: number;
  /** Embedding every question, ms. */
  embedMs: number;
  /** One entry per variant, in the order they ran. */
  modes: Record<string, ModeReport>;
  perQuestion: QuestionReport[];
  /** Things the user should know, e.g. a gold node the tree does not have. */
  warnings: string[];
  /** Which variants were answered, by which model, with or without the judge (`evaluateAnswers`). */
  answering?: AnswerSettings;
}

/** How a report names what wrote a tree's summaries: "extractive", or "llm:<model>". */
export function summarizerName(summarizer: { kind: string; model?: string }): string {
  return summarizer.model ? `${summarizer.kind}:${summarizer.model}` : summarizer.kind;
}

const mean = (values: readonly number[]): number | null =>
  values.length === 0 ? null : values.reduce((s, v) => s + v, 0) / values.length;

/** The retrieval figures of one variant over some questions. */
export function figuresOf(questions: readonly QuestionReport[], key: string): RetrievalFigures {
  const recalls: number[] = [];
  const reciprocal: number[] = [];
  const hits: number[] = [];
  for (const q of questions) {
    const r = q.modes[key];
    if (!r || r.recall === null || r.firstHit === null) continue;
    recalls.push(r.recall);
    reciprocal.push(r.firstHit > 0 ? 1 / r.firstHit : 0);
    hits.push(r.firstHit > 0 ? 1 : 0);
  }
  return {
    questions: recalls.length,
    evidenceRecall: mean(recalls),
    mrr: mean(reciprocal),
    hitRate: mean(hits),
  };
}

/** The layer of each node id, for counting where retrieved nodes came from. */
export type LayerOf = (id: number) => number;

/** A variant's whole entry: figures overall and per kind, context size, time and layers. */
export function modeReport(
  questions: readonly QuestionReport[],
  entry: Pick<ModeReport, 'key' | 'mode' | 'search' | 'rerank'>,
  layerOf: LayerOf,
  layerCount: number,
): ModeReport {
  const ran = questions.filter((q) => q.modes[entry.key]);
  const layerCounts = new Array<number>(layerCount).fill(0);
  let totalTimeMs = 0;
  for (const q of ran) {
    const r = q.modes[entry.key];
    totalTimeMs += r.timeMs;
    for (const id of r.nodes) layerCounts[layerOf(id)]++;
  }
  const retrieved = layerCounts.reduce((s, n) => s + n, 0);
  const kinds = [...new Set(ran.map((q) => q.kind ?? ''))].sort();
  const byKind: Record<string, RetrievalFigures> = {};
  for (const kind of kinds)
    byKind[kind] = figuresOf(
      ran.filter((q) => (q.kind ?? '') === kind),
      entry.key,
    );
  const report: ModeReport = {
    key: entry.key,
    mode: entry.mode,
    search: entry.search,
    ...figuresOf(ran, entry.key),
    ran: ran.length,
    contextTokens: mean(ran.map((q) => q.modes[entry.key].tokens)),
    timeMs: ran.length === 0 ? null : totalTimeMs / ran.length,
    totalTimeMs,
    layers: layerCounts.map((n) => (retrieved === 0 ? 0 : n / retrieved)),
    layerCounts,
    byKind,
  };
  if (entry.rerank !== undefined) report.rerank = entry.rerank;
  return report;
}

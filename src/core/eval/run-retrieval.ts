/**
 * The retrieval evaluation: every variant (mode × search setting, optionally a rerank hook) on every question
 * through `retrieve`, scored by evidence recall or, for generated questions, by the gold-node rule, with the
 * reciprocal rank of the first hit, context tokens, time and the layers retrieved nodes came from. Runs in Node
 * (the CLI, benches) and in workers alike: the question embedder is injected. It only reads the tree.
 */
import { throwIfAborted, type AbortSignalLike } from '../abort';
import { AerieError } from '../errors';
import {
  DEFAULT_MAX_TOKENS,
  DEFAULT_SEARCH,
  DEFAULT_TRAVERSAL_TOP_K,
  retrieve,
  type RetrieveOptions,
} from '../retrieve';
import type { RaptorTree } from '../types';
import { matchEvidence } from './evidence';
import type { EvalQuestion } from './questions';
import { firstHitRank, goldNeighbourhood } from './ranking';
import {
  modeReport,
  type ModeReport,
  type QuestionModeResult,
  type QuestionReport,
  type QuestionScoring,
  type RetrievalReport,
} from './report';
import { defaultVariants, variantKey, type EvalVariant } from './variants';

/** Questions embedded per call of `embedQuery` (progress and cancellation are checked between calls). */
export const EMBED_QUESTIONS_BATCH = 32;

/** Where an evaluation is. */
export interface EvalProgress {
  stage: 'embed' | 'retrieve';
  /** Questions embedded, or question × variant retrievals done. */
  done: number;
  total: number;
}

/** Options of `evaluateRetrieval`. */
export interface RetrievalEvalOptions {
  /** Embeds questions with the tree's model; one vector per text, in order. */
  embedQuery: (texts: string[]) => Promise<Float32Array[]>;
  /** What to compare. Default: every mode with every search setting (`defaultVariants()`). */
  variants?: readonly EvalVariant[];
  /** Context budget of collapsed and leaves retrieval, cl100k tokens. Default 2,000 (`DEFAULT_MAX_TOKENS`). */
  maxTokens?: number;
  /** Nodes kept per layer in tree traversal. Default 5 (`DEFAULT_TRAVERSAL_TOP_K`). */
  traversalTopK?: number;
  /** Cancels between questions with an AbortError. */
  signal?: AbortSignalLike;
  onProgress?: (progress: EvalProgress) => void;
  /** Clock of the times reported, ms. Default `performance.now()` where it exists, else `Date.now()`. */
  now?: () => number;
}

/** Codes of `EvalError`. */
export type EvalErrorCode = 'NO_QUESTIONS' | 'NO_VARIANTS' | 'DUPLICATE_VARIANT' | 'EMBEDDING_COUNT';

/** An evaluation that cannot run as asked. */
export class EvalError extends AerieError<EvalErrorCode> {}

/** The clock of the host: `performance.now()` in browsers, workers and Node; `Date.now()` elsewhere. */
function defaultClock(): () => number {
  const perf = (globalThis as { performance?: { now(): number } }).performance;
  return perf ? () => perf.now() : () => Date.now();
}

function scoringOf(question: EvalQuestion, tree: RaptorTree): QuestionScoring {
  if (question.evidence && question.evidence.length > 0) return 'evidence';
  if (question.goldNode !== undefined && tree.nodes[question.goldNode]) return 'gold-node';
  return 'none';
}

function optionsFor(
  variant: EvalVariant,
  text: string,
  maxTokens: number,
  traversalTopK: number,
): RetrieveOptions {
  const search = variant.search ?? DEFAULT_SEARCH;
  return variant.mode === 'traversal'
    ? { mode: 'traversal', topK: traversalTopK, text, search }
    : { mode: variant.mode, maxTokens, text, search };
}

/** Scores one retrieval of one question. */
function score(
  tree: RaptorTree,
  question: EvalQuestion,
  scoring: QuestionScoring,
  nodes: number[],
): Pick<QuestionModeResult, 'recall' | 'found' | 'firstHit'> {
  if (scoring === 'evidence') {
    const { found, ranks } = matchEvidence(
      nodes.map((id) => tree.nodes[id].text),
      question.evidence!,
    );
    const hitRanks = ranks.filter((r) => r > 0);
    return {
      recall: found.filter(Boolean).length / found.length,
      found,
      firstHit: hitRanks.length ? Math.min(...hitRanks) : 0,
    };
  }
  if (scoring === 'gold-node') {
    const rank = firstHitRank(nodes, goldNeighbourhood(tree, question.goldNode!));
    return { recall: rank > 0 ? 1 : 0, firstHit: rank };
  }
  return { recall: null, firstHit: null };
}

function nodesPerLayer(tree: RaptorTree): number[] {
  const counts: number[] = [];
  for (const node of tree.nodes) {
    while (counts.length <= node.layer) counts.push(0);
    counts[node.layer]++;
  }
  return counts;
}

/**
 * Runs every variant on every question and reports per variant (`modes`, keyed by `variantKey`) and per
 * question (`perQuestion`). Questions are embedded once, `EMBED_QUESTIONS_BATCH` at a time; each variant then
 * retrieves with `retrieve(tree, vector, { mode, maxTokens | topK, text: question, search })` (or its rerank
 * hook). Questions with evidence are scored by the quotes found; generated ones (a `goldNode`) by the gold-node
 * rule (`goldNeighbourhood`); others are run but not scored. The tree is never changed.
 * @throws EvalError NO_QUESTIONS, NO_VARIANTS, DUPLICATE_VARIANT (two variants with one key) or
 *   EMBEDDING_COUNT (the embedder returned a different number of vectors); AbortError when `signal` fires;
 *   what `retrieve` throws (e.g. a DimensionError naming both lengths when the embedder is not the tree's).
 */
export async function evaluateRetrieval(
  tree: RaptorTree,
  questions: readonly EvalQuestion[],
  options: RetrievalEvalOptions,
): Promise<RetrievalReport> {
  const variants = options.variants ?? defaultVariants();
  const maxTokens = options.maxTokens ?? DEFAULT_MAX_TOKENS;
  const traversalTopK = options.traversalTopK ?? DEFAULT_TRAVERSAL_TOP_K;
  const now = options.now ?? defaultClock();
  const { signal, onProgress } = options;
  if (questions.length === 0) throw new EvalError('NO_QUESTIONS', 'The question set is empty.');
  if (variants.length === 0) throw new EvalError('NO_VARIANTS', 'No retrieval setting to evaluate.');
  const keys = variants.map(variantKey);
  const duplicate = keys.find((k, i) => keys.indexOf(k) !== i);
  if (duplicate !== undefined) {
    throw new EvalError('DUPLICATE_VARIANT', `Two variants are both named ${duplicate}.`, { key: duplicate });
  }

  const embedStarted = now();
  const vectors: Float32Array[] = [];
  onProgress?.({ stage: 'embed', done: 0, total: questions.length });
  for (let start = 0; start < questions.length; start += EMBED_QUESTIONS_BATCH) {
    throwIfAborted(signal);
    const batch = questions.slice(start, start + EMBED_QUESTIONS_BATCH).map((q) => q.question);
    const embedded = await options.embedQuery(batch);
    if (embedded.length !== batch.length) {
      throw new EvalError(
        'EMBEDDING_COUNT',
        `The embedder returned ${embedded.length} vectors for ${batch.length} questions.`,
        { expected: batch.length, got: embedded.length },
      );
    }
    vectors.push(...embedded);
    onProgress?.({ stage: 'embed', done: vectors.length, total: questions.length });
  }
  const embedMs = now() - embedStarted;

  const warnings: string[] = [];
  const perQuestion: QuestionReport[] = questions.map((q, index) => {
    const scoring = scoringOf(q, tree);
    if (scoring === 'none' && q.goldNode !== undefined) {
      warnings.push(
        `Question ${index + 1}: its gold node ${q.goldNode} is not in this tree of ${tree.nodes.length} ` +
          'nodes, so it is not scored.',
      );
    }
    const report: QuestionReport = { index, question: q.question, scoring, modes: {} };
    if (q.id !== undefined) report.id = q.id;
    if (q.kind !== undefined) report.kind = q.kind;
    return report;
  });

  const total = questions.length * variants.length;
  let done = 0;
  onProgress?.({ stage: 'retrieve', done, total });
  for (let qi = 0; qi < questions.length; qi++) {
    throwIfAborted(signal);
    const question = questions[qi];
    const report = perQuestion[qi];
    for (let vi = 0; vi < variants.length; vi++) {
      const variant = variants[vi];
      const retrieveOptions = optionsFor(variant, question.question, maxTokens, traversalTopK);
      const started = now();
      const result = variant.rerank
        ? await variant.rerank.retrieve(tree, vectors[qi], retrieveOptions, { question, signal })
        : retrieve(tree, vectors[qi], retrieveOptions);
      const timeMs = now() - started;
      const nodes = result.nodes.map((n) => n.id);
      const entry: QuestionModeResult = {
        nodes,
        scores: result.nodes.map((n) => n.score),
        tokens: result.tokens,
        timeMs,
        ...score(tree, question, report.scoring, nodes),
      };
      report.modes[keys[vi]] = entry;
      onProgress?.({ stage: 'retrieve', done: ++done, total });
    }
  }

  const layers = nodesPerLayer(tree);
  const layerOf = (id: number) => tree.nodes[id].layer;
  const modes: Record<string, ModeReport> = {};
  variants.forEach((variant, vi) => {
    const entry: Parameters<typeof modeReport>[1] = {
      key: keys[vi],
      mode: variant.mode,
      search: variant.search ?? DEFAULT_SEARCH,
    };
    if (variant.rerank) entry.rerank = variant.rerank.name;
    modes[keys[vi]] = modeReport(perQuestion, entry, layerOf, layers.length);
  });

  return {
    format: 'aerie-eval',
    version: 1,
    tree: {
      title: tree.title,
      embedding: tree.embedding.model,
      summarizer: tree.summarizer.model
        ? `${tree.summarizer.kind}:${tree.summarizer.model}`
        : tree.summarizer.kind,
      nodes: tree.nodes.length,
      nodesPerLayer: layers,
    },
    settings: { maxTokens, traversalTopK },
    questions: questions.length,
    scored: perQuestion.filter((q) => q.scoring !== 'none').length,
    embedMs,
    modes,
    perQuestion,
    warnings,
  };
}

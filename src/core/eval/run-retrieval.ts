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
  prepareRetrieval,
  retrieve,
  type RetrievalResult,
  type RetrieveOptions,
} from '../search';
import type { RaptorTree } from '../types';
import { YIELD_INTERVAL_MS, yieldToEventLoop } from '../yield';
import { evidenceFound, matchEvidence } from './evidence';
import type { EvalQuestion } from './questions';
import { firstHitRank, goldNeighbourhood } from './ranking';
import {
  modeReport,
  summarizerName,
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

/**
 * The node a generated question's hits are counted around in `tree`: its `goldNode` when that node still has
 * the text the question was written from (`goldText`, when recorded), else the one node of `tree` with that
 * text (a rebuild of the same documents keeps the leaves, under other ids), else none.
 */
function goldNodeIn(
  question: EvalQuestion,
  tree: RaptorTree,
  byText: () => Map<string, number>,
): number | undefined {
  const { goldNode, goldText } = question;
  if (goldNode === undefined && goldText === undefined) return undefined;
  const node = goldNode === undefined ? undefined : tree.nodes[goldNode];
  if (node && (goldText === undefined || node.text === goldText)) return goldNode;
  return goldText === undefined ? undefined : byText().get(goldText);
}

/** Node ids by text, for texts that occur once in the tree. */
function uniqueTexts(tree: RaptorTree): Map<string, number> {
  const byText = new Map<string, number>();
  const repeated = new Set<string>();
  for (const node of tree.nodes) {
    if (byText.has(node.text)) repeated.add(node.text);
    else byText.set(node.text, node.id);
  }
  for (const text of repeated) byText.delete(text);
  return byText;
}

function optionsFor(
  variant: EvalVariant,
  text: string,
  maxTokens: number,
  traversalTopK: number,
): RetrieveOptions {
  const search = variant.search ?? DEFAULT_SEARCH;
  return variant.mode === 'traversal'
    ? { mode: 'traversal', topK: traversalTopK, maxTokens, text, search }
    : { mode: variant.mode, maxTokens, text, search };
}

/**
 * Scores one retrieval of one question. Evidence is looked for in the context the retrieval returned (what an
 * answering model would read, e.g. without sentences a retrieval left out as repeated); the rank where a quote
 * became complete comes from the retrieved nodes' texts in order, and is the last rank when only the context
 * as a whole holds it.
 */
function score(
  tree: RaptorTree,
  question: EvalQuestion,
  scoring: QuestionScoring,
  gold: number | undefined,
  result: RetrievalResult,
): Pick<QuestionModeResult, 'recall' | 'found' | 'firstHit'> {
  const ranked = selectionOrder(result);
  const nodes = ranked.map((n) => n.id);
  if (scoring === 'evidence') {
    const evidence = question.evidence!;
    const found = evidenceFound(result.context, evidence);
    const { ranks } = matchEvidence(
      ranked.map((n) => n.excerpt?.text ?? tree.nodes[n.id].text),
      evidence,
    );
    const hitRanks = found.flatMap((f, i) => (f ? [ranks[i] > 0 ? ranks[i] : nodes.length] : []));
    return {
      recall: found.filter(Boolean).length / found.length,
      found,
      firstHit: hitRanks.length ? Math.min(...hitRanks) : 0,
    };
  }
  if (scoring === 'gold-node') {
    const rank = firstHitRank(nodes, goldNeighbourhood(tree, gold!));
    return { recall: rank > 0 ? 1 : 0, firstHit: rank };
  }
  return { recall: null, firstHit: null };
}

/**
 * The retrieved nodes in the order they were chosen: `nodes` as given, or sorted by `rank` when the retrieval
 * returned them in reading order (passages by sentence), so ranks and MRR mean the same in every mode.
 */
function selectionOrder(result: RetrievalResult): RetrievalResult['nodes'] {
  if (!result.nodes.some((n) => n.rank !== undefined)) return result.nodes;
  return [...result.nodes].sort((a, b) => (a.rank ?? 0) - (b.rank ?? 0));
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
 * rule (`goldNeighbourhood`; when the question records its node's text, `goldText`, and this tree has it under
 * another id, e.g. a leaf after a rebuild with another model, that node); others are run but not scored. The
 * tree is never changed.
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

  // The tree's retrieval index (packed embeddings, norms, layers) now, so no variant's time includes it.
  if (tree.nodes.length > 0) prepareRetrieval(tree);
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
  let texts: Map<string, number> | undefined;
  const byText = () => (texts ??= uniqueTexts(tree));
  const golds = questions.map((q) => goldNodeIn(q, tree, byText));
  const perQuestion: QuestionReport[] = questions.map((q, index) => {
    const scoring: QuestionScoring =
      q.evidence && q.evidence.length > 0 ? 'evidence' : golds[index] !== undefined ? 'gold-node' : 'none';
    if (scoring === 'none' && (q.goldNode !== undefined || q.goldText !== undefined)) {
      warnings.push(
        `Question ${index + 1}: the node it was written from (${q.goldNode ?? 'unknown'}) is not in this tree ` +
          `of ${tree.nodes.length} nodes, so it is not scored.`,
      );
    }
    const report: QuestionReport = { index, question: q.question, scoring, modes: {} };
    if (q.id !== undefined) report.id = q.id;
    if (q.kind !== undefined) report.kind = q.kind;
    if (scoring === 'gold-node') report.goldNode = golds[index];
    return report;
  });

  const total = questions.length * variants.length;
  let done = 0;
  let lastYield = now();
  onProgress?.({ stage: 'retrieve', done, total });
  for (let qi = 0; qi < questions.length; qi++) {
    // A page running this keeps painting (and hears a cancel) between questions.
    if (now() - lastYield >= YIELD_INTERVAL_MS) {
      await yieldToEventLoop();
      lastYield = now();
    }
    throwIfAborted(signal);
    const question = questions[qi];
    const report = perQuestion[qi];
    // The variants take turns at going first: the first retrieval to reach a node counts its tokens (once per
    // tree), and that cost should not always fall on the same variant's time.
    for (let turn = 0; turn < variants.length; turn++) {
      const vi = (qi + turn) % variants.length;
      const variant = variants[vi];
      const retrieveOptions = optionsFor(variant, question.question, maxTokens, traversalTopK);
      const started = now();
      const result = variant.rerank
        ? await variant.rerank.retrieve(tree, vectors[qi], retrieveOptions, { question, signal })
        : retrieve(tree, vectors[qi], retrieveOptions);
      const timeMs = now() - started;
      const chosen = selectionOrder(result);
      const entry: QuestionModeResult = {
        nodes: chosen.map((n) => n.id),
        scores: chosen.map((n) => n.score),
        tokens: result.tokens,
        timeMs,
        ...score(tree, question, report.scoring, golds[qi], result),
      };
      if (chosen !== result.nodes) {
        entry.read = result.nodes.map((n) =>
          n.excerpt?.sentences ? { id: n.id, sentences: n.excerpt.sentences } : { id: n.id },
        );
      }
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
      summarizer: summarizerName(tree.summarizer),
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

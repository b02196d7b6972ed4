/**
 * One evaluation run, start to end, outside React: retrieval with every mode and search setting on every
 * question (`evaluateRetrieval`), then, when asked, answers by the answering model (`evaluateAnswers`). The run
 * record is stored as it starts, when retrieval is done and when it ends (done, stopped or failed), so the
 * retrieval results survive a stopped answering stage. Resuming re-runs it: retrieval is quick and every reply
 * already paid for comes from the cache.
 */
import { isAbortError } from '../../core/abort';
import {
  answerCallCount,
  defaultAnswerKeys,
  defaultVariants,
  plainBm25Variant,
  evaluateAnswers,
  evaluateRetrieval,
  summarizerName,
  type EvalQuestion,
} from '../../core/eval';
import type { RaptorTree } from '../../core/types';
import type { DeviceUse } from '../../models/device';
import { saveEvalRun, StorageError, type AerieDb } from '../../storage';
import type { EvalRunOptions, EvalRunRecord, EvalSetRecord } from '../../storage';
import { errorMessage } from '../state/messages';
import type { EvalModel } from './eval-model';

/** How often progress reaches the page while a stage runs, ms. */
const PROGRESS_INTERVAL_MS = 100;
/**
 * How often the run is stored while it runs, ms: a reload mid-run then says how far it got (within this), not
 * where the stage started. Each store writes the whole run record, its retrieval report included.
 */
export const PROGRESS_SAVE_MS = 2_000;

/** What a run needs besides its record. */
export interface RunDeps {
  db: AerieDb;
  tree: RaptorTree;
  /** Embeds questions with the tree's model. */
  embedQuery: (texts: string[]) => Promise<Float32Array[]>;
  /** Where `embedQuery` has embedded so far (a model in this browser); kept with the run. */
  embeddedOn?: () => DeviceUse[];
  /** Connects the answering model; called only when the run answers. */
  connectModel?: () => Promise<EvalModel>;
  signal: AbortSignal;
  /**
   * Called when storage refuses the run because it or its tree was deleted meanwhile (in another tab whose
   * message did not arrive): the caller aborts `signal`, so the run stops paying for replies nobody keeps.
   */
  onGone?: () => void;
  /** Sees the run as it changes (progress at most every 100 ms). */
  onUpdate: (run: EvalRunRecord) => void;
  now?: () => number;
}

/** A new run record of `set` on `tree` (not stored yet). */
export function newRun(
  id: string,
  treeId: string,
  set: Pick<EvalSetRecord, 'id' | 'name' | 'questions'>,
  tree: RaptorTree,
  options: EvalRunOptions,
  now = Date.now(),
): EvalRunRecord {
  return {
    id,
    treeId,
    kind: 'eval-run',
    createdAt: now,
    updatedAt: now,
    setId: set.id,
    setName: set.name,
    questions: set.questions,
    options,
    tree: {
      title: tree.title,
      embedding: tree.embedding.model,
      summarizer: summarizerName(tree.summarizer),
      nodes: tree.nodes.length,
      createdAt: tree.createdAt,
    },
    status: 'running',
  };
}

/** Questions a run will answer (choices with a gold option, or a reference answer). */
export function answerableCount(questions: readonly EvalQuestion[]): number {
  return questions.filter((q) => (q.choices && q.gold !== undefined) || q.answer !== undefined).length;
}

/**
 * Runs (or resumes) `start` and resolves with the record as it ended: `done`, `stopped` (cancelled; what was
 * done is kept) or `failed` (with the reason). Never rejects for a model or retrieval failure; a storage
 * failure while saving the end state rejects, and so does a run deleted meanwhile (with its tree, or on its
 * own in another tab): StorageError NOT_FOUND, after `onGone`, with nothing stored again.
 */
export async function executeRun(start: EvalRunRecord, deps: RunDeps): Promise<EvalRunRecord> {
  const now = deps.now ?? Date.now;
  let run: EvalRunRecord = { ...start, status: 'running', updatedAt: now() };
  delete run.error;
  let lastShown = 0;
  let lastSaved = now();
  let saving: Promise<void> | undefined;
  // Stored once: every later store must find the record (one deleted meanwhile is not created again).
  let stored = false;
  let gone: unknown;
  const save = async (record: EvalRunRecord) => {
    try {
      await saveEvalRun(deps.db, record, { update: stored });
      stored = true;
    } catch (error) {
      if (error instanceof StorageError && error.code === 'NOT_FOUND') {
        gone ??= error;
        deps.onGone?.();
      }
      throw error;
    }
  };
  const show = (next: EvalRunRecord, force = false) => {
    run = next;
    const t = now();
    if (force || t - lastShown >= PROGRESS_INTERVAL_MS) {
      lastShown = t;
      deps.onUpdate(run);
    }
    // In the background, one store at a time; a failed one is retried by the next (the stage's end stores too).
    if (!force && !saving && t - lastSaved >= PROGRESS_SAVE_MS) {
      lastSaved = t;
      saving = save({ ...run, updatedAt: t })
        .catch(() => undefined)
        .finally(() => (saving = undefined));
    }
  };
  const store = async (next: EvalRunRecord) => {
    show({ ...next, updatedAt: now() }, true);
    await saving;
    if (gone !== undefined) throw gone;
    lastSaved = now();
    await save(run);
  };
  try {
    await store({ ...run, progress: { stage: 'embed', done: 0, total: run.questions.length } });
    const retrieval = await evaluateRetrieval(deps.tree, run.questions, {
      embedQuery: deps.embedQuery,
      // Beside the modes, plain BM25 over the leaves: what a tree-less keyword search finds on the same questions.
      variants: [...defaultVariants(run.options.searches), plainBm25Variant()],
      maxTokens: run.options.maxTokens,
      traversalTopK: run.options.traversalTopK,
      signal: deps.signal,
      onProgress: (p) => show({ ...run, progress: { stage: p.stage, done: p.done, total: p.total } }),
    });
    const answering = run.options.answers && answerableCount(run.questions) > 0 && deps.connectModel;
    // The answering stage's calls are known before any is made: a stop or reload says "12 / 90", never "0 / 0".
    const calls = answerCallCount(run.questions, defaultAnswerKeys(retrieval).length, run.options.judge);
    const embeddedOn = deps.embeddedOn?.() ?? [];
    if (embeddedOn.length > 0) run = { ...run, questionsEmbeddedOn: embeddedOn };
    await store({
      ...run,
      report: retrieval,
      ...(answering
        ? { progress: { stage: 'answer' as const, done: 0, total: calls } }
        : { status: 'done' as const }),
    });
    if (!answering) return run;
    const model = await deps.connectModel!();
    run = { ...run, answerModel: model.name };
    const before = model.stats?.hits ?? 0;
    const answered = await evaluateAnswers(deps.tree, run.questions, retrieval, {
      chat: model.chat,
      judge: run.options.judge,
      model: model.name,
      signal: deps.signal,
      onProgress: (done, total) => {
        const cached = (model.stats?.hits ?? 0) - before;
        show({ ...run, progress: { stage: 'answer', done, total, ...(cached > 0 ? { cached } : {}) } });
      },
    });
    await store({ ...run, report: answered, status: 'done' });
    return run;
  } catch (error) {
    // Deleted meanwhile (the run, or its tree): nothing is stored again; the caller hears why.
    if (gone !== undefined) throw gone;
    const stopped = isAbortError(error);
    await store({
      ...run,
      status: stopped ? 'stopped' : 'failed',
      ...(stopped ? {} : { error: errorMessage(error) }),
    });
    return run;
  }
}

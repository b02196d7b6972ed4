/**
 * State and actions of the Evaluate view for the open tree: its question sets (imported, typed, generated or
 * copied from another tree) and runs (started, cancelled, resumed, deleted). A run or a generation in progress
 * belongs to this page; switching trees stops it (it can be resumed), and a run another page left "running"
 * (closed or reloaded) shows as stopped.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  generateQuestions,
  generationCallCount,
  MAX_SET_FILE_BYTES,
  planQuestionGeneration,
  parseQuestionSet,
  questionSetFormatOf,
  setFileTooLarge,
  type EvalQuestion,
  type QuestionSetCounts,
  type QuestionSetError,
} from '../../core/eval';
import type { RaptorTree } from '../../core/types';
import {
  deleteEvalRun,
  deleteEvalSet,
  listAllEvalRuns,
  listAllEvalSets,
  listEvalRuns,
  listEvalSets,
  saveEvalSet,
  StorageError,
  type AerieDb,
} from '../../storage';
import { announceDeletion, onDeletions } from '../state/deletions';
import type { EvalRunOptions, EvalRunRecord, EvalSetRecord, TreeRecord } from '../../storage';
import { answerModelOf, type AppSettings } from '../settings/app-settings';
import { randomId } from '../state/ids';
import { errorMessage, isCancel } from '../state/messages';
import type { NoticeInput } from '../state/useNotices';
import { connectEvalModel } from './eval-model';
import { questionEmbedder } from './question-embedder';
import { generatedSetKeeper, generationNotice } from './generated-set';
import { executeRun, newRun } from './run-evaluation';

/** What the page is doing for the evaluation right now. */
export type EvalActivity =
  { kind: 'run'; runId: string } | { kind: 'generate'; done: number; total: number; status?: string };

/** The result of reading a question-set file: the questions kept, the exact counts and the first errors. */
export interface ImportOutcome {
  questions: number;
  counts: QuestionSetCounts;
  errors: QuestionSetError[];
}

/** Whether storage refused a write because what it was for was deleted meanwhile (in another tab). */
function isDeleted(error: unknown): boolean {
  return error instanceof StorageError && error.code === 'NOT_FOUND';
}

/** What the page says when a set being written or a run in progress was deleted in another tab. */
export function deletedElsewhere(kind: 'eval-set' | 'eval-run'): NoticeInput {
  return kind === 'eval-set'
    ? {
        kind: 'info',
        key: 'eval-deleted',
        title: 'This question set was deleted in another tab',
        body: 'Its generation here was stopped; nothing more is written into it.',
      }
    : {
        kind: 'info',
        key: 'eval-deleted',
        title: 'This evaluation run was deleted in another tab',
        body: 'It was stopped here, and nothing more of it is kept.',
      };
}

/** A run as the page shows it: one left "running" by a page that is gone is stopped. */
function settled(run: EvalRunRecord, live: boolean): EvalRunRecord {
  return run.status === 'running' && !live ? { ...run, status: 'stopped' } : run;
}

/** The Evaluate view's state for `tree` (`treeId`, its `record`). */
// eslint-disable-next-line max-lines-per-function -- not yet cut along its seams into hooks or components (issue 46; docs/architecture.md lists the long functions)
export function useEvaluation(
  db: AerieDb | undefined,
  treeId: string | undefined,
  tree: RaptorTree | undefined,
  record: TreeRecord | undefined,
  settings: AppSettings,
  notify: (notice: NoticeInput) => void,
) {
  const [sets, setSets] = useState<EvalSetRecord[]>([]);
  const [runs, setRuns] = useState<EvalRunRecord[]>([]);
  const [activity, setActivity] = useState<EvalActivity>();
  const controller = useRef<AbortController | undefined>(undefined);
  const liveRun = useRef<string | undefined>(undefined);
  /** The set a generation in progress writes into. */
  const liveSet = useRef<string | undefined>(undefined);
  // The tree shown now: a run of the previous tree that ends after a switch must not join this tree's list.
  const shownTree = useRef(treeId);
  useEffect(() => {
    shownTree.current = treeId;
  }, [treeId]);

  const report = useCallback(
    (title: string, error: unknown) => notify({ kind: 'error', title, body: errorMessage(error) }),
    [notify],
  );

  const refresh = useCallback(async () => {
    if (!db || !treeId) {
      setSets([]);
      setRuns([]);
      return;
    }
    const [s, r] = await Promise.all([listEvalSets(db, treeId), listEvalRuns(db, treeId)]);
    setSets(s);
    setRuns(r.map((run) => settled(run, run.id === liveRun.current)));
  }, [db, treeId]);

  useEffect(() => {
    void refresh().catch((e: unknown) => report('The evaluations could not be read', e));
    // Another tree: whatever ran for the previous one stops (and can be resumed there).
    return () => controller.current?.abort();
  }, [refresh, report]);

  // A set or run of this tree deleted in another tab: it leaves the list, and what runs on it here stops.
  useEffect(() => {
    if (!treeId) return undefined;
    return onDeletions((deletion) => {
      if (deletion.kind === 'tree' || deletion.treeId !== treeId) return;
      const running = deletion.kind === 'eval-set' ? liveSet.current : liveRun.current;
      if (running === deletion.id) {
        controller.current?.abort();
        notify(deletedElsewhere(deletion.kind));
      }
      void refresh().catch(() => undefined);
    });
  }, [treeId, refresh, notify]);

  const addSet = useCallback(
    async (set: Omit<EvalSetRecord, 'id' | 'treeId' | 'kind' | 'createdAt' | 'updatedAt'>) => {
      if (!db || !treeId) return undefined;
      const now = Date.now();
      const record: EvalSetRecord = {
        ...set,
        id: randomId('set-'),
        treeId,
        kind: 'eval-set',
        createdAt: now,
        updatedAt: now,
      };
      await saveEvalSet(db, record);
      await refresh();
      return record;
    },
    [db, treeId, refresh],
  );

  const importFile = useCallback(
    async (file: File): Promise<ImportOutcome> => {
      if (file.size > MAX_SET_FILE_BYTES) {
        return {
          questions: 0,
          counts: { read: 0, skipped: 0, overLimit: 0 },
          errors: [{ row: 0, field: '', message: setFileTooLarge(file.name, file.size) }],
        };
      }
      const { questions, errors, counts } = parseQuestionSet(
        await file.text(),
        questionSetFormatOf(file.name),
      );
      if (questions.length > 0) {
        await addSet({
          name: file.name,
          source: 'imported',
          questions,
          ...(counts.skipped ? { skippedRows: counts.skipped } : {}),
          ...(counts.overLimit ? { overLimit: counts.overLimit } : {}),
        });
      }
      return { questions: questions.length, counts, errors };
    },
    [addSet],
  );

  const saveTyped = useCallback(
    (name: string, questions: EvalQuestion[]) => addSet({ name, source: 'typed', questions }),
    [addSet],
  );

  const copySet = useCallback(
    (set: EvalSetRecord) =>
      addSet({
        name: set.name,
        source: set.source,
        questions: set.questions,
        ...(set.generator ? { generator: set.generator } : {}),
      }),
    [addSet],
  );

  const removeSet = useCallback(
    async (id: string) => {
      if (!db) return;
      if (liveSet.current === id) controller.current?.abort();
      await deleteEvalSet(db, id);
      if (treeId) announceDeletion({ kind: 'eval-set', treeId, id });
      await refresh();
    },
    [db, treeId, refresh],
  );

  const generate = useCallback(
    async (count: number, seed: number) => {
      const model = answerModelOf(settings);
      if (!db || !treeId || !tree || !model || activity) return;
      const abort = new AbortController();
      controller.current = abort;
      const plan = planQuestionGeneration(tree, count, seed);
      const total = generationCallCount(plan);
      setActivity({ kind: 'generate', done: 0, total });
      // The set is stored with its first question and again with each one after: what was paid for is kept
      // whatever happens next (a cancel, a failing endpoint, a closed tab).
      // A set deleted meanwhile (in another tab whose message did not come) stops the generation.
      const keeper = generatedSetKeeper(db, treeId, plan, count, seed, refresh, () => abort.abort());
      liveSet.current = keeper.id;
      let outcome: 'done' | 'cancelled' | 'failed' = 'done';
      let failure: unknown;
      let result: Awaited<ReturnType<typeof generateQuestions>> | undefined;
      try {
        const connected = await connectEvalModel(model, db, treeId, {
          signal: abort.signal,
          onStatus: (status) => setActivity({ kind: 'generate', done: 0, total, status }),
        });
        keeper.model = connected.name;
        result = await generateQuestions(tree, plan, connected.chat, {
          signal: abort.signal,
          onProgress: (done) => setActivity({ kind: 'generate', done, total }),
          onQuestion: keeper.add,
        });
      } catch (error) {
        outcome = isCancel(error) ? 'cancelled' : 'failed';
        failure = error;
      } finally {
        if (controller.current === abort) controller.current = undefined;
        liveSet.current = undefined;
        setActivity(undefined);
      }
      let deleted = false;
      const kept = await keeper
        .finish(result?.counts, outcome === 'done' ? undefined : outcome)
        .catch((error: unknown) => {
          if (isDeleted(error)) deleted = true;
          else report('The generated questions could not be saved', error);
          return 0;
        });
      if (deleted) {
        // Said by the tab's deletion notice when the message came; said here when it did not.
        if (shownTree.current === treeId) notify(deletedElsewhere('eval-set'));
        return;
      }
      const notice = generationNotice(total, kept, result, outcome, failure);
      if (notice) notify(notice);
    },
    [db, treeId, tree, settings, activity, refresh, notify, report],
  );

  const execute = useCallback(
    async (run: EvalRunRecord) => {
      if (!db || !tree || activity) return;
      const abort = new AbortController();
      controller.current = abort;
      liveRun.current = run.id;
      setActivity({ kind: 'run', runId: run.id });
      const model = answerModelOf(settings);
      const update = (next: EvalRunRecord) => {
        if (next.treeId !== shownTree.current) return;
        setRuns((list) => [next, ...list.filter((r) => r.id !== next.id)]);
      };
      const questions = questionEmbedder(tree, record, settings);
      try {
        const ended = await executeRun(run, {
          db,
          tree,
          embedQuery: questions.embed,
          embeddedOn: questions.ranOn,
          ...(model && treeId
            ? { connectModel: () => connectEvalModel(model, db, treeId, { signal: abort.signal }) }
            : {}),
          signal: abort.signal,
          onGone: () => abort.abort(),
          onUpdate: update,
        });
        update(ended);
        if (ended.status === 'failed') {
          notify({ kind: 'error', title: 'The evaluation stopped', body: ended.error });
        }
      } catch (error) {
        if (!isDeleted(error)) report('The evaluation could not be saved', error);
        else if (shownTree.current === run.treeId) notify(deletedElsewhere('eval-run'));
      } finally {
        liveRun.current = undefined;
        if (controller.current === abort) controller.current = undefined;
        setActivity(undefined);
      }
    },
    [db, tree, treeId, record, settings, activity, notify, report],
  );

  const startRun = useCallback(
    (set: EvalSetRecord, options: EvalRunOptions) => {
      if (!tree || !treeId) return;
      const answerModel = answerModelOf(settings);
      const run = newRun(randomId('run-'), treeId, set, tree, {
        ...options,
        answers: options.answers && !!answerModel,
      });
      void execute(run);
    },
    [tree, treeId, settings, execute],
  );

  const resume = useCallback((run: EvalRunRecord) => void execute(run), [execute]);
  const cancel = useCallback(() => controller.current?.abort(), []);

  const removeRun = useCallback(
    async (id: string) => {
      if (!db) return;
      if (liveRun.current === id) controller.current?.abort();
      await deleteEvalRun(db, id);
      if (treeId) announceDeletion({ kind: 'eval-run', treeId, id });
      await refresh();
    },
    [db, treeId, refresh],
  );

  /** Every tree's sets and runs (to copy a set or compare across trees). */
  const loadOthers = useCallback(async () => {
    if (!db) return { sets: [], runs: [] };
    const [allSets, allRuns] = await Promise.all([listAllEvalSets(db), listAllEvalRuns(db)]);
    return {
      sets: allSets.filter((s) => s.treeId !== treeId),
      runs: allRuns.filter((r) => r.treeId !== treeId).map((r) => settled(r, false)),
    };
  }, [db, treeId]);

  return {
    sets,
    runs,
    activity,
    importFile,
    saveTyped,
    copySet,
    removeSet,
    generate,
    startRun,
    resume,
    cancel,
    removeRun,
    loadOthers,
  };
}

/** What the Evaluate view gets from `useEvaluation`. */
export type Evaluation = ReturnType<typeof useEvaluation>;

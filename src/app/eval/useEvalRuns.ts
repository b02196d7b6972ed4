/**
 * The open tree's evaluation runs as the user starts, resumes and deletes them: a run writes its progress as it
 * goes (so a stopped one can be resumed), shows only on the tree it belongs to, and stops when it is deleted in
 * another tab.
 */
import { useCallback } from 'react';
import { deleteEvalRun, type EvalRunOptions, type EvalRunRecord, type EvalSetRecord } from '../../storage';
import { answerModelOf } from '../settings/app-settings';
import { announceDeletion } from '../state/deletions';
import { randomId } from '../state/ids';
import { connectEvalModel } from './eval-model';
import { deletedElsewhere, isDeleted, type EvalShared } from './eval-shared';
import { questionEmbedder } from './question-embedder';
import { executeRun, newRun } from './run-evaluation';

/** Starting, resuming and deleting runs; see the module comment. */
export function useEvalRuns(shared: EvalShared) {
  const { db, treeId, tree, record, settings, activity, setActivity, setRuns, refresh, notify, report } =
    shared;
  const { controller, liveRun, shownTree } = shared;
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
    [
      db,
      tree,
      treeId,
      record,
      settings,
      activity,
      setActivity,
      setRuns,
      notify,
      report,
      controller,
      liveRun,
      shownTree,
    ],
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

  const removeRun = useCallback(
    async (id: string) => {
      if (!db) return;
      if (liveRun.current === id) controller.current?.abort();
      await deleteEvalRun(db, id);
      if (treeId) announceDeletion({ kind: 'eval-run', treeId, id });
      await refresh();
    },
    [db, treeId, refresh, controller, liveRun],
  );

  return { startRun, resume, removeRun };
}

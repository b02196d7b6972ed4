/**
 * Generating a question set from the open tree with the answering model: the set is stored with its first
 * question and again with each one after, so what was paid for is kept whatever happens next (a cancel, a
 * failing endpoint, a closed tab, the set deleted in another tab).
 */
import { useCallback } from 'react';
import { generateQuestions, generationCallCount, planQuestionGeneration } from '../../core/eval';
import { answerModelOf } from '../settings/app-settings';
import { isCancel } from '../state/messages';
import { connectEvalModel } from './eval-model';
import { deletedElsewhere, isDeleted, type EvalShared } from './eval-shared';
import { generatedSetKeeper, generationNotice } from './generated-set';

/** `generate(count, seed)`: a set of `count` questions planned with `seed`; see the module comment. */
export function useQuestionGeneration(shared: EvalShared) {
  const { db, treeId, tree, settings, activity, setActivity, refresh, notify, report } = shared;
  const { controller, liveSet, shownTree } = shared;
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
    [
      db,
      treeId,
      tree,
      settings,
      activity,
      setActivity,
      refresh,
      notify,
      report,
      controller,
      liveSet,
      shownTree,
    ],
  );

  return generate;
}

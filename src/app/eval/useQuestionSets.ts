/**
 * The open tree's question sets as the user adds and removes them: imported from a JSONL or CSV file (its bad
 * rows reported, its good rows kept), typed, copied from another tree, deleted (and the deletion told to the
 * other tabs).
 */
import { useCallback } from 'react';
import {
  MAX_SET_FILE_BYTES,
  parseQuestionSet,
  questionSetFormatOf,
  setFileTooLarge,
  type EvalQuestion,
} from '../../core/eval';
import { deleteEvalSet, saveEvalSet, type EvalSetRecord } from '../../storage';
import { announceDeletion } from '../state/deletions';
import { randomId } from '../state/ids';
import type { EvalShared, ImportOutcome } from './eval-shared';

/** Adding, copying and deleting the open tree's sets; see the module comment. */
export function useQuestionSets({ db, treeId, refresh, liveSet, controller }: EvalShared) {
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
    [db, treeId, refresh, controller, liveSet],
  );

  return { importFile, saveTyped, copySet, removeSet };
}

/**
 * Each tree's evaluations (schema version 4, stores `evalSets` and `evalRuns`, indexed `byTree`): question sets
 * (typed, imported or generated) and runs (settings, a copy of the questions, the tree as it was, status,
 * progress and the report). Deleting the tree deletes them (`deleteTree`). The replies of the evaluation's
 * model live in the cache store (`cachedEvalChat`).
 */
import { StorageError } from './errors';
import type { AerieDb, EvalRunRecord, EvalSetRecord } from './schema';
import { runTransaction } from './transaction';

const newestFirst = <T extends { updatedAt: number; id: string }>(a: T, b: T) =>
  b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

function checkIds(record: { id: string; treeId: string }, what: string): Promise<never> | undefined {
  if (record.id && record.treeId) return undefined;
  return Promise.reject(
    new StorageError('INVALID_ARGUMENT', `An evaluation ${what} needs an id and a tree.`, {
      id: record.id,
      treeId: record.treeId,
    }),
  );
}

/** The question sets of a tree, the most recently changed first. */
export async function listEvalSets(db: AerieDb, treeId: string): Promise<EvalSetRecord[]> {
  const sets = await runTransaction(db, ['evalSets'], 'readonly', 'read the question sets', (tx) =>
    tx.objectStore('evalSets').index('byTree').getAll(treeId),
  );
  return sets.sort(newestFirst);
}

/** Every tree's question sets (to reuse one on another tree), the most recently changed first. */
export async function listAllEvalSets(db: AerieDb): Promise<EvalSetRecord[]> {
  const sets = await runTransaction(db, ['evalSets'], 'readonly', 'read the question sets', (tx) =>
    tx.objectStore('evalSets').getAll(),
  );
  return sets.sort(newestFirst);
}

/**
 * Stores a question set (a new one, or a new version of one with the same id).
 * @throws StorageError INVALID_ARGUMENT (no id or tree), QUOTA_EXCEEDED.
 */
export function saveEvalSet(db: AerieDb, set: EvalSetRecord): Promise<void> {
  return (
    checkIds(set, 'question set') ??
    runTransaction(db, ['evalSets'], 'readwrite', 'keep the question set', async (tx) => {
      await tx.objectStore('evalSets').put(set);
    })
  );
}

/** Deletes a question set (its runs keep their copy of the questions). */
export function deleteEvalSet(db: AerieDb, id: string): Promise<void> {
  return runTransaction(db, ['evalSets'], 'readwrite', 'delete the question set', async (tx) => {
    await tx.objectStore('evalSets').delete(id);
  });
}

/** The runs of a tree, the most recently changed first. */
export async function listEvalRuns(db: AerieDb, treeId: string): Promise<EvalRunRecord[]> {
  const runs = await runTransaction(db, ['evalRuns'], 'readonly', 'read the evaluation runs', (tx) =>
    tx.objectStore('evalRuns').index('byTree').getAll(treeId),
  );
  return runs.sort(newestFirst);
}

/** Every tree's runs (to compare across trees), the most recently changed first. */
export async function listAllEvalRuns(db: AerieDb): Promise<EvalRunRecord[]> {
  const runs = await runTransaction(db, ['evalRuns'], 'readonly', 'read the evaluation runs', (tx) =>
    tx.objectStore('evalRuns').getAll(),
  );
  return runs.sort(newestFirst);
}

/** One run, or undefined when it does not exist (any more). */
export function getEvalRun(db: AerieDb, id: string): Promise<EvalRunRecord | undefined> {
  return runTransaction(db, ['evalRuns'], 'readonly', 'read the evaluation run', (tx) =>
    tx.objectStore('evalRuns').get(id),
  );
}

/**
 * Stores a run as it now is (status, progress, report). A run whose tree was deleted meanwhile is not stored
 * again (its tree's history is gone with it).
 * @throws StorageError INVALID_ARGUMENT (no id or tree), QUOTA_EXCEEDED.
 */
export function saveEvalRun(db: AerieDb, run: EvalRunRecord): Promise<void> {
  return (
    checkIds(run, 'run') ??
    runTransaction(db, ['trees', 'evalRuns'], 'readwrite', 'keep the evaluation run', async (tx) => {
      if (!(await tx.objectStore('trees').get(run.treeId))) return;
      await tx.objectStore('evalRuns').put(run);
    })
  );
}

/** Deletes a run. */
export function deleteEvalRun(db: AerieDb, id: string): Promise<void> {
  return runTransaction(db, ['evalRuns'], 'readwrite', 'delete the evaluation run', async (tx) => {
    await tx.objectStore('evalRuns').delete(id);
  });
}

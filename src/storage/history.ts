/**
 * A tree's own history (schema version 4: its conversations, evaluation sets and runs) belongs to the tree id.
 * Adding documents to a tree builds a new tree and deletes the old one (`deleteTree` takes its history with
 * it), so the history moves to the new tree first: nothing the user asked or measured is lost, and each record
 * still says which build it was made with (a conversation turn's `treeStamp`).
 */
import { requireTree } from './errors';
import { TREE_HISTORY_STORES, type AerieDb } from './schema';
import { forEachRequest, runTransaction } from './transaction';

/**
 * Moves every history record of tree `from` to tree `to` in one transaction; resolves with how many moved.
 * @throws StorageError NOT_FOUND when tree `to` does not exist (it was deleted meanwhile).
 */
export function moveTreeHistory(db: AerieDb, from: string, to: string): Promise<number> {
  return runTransaction(
    db,
    ['trees', ...TREE_HISTORY_STORES],
    'readwrite',
    'keep the tree’s conversations',
    async (tx) => {
      await requireTree(tx.objectStore('trees'), to);
      let moved = 0;
      for (const name of TREE_HISTORY_STORES) {
        const store = tx.objectStore(name);
        const records = await store.index('byTree').getAll(from);
        await forEachRequest(records, (record) => store.put({ ...record, treeId: to }));
        moved += records.length;
      }
      return moved;
    },
  );
}

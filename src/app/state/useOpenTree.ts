/** The tree the user opened: its nodes and embeddings, its record, and the text of its documents. */
import { useEffect, useState } from 'react';
import { prepareKeywordIndex, prepareRetrieval } from '../../core/search';
import { computeLabelsInWorker } from '../../client/labels';
import { applyLabels, lacksLabels } from '../../core/labels';
import type { RaptorTree } from '../../core/types';
import { getDocuments, getTree, loadTree, saveNodeLabels, type AerieDb } from '../../storage';
import type { DocumentRecord, OriginalInfo, TreeRecord } from '../../storage';
import { errorMessage } from './messages';

/** A document of the open tree with its text ('' when the tree was imported without texts). */
export interface OpenDocument {
  id: string;
  name: string;
  text: string;
  /** PDFs: where pages 2, 3, … start in `text`. */
  pageStarts?: number[];
  /** PDFs: the stored text's id and whether the original file is kept (absent: built before it was). */
  pdf?: { documentId?: string; original?: OriginalInfo };
}

/** The open tree, loaded from storage whenever `treeId` (or `version`, after a rebuild) changes. */
export function useOpenTree(db: AerieDb | undefined, treeId: string | undefined, version = 0) {
  const [state, setState] = useState<{
    tree?: RaptorTree;
    record?: TreeRecord;
    documents: OpenDocument[];
    loading: boolean;
    error?: string;
  }>({ documents: [], loading: false });

  useEffect(() => {
    if (!db || !treeId) {
      setState({ documents: [], loading: false });
      return;
    }
    let live = true;
    const closed = new AbortController();
    setState((s) => ({ ...s, loading: true, error: undefined }));
    (async () => {
      const record = await getTree(db, treeId);
      if (!record) throw new Error('This tree no longer exists (it may have been deleted in another tab).');
      if (record.status !== 'ready') return { record, documents: [] as OpenDocument[] };
      const tree = await loadTree(db, treeId);
      await labelOldTree(db, treeId, tree, closed.signal);
      // The retrieval index (norms, layers, the scoring kernel) now, while the tree is drawn, so the first
      // question does not build it. A tree it cannot index opens anyway; asking says why.
      try {
        prepareRetrieval(tree);
      } catch {
        // Reported by the first question (retrieve throws the same error there).
      }
      // The keyword index, a few hundred nodes at a time so the page stays responsive (trees of every version
      // get it here; a question asked before it is done builds it at once).
      void prepareKeywordIndex(tree.nodes);
      const ids = record.documents.map((d) => d.documentId ?? '');
      const texts = await getDocuments(db, ids.filter(Boolean));
      const byId = new Map(texts.filter((t): t is DocumentRecord => t !== undefined).map((t) => [t.id, t]));
      const documents = record.documents.map((d): OpenDocument => {
        const stored = d.documentId ? byId.get(d.documentId) : undefined;
        const doc: OpenDocument = { id: d.id, name: d.name, text: stored?.text ?? '' };
        if (stored?.pageStarts) doc.pageStarts = stored.pageStarts;
        if (stored?.type === 'application/pdf' || d.original)
          doc.pdf = { documentId: d.documentId, ...(d.original ? { original: d.original } : {}) };
        return doc;
      });
      return { tree, record, documents };
    })().then(
      (loaded) => live && setState({ ...loaded, loading: false }),
      (error: unknown) => live && setState({ documents: [], loading: false, error: errorMessage(error) }),
    );
    return () => {
      live = false;
      closed.abort();
    };
  }, [db, treeId, version]);

  return state;
}

/**
 * A tree saved before topic labels existed (or imported from a file without them) gets its labels now, and
 * they are saved with it, so this happens once. Nothing else of the tree changes. They are computed in a
 * worker: about a second of CPU for a 1M-token tree, which on the page's thread would freeze it. When the
 * worker fails the tree opens without them, and when saving fails (a full disk) they are shown anyway; either
 * way the next opening tries again. Closing the tree first (another one opened) ends the worker.
 */
async function labelOldTree(
  db: AerieDb,
  treeId: string,
  tree: RaptorTree,
  signal: AbortSignal,
): Promise<void> {
  if (!lacksLabels(tree.nodes)) return;
  let labels: (string[] | undefined)[];
  try {
    labels = await computeLabelsInWorker(tree.nodes, signal);
  } catch (error) {
    if (signal.aborted) throw error;
    return; // Opened without labels; computed again when the tree next opens.
  }
  const filled = applyLabels(tree.nodes, labels);
  if (filled.length === 0) return;
  try {
    await saveNodeLabels(
      db,
      treeId,
      filled.map((id) => ({ id, label: tree.nodes[id].label! })),
    );
  } catch {
    // Shown from memory this time; computed and saved again when the tree next opens.
  }
}

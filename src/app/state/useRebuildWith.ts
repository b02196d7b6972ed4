/**
 * Adding documents to a tree: the tree is built again with its own settings and documents plus the new ones,
 * and replaces the old one once ready (its conversations and evaluations move to it). The cached embeddings
 * and summaries make only new or changed clusters cost LLM calls.
 */
import { useCallback } from 'react';
import type { BuildRequest } from '../../protocol/build';
import {
  deleteTree,
  duplicateTreeSettings,
  getTree,
  moveTreeHistory,
  type AerieDb,
  type NewOriginal,
  type OriginalInfo,
} from '../../storage';
import { announceDeletion } from './deletions';
import { randomId } from './ids';
import { toBuildDocuments } from './request';
import { originalOf, type ReadyDocument } from './useDocuments';
import { forgetInLedger } from './useLibrary';

/** Starts a build of `request` and resolves with the new tree's id once it ends (useBuild's `startRequest`). */
export type StartBuildRequest = (
  request: BuildRequest,
  files: { type: string; size: number }[],
  taken: readonly string[],
  originals: readonly (NewOriginal | undefined)[],
  shareOriginals: readonly (OriginalInfo | undefined)[],
) => Promise<string>;

/** What a rebuild needs from the library's actions. */
export interface RebuildWithOptions {
  db: AerieDb | undefined;
  /** A failure as a notice with this title. */
  report(title: string, error: unknown): void;
  /** The library changed: tell the other tabs and read it again. */
  changed(): Promise<void>;
}

/** `rebuildWith(treeId, added, startRequest)`; see the module comment. */
export function useRebuildWith({ db, report, changed }: RebuildWithOptions) {
  return useCallback(
    async (treeId: string, added: readonly ReadyDocument[], startRequest: StartBuildRequest) => {
      if (!db) return;
      try {
        const draft = await duplicateTreeSettings(db, treeId);
        if (!draft.embedding || !draft.summarizer)
          throw new Error('An imported tree cannot be rebuilt; start a new build.');
        const newDocs = toBuildDocuments(added.map((a) => a.document)).map((d, i) => ({
          ...d,
          id: `d${draft.documents.length + i + 1}`,
        }));
        const request: BuildRequest = {
          buildId: randomId('t'),
          title: draft.title,
          documents: [...draft.documents, ...newDocs],
          params: draft.params,
          embedding: draft.embedding,
          summarizer: draft.summarizer,
        };
        const files = request.documents.map((d) => ({ type: 'text/plain', size: d.text.length }));
        const newId = await startRequest(
          request,
          files,
          added.map((a) => a.key),
          [...draft.documents.map(() => undefined), ...added.map(originalOf)],
          // The files the tree's own documents keep: the rebuild keeps the same ones (by their hash).
          draft.originals,
        );
        const record = await getTree(db, newId);
        if (record?.status === 'ready') {
          // The conversations (and evaluations) go with the documents to the tree that replaces this one.
          await moveTreeHistory(db, treeId, newId);
          forgetInLedger(treeId);
          await deleteTree(db, treeId);
          announceDeletion({ kind: 'tree', treeId, replacedBy: newId });
          await changed();
        }
      } catch (e) {
        report('The documents could not be added', e);
      }
    },
    [db, changed, report],
  );
}

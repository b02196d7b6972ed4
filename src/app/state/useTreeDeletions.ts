/**
 * The open tree deleted, in this tab or another (issue 41): whatever runs on it here stops at once — the
 * question being answered (its request aborted), an evaluation or a question generation — and the tree closes.
 * A tab that did not delete it says so; a tree another tab rebuilt with added documents is replaced by the
 * rebuilt one. Its build, if one runs, is stopped by the build protocol (pipeline/build-stop.ts), and storage
 * refuses any write that still comes for it (storage/errors.ts `requireTree`).
 */
import { useCallback, useEffect, useRef } from 'react';
import { StorageError } from '../../storage';
import { forgetEmbeddedTexts } from '../../client/workers';
import { onDeletions } from './deletions';
import type { NoticeInput } from './useNotices';

/** What the page does when its open tree is deleted. */
export interface TreeDeletionOptions {
  /** Stops everything that runs on the open tree (answers, evaluations, generation). */
  stop(): void;
  /** Opens another tree (the rebuilt one), or none. */
  open(treeId: string | undefined): void;
  notify(notice: NoticeInput): void;
  /** The open tree's title, for the notice. */
  title?: string;
}

/** What a tab says when another tab deleted (or rebuilt) the tree it had open. Pure, tested in Node. */
export function deletedElsewhereNotice(title: string | undefined, rebuilt: boolean): NoticeInput {
  const name = title ? `“${title}”` : 'The tree';
  return rebuilt
    ? {
        kind: 'info',
        key: 'tree-deleted',
        title: 'This tree was rebuilt in another tab',
        body: `${name} was rebuilt with added documents in another Aerie tab; the new tree is open here, with its conversations and evaluations. Work that ran on the old one here was stopped.`,
      }
    : {
        kind: 'warning',
        key: 'tree-deleted',
        title: 'This tree was deleted in another tab',
        body: `${name} was deleted in another Aerie tab, so it was closed here. Anything that ran on it here (a question being answered, an evaluation, a question generation) was stopped, and nothing more of it is kept.`,
      };
}

/** Listens for deletions of the open tree `openId` made in other tabs; see the returned functions. */
export function useTreeDeletions(openId: string | undefined, options: TreeDeletionOptions) {
  const latest = useRef({ openId, ...options });
  latest.current = { openId, ...options };

  const close = useCallback((treeId: string, elsewhere: boolean, replacedBy?: string) => {
    const { openId: open, stop, open: openTree, notify, title } = latest.current;
    if (treeId !== open) return;
    stop();
    openTree(replacedBy);
    if (elsewhere) notify(deletedElsewhereNotice(title, replacedBy !== undefined));
  }, []);

  useEffect(
    () =>
      onDeletions((deletion) => {
        if (deletion.kind !== 'tree') return;
        // This tab's embedding workers may hold its passages (a question asked of it here): forgotten.
        forgetEmbeddedTexts();
        close(deletion.treeId, true, deletion.replacedBy);
      }),
    [close],
  );

  /** The deleting tab's own call: stops and closes, without the notice. */
  const closeDeleted = useCallback((treeId: string) => close(treeId, false), [close]);
  /**
   * When `error` is storage refusing a write because the open tree is gone (deleted in a tab whose message did
   * not come), closes it with the notice and returns true; otherwise false (the caller reports the error).
   */
  const handledGone = useCallback(
    (error: unknown): boolean => {
      const treeId = (error as { details?: { treeId?: unknown } } | null)?.details?.treeId;
      if (!(error instanceof StorageError) || error.code !== 'NOT_FOUND' || typeof treeId !== 'string')
        return false;
      if (treeId !== latest.current.openId) return false;
      close(treeId, true);
      return true;
    },
    [close],
  );
  return { closeDeleted, handledGone };
}

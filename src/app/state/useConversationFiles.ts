/**
 * Deleting the open tree's conversations (one, or all; other tabs are told: conversations/channel.ts) and
 * exporting the active one as Markdown.
 */
import { useCallback } from 'react';
import type { RaptorTree } from '../../core/types';
import {
  deleteConversation,
  deleteConversations,
  getTurns,
  type AerieDb,
  type ConversationRecord,
} from '../../storage';
import { announceDeleted } from '../conversations/channel';
import { conversationFileName, conversationMarkdown } from '../conversations/markdown';
import { download } from '../download';
import { errorMessage } from './messages';
import type { NoticeInput } from './useNotices';

/** What the conversations are deleted from and exported with. */
export interface ConversationFilesOptions {
  db: AerieDb | undefined;
  treeId: string | undefined;
  tree: RaptorTree | undefined;
  /** The active conversation, and the open tree's stamp kept in its export. */
  active: ConversationRecord | undefined;
  stamp: string | undefined;
  notify: (n: NoticeInput) => void;
  /** Forgets the conversations `gone` names (useConversationList). */
  forget: (gone: (id: string) => boolean) => boolean;
  /** Reads the list again (after a failed delete). */
  reload: () => Promise<void>;
}

/** Deletes one conversation, deletes them all, exports the active one. */
export function useConversationFiles(options: ConversationFilesOptions) {
  const { db, treeId, tree, active, stamp, notify, forget, reload } = options;
  const remove = useCallback(
    async (id: string) => {
      if (!db || !treeId) return;
      forget((c) => c === id);
      announceDeleted({ type: 'deleted', treeId, ids: [id] });
      try {
        await deleteConversation(db, id);
      } catch (error) {
        notify({ kind: 'error', title: 'The conversation could not be deleted', body: errorMessage(error) });
        void reload();
      }
    },
    [db, treeId, forget, notify, reload],
  );

  const removeAll = useCallback(async () => {
    if (!db || !treeId) return;
    forget(() => true);
    announceDeleted({ type: 'deleted-all', treeId });
    try {
      const count = await deleteConversations(db, treeId);
      notify({
        kind: 'success',
        title: `Deleted ${count} ${count === 1 ? 'conversation' : 'conversations'}`,
      });
    } catch (error) {
      notify({ kind: 'error', title: 'The conversations could not be deleted', body: errorMessage(error) });
      void reload();
    }
  }, [db, treeId, forget, notify, reload]);

  const exportMarkdown = useCallback(async () => {
    if (!db || !active || !tree) return;
    try {
      const turns = await getTurns(db, active.id);
      download(
        conversationFileName(active),
        conversationMarkdown(active, turns, tree.title, stamp),
        'text/markdown',
      );
    } catch (error) {
      notify({ kind: 'error', title: 'The conversation could not be exported', body: errorMessage(error) });
    }
  }, [db, active, tree, stamp, notify]);
  return { remove, removeAll, exportMarkdown };
}

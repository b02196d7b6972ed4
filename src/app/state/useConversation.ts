/**
 * The open tree's conversations: the list kept in IndexedDB, the one being continued, and asking within it. A
 * follow-up is made standalone before it is searched — rewritten by the answering model (shown, editable,
 * before it runs) or, without one, joined with the questions before it — and the earlier turns go to the
 * answering model within `HISTORY_TOKENS`.
 *
 * Keeping its word: a conversation is created when its first question is asked, and each finished turn is
 * stored at once (a reload keeps it), but only into a conversation that still exists. Deleting a conversation
 * (here, or in another tab: conversations/channel.ts) stops the question being answered in it at once, and
 * nothing brings it back. Only the last `PAGE_TURNS` turns are read and shown; earlier ones a page at a time on
 * request, so a conversation of any length opens, types and answers as a short one does.
 */
import { useCallback, useMemo, useRef, useState } from 'react';
import type { RaptorTree } from '../../core/types';
import { historyMessages } from '../../llm';
import {
  deleteConversation,
  saveTurn,
  StorageError,
  type AerieDb,
  type ConversationTurn,
} from '../../storage';
import { earlierTurns, treeStampOf, turnFromResults, turnsBefore } from '../conversations/turns';
import type { AppSettings } from '../settings/app-settings';
import { randomId } from './ids';
import { errorMessage } from './messages';
import type { AskKind, AskResults, ConversationProps, PendingSearch, RetrievalSettings } from './types';
import type { NoticeInput } from './useNotices';
import type { QuestionRun } from './useAsk';
import { useConversationFiles } from './useConversationFiles';
import { useConversationList, withFirst } from './useConversationList';
import { useFollowUp } from './useFollowUp';

export { PAGE_TURNS } from './useConversationList';

/** The asking functions of `useAsk` this hook drives. */
export interface Asker {
  ask(question: string, s: RetrievalSettings, how?: QuestionRun): Promise<AskResults | undefined>;
  compare(question: string, s: RetrievalSettings, how?: QuestionRun): Promise<AskResults | undefined>;
  /** Stops the question being answered at once and clears the screen. */
  discard(): void;
  /** Clears the screen; the question being answered goes on without showing. */
  detach(): void;
}

/** What `useConversation` works on and with. */
export interface ConversationOptions {
  /** The open database (undefined while it opens). */
  db: AerieDb | undefined;
  /** The open tree's id, once its tree has loaded. */
  treeId: string | undefined;
  tree: RaptorTree | undefined;
  settings: AppSettings;
  /** Runs a question's search and answer (useAsk). */
  asker: Asker;
  notify: (n: NoticeInput) => void;
  /**
   * Any value that changes when the library changed (the page passes its list of trees): the list of conversations
   * is read again, e.g. after a rebuilt tree received its predecessor's conversations.
   */
  libraryVersion?: unknown;
  /** Where a node's text is in the documents, kept with each passage of a turn (the export carries it). */
  placeOf?: (id: number) => string | undefined;
}

/** State and actions of the open tree's conversations. */
export function useConversation(options: ConversationOptions) {
  const { db, treeId, tree, settings, asker, notify, placeOf } = options;
  const { discard, detach } = asker;
  const [pending, setPending] = useState<PendingSearch>();
  const rewriting = useRef<AbortController | undefined>(undefined);
  const conversations = useConversationList({ ...options, discard, rewriting, setPending });
  const { list, activeId, turnWindow, activeRef, windowRef, listRef, answering, deleted } = conversations;
  const { activate, showList, reload, open, showEarlier, forget, conversationFor } = conversations;
  const { ask, compare } = asker;
  const stamp = tree ? treeStampOf(tree) : undefined;
  const active = list.find((c) => c.id === activeId);

  const run = useCallback(
    async (
      question: string,
      kind: AskKind,
      s: RetrievalSettings,
      search: string,
      rewrite: ConversationTurn['rewrite'],
    ) => {
      if (!tree || !treeId || !db) return;
      const target = await conversationFor(question);
      if (!target) return;
      const { id } = target;
      const shown = windowRef.current?.conversationId === id ? windowRef.current.turns : [];
      const how: QuestionRun = { search, history: historyMessages(earlierTurns(shown)) };
      const askedAt = Date.now();
      answering.current = id;
      let results: AskResults | undefined;
      try {
        results = await (kind === 'compare' ? compare : ask)(question, s, how);
      } finally {
        if (answering.current === id) answering.current = undefined;
        // A new conversation whose first question failed keeps nothing.
        if (target.created && !results) {
          showList(listRef.current.filter((c) => c.id !== id));
          if (activeRef.current === id) activate(undefined);
          await deleteConversation(db, id).catch(() => undefined);
        }
      }
      if (!results || deleted.current.has(id)) return;
      const turn = turnFromResults({
        id: randomId('t-'),
        results,
        settings: s,
        rewrite,
        treeStamp: treeStampOf(tree),
        askedAt,
        placeOf,
      });
      try {
        const saved = await saveTurn(db, treeId, id, turn);
        if (deleted.current.has(id)) return;
        showList(withFirst(listRef.current, saved.conversation));
        const now = windowRef.current;
        if (activeRef.current === id && now?.conversationId === id) {
          activate(id, { ...now, turns: [...now.turns, turn] });
        }
      } catch (error) {
        // Deleted in another tab while it was answered (the message may not have arrived yet): nothing to keep.
        if (error instanceof StorageError && error.code === 'NOT_FOUND') {
          forget((c) => c === id);
          return;
        }
        notify({
          kind: 'error',
          title: 'This answer could not be kept in the conversation',
          body: `${errorMessage(error)} It stays on screen until the next question.`,
        });
      }
    },
    [
      tree,
      treeId,
      db,
      ask,
      compare,
      conversationFor,
      notify,
      showList,
      activate,
      forget,
      placeOf,
      windowRef,
      answering,
      listRef,
      activeRef,
      deleted,
    ],
  );

  const { submit, confirm, dismiss } = useFollowUp({
    settings,
    run,
    activeRef,
    windowRef,
    pending,
    setPending,
    rewriting,
  });

  /** Leaves the conversation: a question being answered in it goes on and is kept there, out of sight. */
  const leave = useCallback(() => {
    dismiss();
    detach();
  }, [dismiss, detach]);

  const startNew = useCallback(() => {
    leave();
    activate(undefined);
  }, [leave, activate]);

  const select = useCallback(
    (id: string) => {
      leave();
      void open(id);
    },
    [leave, open],
  );

  const { remove, removeAll, exportMarkdown } = useConversationFiles({
    ...options,
    active,
    stamp,
    forget,
    reload,
  });

  return {
    list,
    active,
    turnWindow: turnWindow?.conversationId === activeId ? turnWindow : undefined,
    stamp,
    pending,
    submit,
    confirm,
    dismiss,
    startNew,
    select,
    remove,
    removeAll,
    showEarlier,
    exportMarkdown,
  };
}

/**
 * What the Ask panel shows of `conversation`: the bar's list and actions, the earlier turns (the same array
 * while they do not change, so typing or a streaming answer never re-renders them), and the follow-up waiting
 * for its search.
 */
export function useConversationPanel(
  conversation: ReturnType<typeof useConversation>,
  results: Pick<AskResults, 'question'> | undefined,
  onConfirm: (search: string) => void,
): ConversationProps {
  const { list, active, turnWindow, stamp, pending, dismiss, showEarlier } = conversation;
  const { select, startNew, exportMarkdown, remove, removeAll } = conversation;
  const activeId = active?.id;
  const bar = useMemo(
    () => ({
      // A conversation whose first question is still being answered (or was cut off by a reload) is listed
      // only while it is the one shown.
      conversations: list
        .filter((c) => c.turnCount > 0 || c.id === activeId)
        .map((c) => ({ id: c.id, title: c.title, turns: c.turnCount })),
      activeId,
      onSelect: select,
      onNew: startNew,
      onExport: () => void exportMarkdown(),
      onDelete: (id: string) => void remove(id),
      onDeleteAll: () => void removeAll(),
    }),
    [list, activeId, select, startNew, exportMarkdown, remove, removeAll],
  );
  const question = results?.question;
  const shownTurns = turnWindow?.turns;
  const turns = useMemo(
    () => turnsBefore(shownTurns ?? [], question === undefined ? undefined : { question }),
    [shownTurns, question],
  );
  const onShowEarlier = useCallback(() => void showEarlier(), [showEarlier]);
  return {
    bar,
    turns,
    earlier: turnWindow?.from ?? 0,
    onShowEarlier,
    stamp,
    pending,
    onConfirm,
    onCancelPending: dismiss,
  };
}

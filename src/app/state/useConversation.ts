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
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { generateWorker } from '../../client/workers';
import type { RaptorTree } from '../../core/types';
import {
  builtinChat,
  endpointChat,
  historyMessages,
  joinFollowUp,
  rewriteFollowUp,
  type ChatFn,
} from '../../llm';
import { connectGenerator } from '../../models/generate/generate-client';
import {
  deleteConversation,
  deleteConversations,
  getConversation,
  getTurns,
  listConversations,
  MAX_CONVERSATION_TURNS,
  saveTurn,
  startConversation,
  StorageError,
  type AerieDb,
  type ConversationRecord,
  type ConversationTurn,
} from '../../storage';
import { announceDeleted, deletes, onConversationsDeleted } from '../conversations/channel';
import { conversationFileName, conversationMarkdown } from '../conversations/markdown';
import { earlierTurns, treeStampOf, turnFromResults, turnsBefore } from '../conversations/turns';
import { answerModelOf, toLlmEndpoint, type AnswerModel, type AppSettings } from '../settings/app-settings';
import { download } from '../download';
import { randomId } from './ids';
import { errorMessage, isCancel } from './messages';
import type { AskKind, AskResults, ConversationProps, PendingSearch, RetrievalSettings } from './types';
import type { NoticeInput } from './useNotices';
import type { QuestionRun } from './useAsk';

/** Turns read and shown at once: the latest, then this many more each time earlier ones are asked for. */
export const PAGE_TURNS = 20;

/** The asking functions of `useAsk` this hook drives. */
export interface Asker {
  ask(question: string, s: RetrievalSettings, how?: QuestionRun): Promise<AskResults | undefined>;
  compare(question: string, s: RetrievalSettings, how?: QuestionRun): Promise<AskResults | undefined>;
  /** Stops the question being answered at once and clears the screen. */
  discard(): void;
  /** Clears the screen; the question being answered goes on without showing. */
  detach(): void;
}

/** The turns of the active conversation read so far: its last ones, from its turn number `from`. */
interface TurnWindow {
  conversationId: string;
  from: number;
  turns: ConversationTurn[];
}

/** The answering model as a plain chat function (for the rewrite), loading the built-in model if needed. */
async function chatOf(model: AnswerModel, signal: AbortSignal): Promise<ChatFn> {
  if (model.kind === 'endpoint') return endpointChat(toLlmEndpoint(model.endpoint), false);
  const generator = await connectGenerator(generateWorker(), model.generator, () => undefined, { signal });
  return builtinChat(generator);
}

/** `list` with `record` first (it just changed). */
const withFirst = (list: ConversationRecord[], record: ConversationRecord) => [
  record,
  ...list.filter((c) => c.id !== record.id),
];

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
// eslint-disable-next-line max-lines-per-function -- not yet cut along its seams into hooks or components (issue 46; docs/architecture.md lists the long functions)
export function useConversation(options: ConversationOptions) {
  const { db, treeId, tree, settings, asker, notify, libraryVersion, placeOf } = options;
  const [list, setList] = useState<ConversationRecord[]>([]);
  const [activeId, setActive] = useState<string>();
  const [turnWindow, setWindow] = useState<TurnWindow>();
  const { ask, compare, discard, detach } = asker;
  const [pending, setPending] = useState<PendingSearch>();
  const rewriting = useRef<AbortController | undefined>(undefined);
  // Refs for what the asynchronous steps must see as it is now, not as it was when they began.
  const activeRef = useRef<string | undefined>(undefined);
  const windowRef = useRef<TurnWindow | undefined>(undefined);
  const listRef = useRef<ConversationRecord[]>([]);
  /** The conversation a question is being answered in. */
  const answering = useRef<string | undefined>(undefined);
  /** Conversations deleted (here or in another tab) since the page opened: never saved into again. */
  const deleted = useRef(new Set<string>());
  const stamp = tree ? treeStampOf(tree) : undefined;
  const active = list.find((c) => c.id === activeId);

  const activate = useCallback((id: string | undefined, turns?: TurnWindow) => {
    activeRef.current = id;
    windowRef.current = turns;
    setActive(id);
    setWindow(turns);
  }, []);
  const showList = useCallback((next: ConversationRecord[]) => {
    listRef.current = next;
    setList(next);
  }, []);

  const reload = useCallback(async () => {
    if (!db || !treeId) {
      showList([]);
      return;
    }
    try {
      showList((await listConversations(db, treeId)).filter((c) => !deleted.current.has(c.id)));
    } catch (error) {
      notify({ kind: 'error', title: 'The conversations could not be read', body: errorMessage(error) });
    }
  }, [db, treeId, notify, showList]);

  // Another tree: a new conversation to continue.
  useEffect(() => {
    activate(undefined);
    setPending(undefined);
  }, [treeId, activate]);
  // Its conversations, read again whenever the library changes.
  useEffect(() => {
    void reload();
  }, [reload, libraryVersion]);

  /** Reads the last page of conversation `id` and makes it the active one. */
  const open = useCallback(
    async (id: string) => {
      activate(id, { conversationId: id, from: 0, turns: [] });
      if (!db) return;
      try {
        const record = await getConversation(db, id);
        const from = Math.max(0, (record?.turnCount ?? 0) - PAGE_TURNS);
        const turns = await getTurns(db, id, from);
        if (activeRef.current === id) activate(id, { conversationId: id, from, turns });
      } catch (error) {
        notify({ kind: 'error', title: 'The conversation could not be read', body: errorMessage(error) });
      }
    },
    [db, activate, notify],
  );

  /** Reads the page of turns before those shown. */
  const showEarlier = useCallback(async () => {
    const shown = windowRef.current;
    if (!db || !shown || shown.from === 0) return;
    const from = Math.max(0, shown.from - PAGE_TURNS);
    try {
      const earlier = await getTurns(db, shown.conversationId, from, shown.from);
      const now = windowRef.current;
      if (now?.conversationId !== shown.conversationId || now.from !== shown.from) return;
      activate(shown.conversationId, { ...now, from, turns: [...earlier, ...now.turns] });
    } catch (error) {
      notify({ kind: 'error', title: 'The earlier questions could not be read', body: errorMessage(error) });
    }
  }, [db, activate, notify]);

  /** Forgets conversations deleted elsewhere or here; stops a question being answered in one of them. */
  const forget = useCallback(
    (gone: (id: string) => boolean) => {
      for (const c of listRef.current) if (gone(c.id)) deleted.current.add(c.id);
      if (answering.current !== undefined && gone(answering.current)) {
        deleted.current.add(answering.current);
        discard();
      }
      const current = activeRef.current;
      if (current !== undefined && gone(current)) {
        rewriting.current?.abort();
        setPending(undefined);
        activate(undefined);
      }
      showList(listRef.current.filter((c) => !gone(c.id)));
      return current !== undefined && gone(current);
    },
    [discard, activate, showList],
  );

  // Conversations another tab deleted: a question answered in one stops at once.
  useEffect(() => {
    if (!treeId) return undefined;
    return onConversationsDeleted((message) => {
      const wasOpen = forget((id) => deletes(message, treeId, id));
      if (wasOpen) {
        notify({
          kind: 'info',
          title: 'This conversation was deleted in another Aerie tab',
          body: 'Its question was stopped, and nothing of it is kept.',
        });
      }
    });
  }, [treeId, forget, notify]);

  /** The conversation the next question goes into: the active one, or a new one (stored now). */
  const conversationFor = useCallback(
    async (question: string): Promise<{ id: string; created: boolean } | undefined> => {
      if (!db || !treeId) return undefined;
      const current = activeRef.current;
      const record = listRef.current.find((c) => c.id === current);
      if (current !== undefined && record && record.turnCount < MAX_CONVERSATION_TURNS) {
        // Deleted meanwhile (with its tree, or alone) in a tab whose message did not come: never paid for.
        if (await getConversation(db, current)) return { id: current, created: false };
        forget((c) => c === current);
      }
      if (record && record.turnCount >= MAX_CONVERSATION_TURNS) {
        notify({
          kind: 'info',
          title: `“${record.title}” holds ${MAX_CONVERSATION_TURNS.toLocaleString('en')} questions`,
          body: 'That is the most one conversation keeps, so this question starts a new one.',
        });
      }
      const id = randomId('c-');
      const started = await startConversation(db, treeId, id, question);
      showList(withFirst(listRef.current, started));
      activate(id, { conversationId: id, from: 0, turns: [] });
      return { id, created: true };
    },
    [db, treeId, notify, showList, activate, forget],
  );

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
    [tree, treeId, db, ask, compare, conversationFor, notify, showList, activate, forget, placeOf],
  );

  /**
   * Asks `question`: at once when it starts a conversation, is not a follow-up (`followUp` false: the user
   * said so) or no answering model is set (a follow-up is then joined with the questions before it); otherwise
   * the model first rewrites the follow-up and the page shows the rewrite for the user to run, edit or drop.
   */
  const submit = useCallback(
    async (question: string, s: RetrievalSettings, kind: AskKind, followUp = true) => {
      const shown = windowRef.current?.conversationId === activeRef.current ? windowRef.current : undefined;
      const turns = shown?.turns ?? [];
      if (turns.length === 0 || !followUp) return run(question, kind, s, question, 'none');
      const model = answerModelOf(settings);
      const earlier = earlierTurns(turns);
      if (!model) return run(question, kind, s, joinFollowUp(earlier, question), 'joined');
      rewriting.current?.abort();
      const abort = new AbortController();
      rewriting.current = abort;
      setPending({ question, kind, settings: s, status: 'rewriting' });
      try {
        const chat = await chatOf(model, abort.signal);
        const proposed = await rewriteFollowUp(chat, earlier, question, { signal: abort.signal });
        if (rewriting.current === abort) {
          setPending({ question, kind, settings: s, status: 'confirm', proposed, rewrite: 'llm' });
        }
      } catch (error) {
        if (isCancel(error) || rewriting.current !== abort) return;
        // The follow-up is not lost: the joined form is offered instead, with the reason.
        setPending({
          question,
          kind,
          settings: s,
          status: 'confirm',
          proposed: joinFollowUp(earlier, question),
          rewrite: 'joined',
          note: `The model could not rewrite the follow-up (${errorMessage(error)}), so it is joined with the questions before it.`,
        });
      }
    },
    [settings, run],
  );

  /** Runs the pending follow-up with `search` (as proposed, or as the user edited it). */
  const confirm = useCallback(
    (search: string) => {
      if (!pending || pending.status !== 'confirm') return Promise.resolve();
      const text = search.trim() || pending.question;
      const rewrite = text === pending.question ? 'none' : (pending.rewrite ?? 'llm');
      setPending(undefined);
      return run(pending.question, pending.kind, pending.settings, text, rewrite);
    },
    [pending, run],
  );

  const dismiss = useCallback(() => {
    rewriting.current?.abort();
    setPending(undefined);
  }, []);

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

/**
 * The open tree's conversations: the list kept in IndexedDB, the one being continued, and asking within it. A
 * follow-up is made standalone before it is searched — rewritten by the answering model (shown, editable,
 * before it runs) or, without one, joined with the questions before it — and the earlier turns go to the
 * answering model within `HISTORY_TOKENS`. Each finished turn is stored at once, so a reload keeps it.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
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
import { connectGenerator } from '../../models/generate-client';
import {
  deleteConversation,
  deleteConversations,
  listConversations,
  saveTurn,
  type AerieDb,
  type ConversationRecord,
  type ConversationTurn,
} from '../../storage';
import { conversationFileName, conversationMarkdown } from '../conversations/markdown';
import { earlierTurns, treeStampOf, turnFromResults, turnsBefore } from '../conversations/turns';
import type { ConversationProps } from '../ask/AskPanel';
import { answerModelOf, toLlmEndpoint, type AnswerModel, type AppSettings } from '../settings';
import { download } from '../download';
import { randomId } from './ids';
import { errorMessage, isCancel } from './messages';
import type { AskResults, RetrievalSettings } from './types';
import type { NoticeInput } from './useNotices';
import type { QuestionRun } from './useAsk';

/** What "Ask" and "Compare modes" run. */
export type AskKind = 'ask' | 'compare';

/** The asking functions of `useAsk` this hook drives. */
export interface Asker {
  ask(question: string, s: RetrievalSettings, how?: QuestionRun): Promise<AskResults | undefined>;
  compare(question: string, s: RetrievalSettings, how?: QuestionRun): Promise<AskResults | undefined>;
}

/** A follow-up waiting for its standalone search: being rewritten, or shown for the user to confirm or edit. */
export interface PendingSearch {
  question: string;
  kind: AskKind;
  settings: RetrievalSettings;
  status: 'rewriting' | 'confirm';
  /** The proposed standalone search (status 'confirm'). */
  proposed?: string;
  /** How `proposed` came about. */
  rewrite?: 'llm' | 'joined';
  /** Why the model's rewrite is missing (it failed), when it is. */
  note?: string;
}

/** The answering model as a plain chat function (for the rewrite), loading the built-in model if needed. */
async function chatOf(model: AnswerModel, signal: AbortSignal): Promise<ChatFn> {
  if (model.kind === 'endpoint') return endpointChat(toLlmEndpoint(model.endpoint), false);
  const generator = await connectGenerator(generateWorker(), model.generator, () => undefined, { signal });
  return builtinChat(generator);
}

/** State and actions of the open tree's conversations. */
export function useConversation(
  db: AerieDb | undefined,
  treeId: string | undefined,
  tree: RaptorTree | undefined,
  settings: AppSettings,
  asker: Asker,
  notify: (n: NoticeInput) => void,
  /** Changes when the library changed (e.g. a rebuilt tree received its predecessor's conversations). */
  libraryVersion?: unknown,
  /** Where a node's text is in the documents, kept with each passage of a turn (the export carries it). */
  placeOf?: (id: number) => string | undefined,
) {
  const [list, setList] = useState<ConversationRecord[]>([]);
  const [activeId, setActiveId] = useState<string>();
  const [pending, setPending] = useState<PendingSearch>();
  const rewriting = useRef<AbortController | undefined>(undefined);
  const stamp = tree ? treeStampOf(tree) : undefined;
  const active = list.find((c) => c.id === activeId);

  const reload = useCallback(async () => {
    if (!db || !treeId) {
      setList([]);
      return;
    }
    try {
      setList(await listConversations(db, treeId));
    } catch (error) {
      notify({ kind: 'error', title: 'The conversations could not be read', body: errorMessage(error) });
    }
  }, [db, treeId, notify]);

  // Another tree: a new conversation to continue.
  useEffect(() => {
    setActiveId(undefined);
    setPending(undefined);
  }, [treeId]);
  // Its conversations, read again whenever the library changes.
  useEffect(() => {
    void reload();
  }, [reload, libraryVersion]);

  const run = useCallback(
    async (
      question: string,
      kind: AskKind,
      s: RetrievalSettings,
      search: string,
      rewrite: ConversationTurn['rewrite'],
    ) => {
      if (!tree || !treeId) return;
      const turns = active?.turns ?? [];
      const how: QuestionRun = { search, history: historyMessages(earlierTurns(turns)) };
      const askedAt = Date.now();
      const results = await (kind === 'compare' ? asker.compare : asker.ask)(question, s, how);
      if (!results || !db) return;
      const conversationId = activeId ?? randomId('c-');
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
        const saved = await saveTurn(db, treeId, conversationId, turn);
        setActiveId(conversationId);
        setList((old) => [saved, ...old.filter((c) => c.id !== saved.id)]);
      } catch (error) {
        notify({
          kind: 'error',
          title: 'This answer could not be kept in the conversation',
          body: `${errorMessage(error)} It stays on screen until the next question.`,
        });
      }
    },
    [tree, treeId, active, asker, db, activeId, notify, placeOf],
  );

  /**
   * Asks `question`: at once when it starts a conversation, is not a follow-up (`followUp` false: the user
   * said so) or no answering model is set (a follow-up is then joined with the questions before it); otherwise
   * the model first rewrites the follow-up and the page shows the rewrite for the user to run, edit or drop.
   */
  const submit = useCallback(
    async (question: string, s: RetrievalSettings, kind: AskKind, followUp = true) => {
      const turns = active?.turns ?? [];
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
    [active, settings, run],
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

  const startNew = useCallback(() => {
    dismiss();
    setActiveId(undefined);
  }, [dismiss]);

  const select = useCallback(
    (id: string) => {
      dismiss();
      setActiveId(id);
    },
    [dismiss],
  );

  const remove = useCallback(
    async (id: string) => {
      if (!db) return;
      try {
        await deleteConversation(db, id);
        setList((old) => old.filter((c) => c.id !== id));
        if (id === activeId) setActiveId(undefined);
      } catch (error) {
        notify({ kind: 'error', title: 'The conversation could not be deleted', body: errorMessage(error) });
      }
    },
    [db, activeId, notify],
  );

  const removeAll = useCallback(async () => {
    if (!db || !treeId) return;
    try {
      const count = await deleteConversations(db, treeId);
      setList([]);
      setActiveId(undefined);
      notify({
        kind: 'success',
        title: `Deleted ${count} ${count === 1 ? 'conversation' : 'conversations'}`,
      });
    } catch (error) {
      notify({ kind: 'error', title: 'The conversations could not be deleted', body: errorMessage(error) });
    }
  }, [db, treeId, notify]);

  const exportMarkdown = useCallback(() => {
    if (!active || !tree) return;
    download(conversationFileName(active), conversationMarkdown(active, tree.title, stamp), 'text/markdown');
  }, [active, tree, stamp]);

  return {
    list,
    active,
    stamp,
    pending,
    submit,
    confirm,
    dismiss,
    startNew,
    select,
    remove,
    removeAll,
    exportMarkdown,
  };
}

/**
 * What the Ask panel shows of `conversation`: the bar's list and actions (each clears the results on screen,
 * which belong to the conversation left), the earlier turns, and the follow-up waiting for its search.
 */
export function conversationPanel(
  conversation: ReturnType<typeof useConversation>,
  ask: { results?: AskResults; reset(): void },
  onConfirm: (search: string) => void,
): ConversationProps {
  const clearing =
    <A extends unknown[]>(action: (...args: A) => unknown) =>
    (...args: A) => {
      ask.reset();
      void action(...args);
    };
  return {
    bar: {
      conversations: conversation.list.map((c) => ({ id: c.id, title: c.title, turns: c.turns.length })),
      activeId: conversation.active?.id,
      onSelect: clearing(conversation.select),
      onNew: clearing(conversation.startNew),
      onExport: conversation.exportMarkdown,
      onDelete: clearing(conversation.remove),
      onDeleteAll: clearing(conversation.removeAll),
    },
    turns: turnsBefore(conversation.active?.turns ?? [], ask.results),
    stamp: conversation.stamp,
    pending: conversation.pending,
    onConfirm,
    onCancelPending: conversation.dismiss,
  };
}

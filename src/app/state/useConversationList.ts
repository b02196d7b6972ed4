/**
 * The open tree's list of conversations and the one being continued (useConversation.ts): read from IndexedDB
 * (again whenever the library changes), the active one's last turns and earlier ones a page at a time, and
 * conversations deleted here or in another tab forgotten, never saved into again.
 */
import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type Dispatch,
  type MutableRefObject,
  type SetStateAction,
} from 'react';
import {
  MAX_CONVERSATION_TURNS,
  startConversation,
  getConversation,
  getTurns,
  listConversations,
  type AerieDb,
  type ConversationRecord,
  type ConversationTurn,
} from '../../storage';
import { deletes, onConversationsDeleted } from '../conversations/channel';
import { randomId } from './ids';
import { errorMessage } from './messages';
import type { PendingSearch } from './types';
import type { NoticeInput } from './useNotices';

/** Turns read and shown at once: the latest, then this many more each time earlier ones are asked for. */
export const PAGE_TURNS = 20;

/** The turns of the active conversation read so far: its last ones, from its turn number `from`. */
export interface TurnWindow {
  conversationId: string;
  from: number;
  turns: ConversationTurn[];
}

/** `list` with `record` first (it just changed). */
export const withFirst = (list: ConversationRecord[], record: ConversationRecord) => [
  record,
  ...list.filter((c) => c.id !== record.id),
];

/** What the list is read from, and the follow-up waiting for its search, dropped with its conversation. */
export interface ConversationListOptions {
  db: AerieDb | undefined;
  treeId: string | undefined;
  notify: (n: NoticeInput) => void;
  /** Changes when the library changed: the list is read again. */
  libraryVersion?: unknown;
  /** Stops the question being answered at once (useAsk's discard). */
  discard: () => void;
  /** The follow-up rewrite running, aborted when its conversation goes. */
  rewriting: MutableRefObject<AbortController | undefined>;
  setPending: Dispatch<SetStateAction<PendingSearch | undefined>>;
}

/** The list, the active conversation and its turns, and what reads, opens and forgets them. */
export function useConversationList(options: ConversationListOptions) {
  const { db, treeId, notify, libraryVersion, discard, rewriting, setPending } = options;
  const [list, setList] = useState<ConversationRecord[]>([]);
  const [activeId, setActive] = useState<string>();
  const [turnWindow, setWindow] = useState<TurnWindow>();
  // Refs for what the asynchronous steps must see as it is now, not as it was when they began.
  const activeRef = useRef<string | undefined>(undefined);
  const windowRef = useRef<TurnWindow | undefined>(undefined);
  const listRef = useRef<ConversationRecord[]>([]);
  /** The conversation a question is being answered in. */
  const answering = useRef<string | undefined>(undefined);
  /** Conversations deleted (here or in another tab) since the page opened: never saved into again. */
  const deleted = useRef(new Set<string>());

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
  }, [treeId, activate, setPending]);
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
    [discard, activate, showList, rewriting, setPending],
  );

  useDeletedElsewhere(treeId, forget, notify);
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

  return {
    list,
    activeId,
    turnWindow,
    activeRef,
    windowRef,
    listRef,
    answering,
    deleted,
    activate,
    showList,
    reload,
    open,
    showEarlier,
    forget,
    conversationFor,
  };
}

/** Conversations another tab deleted: forgotten, and a question answered in one stops at once. */
function useDeletedElsewhere(
  treeId: string | undefined,
  forget: (gone: (id: string) => boolean) => boolean,
  notify: (n: NoticeInput) => void,
) {
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
}

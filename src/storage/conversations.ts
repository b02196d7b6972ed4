/**
 * Each tree's conversations (store `conversations`, indexed `byTree`) and their turns (schema version 6, store
 * `turns`, one record a turn under `[conversationId, seq]`): the questions asked, what was searched, the
 * passages and ids retrieved, the settings and the answers. A conversation is created when its first question
 * is asked (`startConversation`); a turn is stored when it ends (answered, failed or stopped), and only into a
 * conversation that still exists, so a conversation deleted while a question was answered in it never comes
 * back. A new turn writes itself and the conversation's small record, whatever the conversation's length.
 * Deleting the tree deletes its conversations and their turns (`deleteTree`).
 */
import type { IDBPObjectStore } from 'idb';
import { requireTree, StorageError } from './errors';
import type { AerieDb, AerieSchema, ConversationRecord, ConversationTurn, StoredTurn } from './schema';
import { forEachRequest, runTransaction } from './transaction';

/** Characters of the first question a conversation's title keeps. */
export const CONVERSATION_TITLE_CHARS = 80;
/**
 * Most turns one conversation keeps (a bound on what it can grow to: at ~9 kB a turn, 45 MB). The page starts a
 * new conversation, and says so, when one is full.
 */
export const MAX_CONVERSATION_TURNS = 5_000;

/** The title of a conversation that starts with `question`: its first line, shortened to a whole word. */
export function conversationTitle(question: string): string {
  const line = question.trim().split(/\r?\n/)[0] ?? '';
  if (line.length <= CONVERSATION_TITLE_CHARS) return line;
  const cut = line.slice(0, CONVERSATION_TITLE_CHARS);
  const space = cut.lastIndexOf(' ');
  return `${(space > CONVERSATION_TITLE_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Keys of turns `from` … `to` − 1 of a conversation (all of them by default: arrays sort after numbers). */
function turnRange(conversationId: string, from = 0, to?: number): IDBKeyRange {
  return IDBKeyRange.bound(
    [conversationId, from],
    to === undefined ? [conversationId, []] : [conversationId, to],
    false,
    true,
  );
}

/** The turn without the keys the store adds. */
function plainTurn({ conversationId: _c, seq: _s, ...turn }: StoredTurn): ConversationTurn {
  return turn;
}

/** The tree's conversations, the most recently changed first. */
export async function listConversations(db: AerieDb, treeId: string): Promise<ConversationRecord[]> {
  const all = await runTransaction(db, ['conversations'], 'readonly', 'read the conversations', (tx) =>
    tx.objectStore('conversations').index('byTree').getAll(treeId),
  );
  return all.sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** One conversation, or undefined when it does not exist (any more). */
export function getConversation(db: AerieDb, id: string): Promise<ConversationRecord | undefined> {
  return runTransaction(db, ['conversations'], 'readonly', 'read the conversation', (tx) =>
    tx.objectStore('conversations').get(id),
  );
}

/**
 * Turns `from` … `to` − 1 of a conversation (by their place, from 0), oldest first; all of them by default.
 * Reads only those records, so a page of a 1,000-turn conversation costs what a page of a short one does.
 */
export async function getTurns(
  db: AerieDb,
  conversationId: string,
  from = 0,
  to?: number,
): Promise<ConversationTurn[]> {
  const stored = await runTransaction(db, ['turns'], 'readonly', 'read the conversation', (tx) =>
    tx.objectStore('turns').getAll(turnRange(conversationId, Math.max(0, from), to)),
  );
  return stored.map(plainTurn);
}

function missingIds(treeId: string, conversationId: string): StorageError {
  return new StorageError('INVALID_ARGUMENT', 'A conversation needs a tree and an id.', {
    treeId,
    conversationId,
  });
}

/**
 * Creates conversation `conversationId` of tree `treeId`, titled by its first question, with no turn yet (the
 * page creates it when that question is asked, and stores the turn when it ends). Creating one that exists
 * for the same tree returns it unchanged.
 * @throws StorageError NOT_FOUND (the tree does not exist: deleted, in this tab or another), INVALID_ARGUMENT
 *   (ids missing, or the id belongs to another tree's conversation), QUOTA_EXCEEDED.
 */
export function startConversation(
  db: AerieDb,
  treeId: string,
  conversationId: string,
  firstQuestion: string,
  now: number = Date.now(),
): Promise<ConversationRecord> {
  if (!treeId || !conversationId) return Promise.reject(missingIds(treeId, conversationId));
  return runTransaction(db, ['trees', 'conversations'], 'readwrite', 'start the conversation', async (tx) => {
    await requireTree(tx.objectStore('trees'), treeId);
    const store = tx.objectStore('conversations');
    const existing = await store.get(conversationId);
    if (existing) {
      if (existing.treeId !== treeId) throw otherTree(conversationId, treeId);
      return existing;
    }
    const record: ConversationRecord = {
      id: conversationId,
      treeId,
      kind: 'conversation',
      title: conversationTitle(firstQuestion),
      createdAt: now,
      updatedAt: now,
      turnCount: 0,
    };
    await store.put(record);
    return record;
  });
}

function otherTree(conversationId: string, treeId: string): StorageError {
  return new StorageError('INVALID_ARGUMENT', 'That conversation belongs to another tree.', {
    conversationId,
    treeId,
  });
}

/** A stored turn and the conversation as it now is. */
export interface SavedTurn {
  conversation: ConversationRecord;
  /** The turn's place in the conversation, from 0. */
  seq: number;
}

/**
 * Stores `turn` in conversation `conversationId` of tree `treeId`: replaces the turn with the same id (an
 * answer that finished after a first save), or appends it. Writes the turn's record and the conversation's
 * small record, nothing else. The conversation must exist: one deleted meanwhile (in this tab or another) is
 * not created again.
 * @throws StorageError NOT_FOUND (the conversation does not exist, e.g. it was deleted while the question was
 *   answered), INVALID_ARGUMENT (ids missing, or the conversation belongs to another tree), TOO_LARGE (it
 *   holds MAX_CONVERSATION_TURNS turns already), QUOTA_EXCEEDED.
 */
export function saveTurn(
  db: AerieDb,
  treeId: string,
  conversationId: string,
  turn: ConversationTurn,
  now: number = Date.now(),
): Promise<SavedTurn> {
  if (!treeId || !conversationId || !turn.id) {
    return Promise.reject(missingIds(treeId, conversationId));
  }
  return runTransaction(db, ['conversations', 'turns'], 'readwrite', 'keep the conversation', async (tx) => {
    const conversations = tx.objectStore('conversations');
    const existing = await conversations.get(conversationId);
    if (!existing) {
      throw new StorageError(
        'NOT_FOUND',
        'This conversation was deleted, so the answer was not kept in it.',
        { conversationId },
      );
    }
    if (existing.treeId !== treeId) throw otherTree(conversationId, treeId);
    const turns = tx.objectStore('turns');
    const same = await turns.index('byTurnId').getKey([conversationId, turn.id]);
    const seq = same ? same[1] : existing.turnCount;
    if (!same && existing.turnCount >= MAX_CONVERSATION_TURNS) {
      throw new StorageError(
        'TOO_LARGE',
        `This conversation holds ${MAX_CONVERSATION_TURNS.toLocaleString('en')} questions, the most one keeps. ` +
          'Start a new conversation.',
        { conversationId, turns: existing.turnCount },
      );
    }
    const conversation: ConversationRecord = {
      ...existing,
      turnCount: Math.max(existing.turnCount, seq + 1),
      updatedAt: now,
    };
    await turns.put({ ...turn, conversationId, seq });
    await conversations.put(conversation);
    return { conversation, seq };
  });
}

/** Deletes conversations and their turns within a transaction over both stores. */
export async function deleteConversationRecords(
  conversations: IDBPObjectStore<
    AerieSchema,
    ArrayLike<'conversations' | 'turns'>,
    'conversations',
    'readwrite'
  >,
  turns: IDBPObjectStore<AerieSchema, ArrayLike<'conversations' | 'turns'>, 'turns', 'readwrite'>,
  ids: readonly string[],
): Promise<void> {
  const requests = ids.flatMap((id) => [() => conversations.delete(id), () => turns.delete(turnRange(id))]);
  await forEachRequest(requests, (request) => request());
}

/** Deletes one conversation and its turns (nothing happens when it does not exist). */
export function deleteConversation(db: AerieDb, id: string): Promise<void> {
  return runTransaction(db, ['conversations', 'turns'], 'readwrite', 'delete the conversation', (tx) =>
    deleteConversationRecords(tx.objectStore('conversations'), tx.objectStore('turns'), [id]),
  );
}

/** Deletes every conversation of a tree and their turns; resolves with how many conversations there were. */
export function deleteConversations(db: AerieDb, treeId: string): Promise<number> {
  return runTransaction(
    db,
    ['conversations', 'turns'],
    'readwrite',
    'delete the conversations',
    async (tx) => {
      const conversations = tx.objectStore('conversations');
      const keys = await conversations.index('byTree').getAllKeys(treeId);
      await deleteConversationRecords(conversations, tx.objectStore('turns'), keys);
      return keys.length;
    },
  );
}

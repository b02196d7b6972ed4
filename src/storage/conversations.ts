/**
 * Each tree's conversations (schema version 4, store `conversations`, indexed `byTree`): the questions asked,
 * what was searched, the passages and ids retrieved, the settings and the answers. A turn is stored when it
 * ends (answered, failed or stopped), so a reload keeps every finished turn; deleting the tree deletes its
 * conversations (`deleteTree`).
 */
import { StorageError } from './errors';
import type { AerieDb, ConversationRecord, ConversationTurn } from './schema';
import { forEachRequest, runTransaction } from './transaction';

/** Characters of the first question a conversation's title keeps. */
export const CONVERSATION_TITLE_CHARS = 80;

/** The title of a conversation that starts with `question`: its first line, shortened to a whole word. */
export function conversationTitle(question: string): string {
  const line = question.trim().split(/\r?\n/)[0] ?? '';
  if (line.length <= CONVERSATION_TITLE_CHARS) return line;
  const cut = line.slice(0, CONVERSATION_TITLE_CHARS);
  const space = cut.lastIndexOf(' ');
  return `${(space > CONVERSATION_TITLE_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
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
 * Stores `turn` in conversation `conversationId` of tree `treeId`: replaces the turn with the same id, or
 * appends it; a conversation that does not exist yet is created with it (its title from the turn's question).
 * Resolves with the conversation as stored.
 * @throws StorageError INVALID_ARGUMENT (ids missing, or the conversation belongs to another tree),
 *   QUOTA_EXCEEDED.
 */
export function saveTurn(
  db: AerieDb,
  treeId: string,
  conversationId: string,
  turn: ConversationTurn,
  now: number = Date.now(),
): Promise<ConversationRecord> {
  if (!treeId || !conversationId || !turn.id) {
    return Promise.reject(
      new StorageError('INVALID_ARGUMENT', 'A conversation turn needs a tree, a conversation and an id.', {
        treeId,
        conversationId,
      }),
    );
  }
  return runTransaction(db, ['conversations'], 'readwrite', 'keep the conversation', async (tx) => {
    const store = tx.objectStore('conversations');
    const existing = await store.get(conversationId);
    if (existing && existing.treeId !== treeId) {
      throw new StorageError('INVALID_ARGUMENT', 'That conversation belongs to another tree.', {
        conversationId,
        treeId,
      });
    }
    const record: ConversationRecord = existing ?? {
      id: conversationId,
      treeId,
      kind: 'conversation',
      title: conversationTitle(turn.question),
      createdAt: now,
      updatedAt: now,
      turns: [],
    };
    const at = record.turns.findIndex((t) => t.id === turn.id);
    const turns = at < 0 ? [...record.turns, turn] : record.turns.map((t, i) => (i === at ? turn : t));
    const updated: ConversationRecord = { ...record, turns, updatedAt: now };
    await store.put(updated);
    return updated;
  });
}

/** Deletes one conversation (nothing happens when it does not exist). */
export function deleteConversation(db: AerieDb, id: string): Promise<void> {
  return runTransaction(db, ['conversations'], 'readwrite', 'delete the conversation', async (tx) => {
    await tx.objectStore('conversations').delete(id);
  });
}

/** Deletes every conversation of a tree; resolves with how many there were. */
export function deleteConversations(db: AerieDb, treeId: string): Promise<number> {
  return runTransaction(db, ['conversations'], 'readwrite', 'delete the conversations', async (tx) => {
    const store = tx.objectStore('conversations');
    const keys = await store.index('byTree').getAllKeys(treeId);
    await forEachRequest(keys, (key) => store.delete(key));
    return keys.length;
  });
}

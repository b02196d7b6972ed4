/**
 * Deleted conversations, told to every tab of the origin: a tab that is answering a question in a conversation
 * another tab deleted stops that question at once (its request is aborted) and forgets the conversation. The
 * storage refuses to save a turn into a conversation that no longer exists whatever the timing; this channel is
 * what makes the other tab stop paying for the answer. Plain data and browser globals only.
 */

/** The channel every page listens to for deleted conversations. */
export const CONVERSATION_CHANNEL = 'aerie-conversations';

/** Conversations that were deleted: some by id, or every one of a tree ("Delete all"). */
export type ConversationDeleted =
  { type: 'deleted'; treeId: string; ids: string[] } | { type: 'deleted-all'; treeId: string };

/** The message, when `data` is one of ours; else undefined. */
export function asDeletedMessage(data: unknown): ConversationDeleted | undefined {
  const m = data as Partial<{ type: string; treeId: unknown; ids: unknown }> | null;
  if (!m || typeof m.treeId !== 'string') return undefined;
  if (m.type === 'deleted-all') return { type: 'deleted-all', treeId: m.treeId };
  if (m.type === 'deleted' && Array.isArray(m.ids) && m.ids.every((id) => typeof id === 'string'))
    return { type: 'deleted', treeId: m.treeId, ids: m.ids as string[] };
  return undefined;
}

/** Whether conversation `id` of tree `treeId` is among those `message` deletes. */
export function deletes(message: ConversationDeleted, treeId: string, id: string): boolean {
  if (message.treeId !== treeId) return false;
  return message.type === 'deleted-all' || message.ids.includes(id);
}

/**
 * Listens for deleted conversations from other tabs (a channel never hears its own messages); returns the
 * function that stops listening. Does nothing where BroadcastChannel does not exist.
 */
export function onConversationsDeleted(listener: (message: ConversationDeleted) => void): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => undefined;
  const channel = new BroadcastChannel(CONVERSATION_CHANNEL);
  channel.onmessage = (event: MessageEvent) => {
    const message = asDeletedMessage(event.data);
    if (message) listener(message);
  };
  return () => channel.close();
}

/** Tells every other tab that these conversations were deleted. */
export function announceDeleted(message: ConversationDeleted): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(CONVERSATION_CHANNEL);
  channel.postMessage(message);
  channel.close();
}

/**
 * Deleted trees, question sets and evaluation runs, told to every tab of the origin (issue 41): a tab working on
 * one of them — answering a question on a tree, running an evaluation, generating questions — stops that work at
 * once (its requests are aborted) and closes what it showed, with a notice. Conversations have their own
 * channel (conversations/channel.ts) since issue 34; builds hear "stop" on `aerie-builds` (build-stop.ts).
 *
 * Why a BroadcastChannel: it reaches every page of the origin at once, with no polling and nothing stored, and a
 * channel never hears its own messages (the deleting tab acts for itself directly). IndexedDB tells no one about
 * a delete, and the `storage` event of localStorage would put each deletion in the page's ledger as a side
 * effect. A message can still be missed (a frozen tab, a browser without the API): storage refuses every later
 * write for what was deleted (storage/errors.ts `requireTree`), so the worst a missed message costs is work
 * that is then thrown away, never a record that comes back. Plain data and browser globals only.
 */

/** The channel every page listens to for deletions. */
export const DELETIONS_CHANNEL = 'aerie-deletions';

/** What was deleted. `replacedBy`: the tree was rebuilt with added documents into that tree. */
export type Deletion =
  | { kind: 'tree'; treeId: string; replacedBy?: string }
  | { kind: 'eval-set'; treeId: string; id: string }
  | { kind: 'eval-run'; treeId: string; id: string };

/** The message, when `data` is one of ours; else undefined. */
export function asDeletion(data: unknown): Deletion | undefined {
  const m = data as Partial<{ kind: string; treeId: unknown; id: unknown; replacedBy: unknown }> | null;
  if (!m || typeof m.treeId !== 'string' || m.treeId === '') return undefined;
  if (m.kind === 'tree') {
    return typeof m.replacedBy === 'string'
      ? { kind: 'tree', treeId: m.treeId, replacedBy: m.replacedBy }
      : { kind: 'tree', treeId: m.treeId };
  }
  if ((m.kind === 'eval-set' || m.kind === 'eval-run') && typeof m.id === 'string')
    return { kind: m.kind, treeId: m.treeId, id: m.id };
  return undefined;
}

/** Tells every other tab of the origin about a deletion (after it was stored). */
export function announceDeletion(deletion: Deletion): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(DELETIONS_CHANNEL);
  channel.postMessage(deletion);
  channel.close();
}

/** Listens for deletions made in other tabs; returns the function that stops listening. */
export function onDeletions(listener: (deletion: Deletion) => void): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => undefined;
  const channel = new BroadcastChannel(DELETIONS_CHANNEL);
  channel.onmessage = (event: MessageEvent) => {
    const deletion = asDeletion(event.data);
    if (deletion) listener(deletion);
  };
  return () => channel.close();
}

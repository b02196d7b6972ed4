/**
 * Stopping a tree's build from anywhere: this tab or another. A tree being deleted must stop paying for its
 * build at once, wherever that build runs, and nothing of it may be written after the delete. The deleting
 * page says "stop" on a BroadcastChannel every page and build worker of the origin listens to, then waits for
 * the build's Web Lock (`aerie-build:<id>`), which the build worker holds until its run has ended — calls in
 * flight aborted, their results flushed, the tree marked stopped — and deletes the tree while holding that lock
 * itself, so no build of it can start (or resume) until the delete has committed. Plain data and browser
 * globals only: safe in workers and pages.
 */
import { AerieError } from '../core/errors';
import { buildLockName } from './locks';

/** The channel every page and build worker listens to for builds that must stop. */
export const BUILD_CHANNEL = 'aerie-builds';

/** Why a build is told to stop from outside its run. */
export type StopReason = 'deleted';

/** A message on `BUILD_CHANNEL`. `from` is the sending page's `PAGE_ID`. */
export interface BuildStopMessage {
  type: 'stop';
  treeId: string;
  reason: StopReason;
  from: string;
}

/** The part of BroadcastChannel used here (injectable in tests). */
export interface ChannelLike {
  postMessage(message: unknown): void;
  close(): void;
  onmessage: ((event: { data: unknown }) => void) | null;
}

/** This context's id, so a page can tell its own stop messages from another tab's. */
export const PAGE_ID = Array.from(globalThis.crypto?.getRandomValues(new Uint8Array(8)) ?? [], (b) =>
  b.toString(16).padStart(2, '0'),
).join('');

/** How long a delete waits for a build to let go of its tree before giving up. */
export const STOP_TIMEOUT_MS = 30_000;

/** The message, when `data` is a stop message; else undefined. */
export function asStopMessage(data: unknown): BuildStopMessage | undefined {
  const m = data as Partial<BuildStopMessage> | null;
  return m && m.type === 'stop' && typeof m.treeId === 'string' && m.reason === 'deleted'
    ? { type: 'stop', treeId: m.treeId, reason: m.reason, from: typeof m.from === 'string' ? m.from : '' }
    : undefined;
}

/** Opens the build channel, or undefined where BroadcastChannel does not exist. */
export function openBuildChannel(): ChannelLike | undefined {
  if (typeof BroadcastChannel === 'undefined') return undefined;
  const channel = new BroadcastChannel(BUILD_CHANNEL);
  // Node's channel would keep the process alive while it listens; browsers have no such method.
  (channel as unknown as { unref?: () => void }).unref?.();
  return channel as unknown as ChannelLike;
}

/** Tells every page and build worker of this origin that the build of `treeId` must stop. */
export function announceStop(treeId: string, reason: StopReason): void {
  const channel = openBuildChannel();
  if (!channel) return;
  const message: BuildStopMessage = { type: 'stop', treeId, reason, from: PAGE_ID };
  channel.postMessage(message);
  channel.close();
}

/** The Web Locks API where it exists. */
interface LockManagerLike {
  request<T>(name: string, options: { signal?: AbortSignal }, callback: () => Promise<T>): Promise<T>;
}

/** A build that did not let go of its tree in time (a tab whose page is frozen). */
export class BuildStopError extends AerieError<'BUILD_DID_NOT_STOP'> {}

/**
 * Stops the build of `treeId` wherever it runs, then runs `work` (the delete) while holding the tree's build
 * lock: no build of the tree runs or starts until `work` has finished.
 * @throws BuildStopError when the build did not stop within `timeoutMs`; whatever `work` throws.
 */
export async function whileBuildStopped<T>(
  treeId: string,
  work: () => Promise<T>,
  options: { timeoutMs?: number; locks?: LockManagerLike } = {},
): Promise<T> {
  announceStop(treeId, 'deleted');
  const locks =
    options.locks ??
    (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks ??
    undefined;
  if (!locks) return work();
  const timeoutMs = options.timeoutMs ?? STOP_TIMEOUT_MS;
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), timeoutMs);
  let granted = false;
  try {
    return await locks.request(buildLockName(treeId), { signal: timeout.signal }, () => {
      granted = true;
      clearTimeout(timer);
      return work();
    });
  } catch (error) {
    if (!granted && timeout.signal.aborted) {
      throw new BuildStopError(
        'BUILD_DID_NOT_STOP',
        'The build of this tree in another Aerie tab did not stop in time, so the tree was not deleted. ' +
          'Close that tab (or reload it), then delete the tree again.',
        { treeId, timeoutMs },
      );
    }
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

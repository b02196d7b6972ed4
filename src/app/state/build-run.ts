/**
 * One run of a build as the page follows it, and what the page says when a run stops: a pause, a failure of a
 * recorded build (resume once fixed), a build that could not even be recorded (build again), or a full storage.
 */
import { errorMessage } from './messages';

/** One run of a build (a start or a resume); a later run of the same tree is a different run. */
export interface Run {
  treeId: string;
  /** Ends the run as cancelled (the worker was terminated, so its own reply never comes). */
  stop(reason: unknown): void;
  /** The grace timer of a cancel, cleared when the run ends by itself. */
  timer?: ReturnType<typeof setTimeout>;
  /** Set when the tree is being deleted: here (`'here'`) or in another tab (`'elsewhere'`). */
  deleted?: 'here' | 'elsewhere';
  /** True once the build is in storage (a resume: from the start); only a recorded build can be resumed. */
  recorded: boolean;
}

/** True when `error` says the tree `treeId` no longer exists (it was deleted). */
export function isTreeGone(error: unknown, treeId: string): boolean {
  const e = error as { code?: unknown; details?: { treeId?: unknown } } | null;
  return e?.code === 'NOT_FOUND' && e.details?.treeId === treeId;
}

/** `message` ending as a sentence does, so the advice after it reads as the next one ("… Failed to fetch."). */
export function asSentence(message: string): string {
  const said = message.trim();
  return /[.!?…]["”’)]*$/.test(said) ? said : `${said}.`;
}

/**
 * What the progress card and the notice say when a build stops: a pause, a failure of a recorded build (resume
 * once fixed), or a build that could not even be recorded (nothing to resume: build again). A full storage
 * says what to do about it.
 */
export function stopMessage(
  error: unknown,
  how: { cancelled: boolean; recorded: boolean; storageFull: boolean },
): string {
  if (how.cancelled) return 'Build paused. Everything finished so far is kept: resume to continue.';
  if (how.storageFull) {
    return how.recorded
      ? 'The browser’s storage for this site is full, so the build stopped. Everything finished so far is ' +
          'kept. Free space by deleting trees you no longer need, or let the browser keep this site’s data on ' +
          'this device (it then grants more room), then resume.'
      : 'This build could not be saved: the browser’s storage for this site is full, so nothing was built ' +
          'or paid for and your documents are still waiting. Free space by deleting trees you no longer need, ' +
          'or let the browser keep this site’s data on this device (it then grants more room), then build again.';
  }
  const said = asSentence(errorMessage(error));
  return how.recorded
    ? `${said} Everything finished so far is kept: resume when the problem is fixed.`
    : `${said} The build was not saved, so there is nothing to resume: build again once this is fixed.`;
}

/**
 * The Web Lock a context holds while it builds a tree. Other tabs (and this page, after ending a worker) look
 * at the held locks to tell a live build from an abandoned one. Plain strings: safe to import anywhere.
 */

/** Prefix of every build lock's name. */
export const BUILD_LOCK_PREFIX = 'aerie-build:';

/** Name of the Web Lock a tab holds while it builds a tree (other tabs see the build is alive). */
export function buildLockName(treeId: string): string {
  return `${BUILD_LOCK_PREFIX}${treeId}`;
}

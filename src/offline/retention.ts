/**
 * How long the offline copy keeps the files of an earlier version. A new version takes over every open tab
 * when the person reloads one of them; the other tabs still run the old version's code, which may ask for its
 * own scripts (a worker started later) after that. So an activating version deletes only what was already left
 * over once before — the files of two versions ago — and keeps the previous version's until the next update.
 * Pure: the service worker passes in the cache's keys and what it remembered.
 */

/** What an activating version does with the offline copy's entries. */
export interface Retirement {
  /** Cache keys to delete now: not in this version, and already left over at the previous update. */
  remove: string[];
  /** Cache keys not in this version kept for tabs still on the previous one (remember them for next time). */
  keep: string[];
}

/**
 * Splits the cached keys that the current version does not list (`expected`) into those to delete now and
 * those to keep one more update. `leftBefore`: the keys kept at the previous activation.
 */
export function retire(
  cached: readonly string[],
  expected: ReadonlySet<string>,
  leftBefore: ReadonlySet<string>,
): Retirement {
  const remove: string[] = [];
  const keep: string[] = [];
  for (const key of cached) {
    if (expected.has(key)) continue;
    (leftBefore.has(key) ? remove : keep).push(key);
  }
  return { remove, keep };
}

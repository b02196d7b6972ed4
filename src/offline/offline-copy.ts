/**
 * The service worker's work on Aerie's offline copy that needs Cache Storage but no service-worker event: what
 * an activating version deletes (retention.ts decides) and finding a file an earlier version cached for a tab
 * that still runs that version. Takes the CacheStorage as an argument, so it reads the same in a test.
 */
import { OFFLINE_CACHE, OFFLINE_STATE_CACHE } from './names';
import { retire, type Retirement } from './retention';

/** Key (under the service worker's scope) of the list of entries the last activation kept. */
const LEFT_OVER_KEY = '__aerie/offline-left-over';

async function readLeftOver(caches: CacheStorage, key: string): Promise<Set<string>> {
  const response = await (await caches.open(OFFLINE_STATE_CACHE)).match(key);
  if (!response) return new Set();
  try {
    const list: unknown = await response.json();
    return new Set(Array.isArray(list) ? list.filter((k): k is string => typeof k === 'string') : []);
  } catch {
    return new Set();
  }
}

/**
 * Deletes the offline copy's entries of two versions ago and remembers the previous version's, which tabs
 * still running it may need (retention.ts). Call on activation with the current version's cache keys.
 * @param scope the service worker's scope URL (the bookkeeping record lives under it).
 */
export async function retireEarlierVersions(
  caches: CacheStorage,
  expected: ReadonlySet<string>,
  scope: string,
): Promise<Retirement> {
  const key = new URL(LEFT_OVER_KEY, scope).href;
  const cache = await caches.open(OFFLINE_CACHE);
  const cached = (await cache.keys()).map((request) => request.url);
  const plan = retire(cached, expected, await readLeftOver(caches, key));
  await Promise.all(plan.remove.map((url) => cache.delete(url)));
  await (
    await caches.open(OFFLINE_STATE_CACHE)
  ).put(key, new Response(JSON.stringify(plan.keep), { headers: { 'Content-Type': 'application/json' } }));
  return plan;
}

/**
 * A file the offline copy still holds from an earlier version (a tab on that version asks for its own
 * scripts), matched without the query Workbox adds to revisioned entries; undefined when there is none.
 */
export async function fromEarlierVersion(
  caches: CacheStorage,
  request: Request,
): Promise<Response | undefined> {
  if (!(await caches.has(OFFLINE_CACHE))) return undefined;
  return (await caches.open(OFFLINE_CACHE)).match(request, { ignoreSearch: true });
}

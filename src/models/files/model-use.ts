/**
 * When each model was last used, for Settings' list of cached models (Cache Storage keeps no access times).
 * The workers note a model each time they load or use it; each model is one small entry of its own in Cache
 * Storage (beside the model files, in every context that has them: page and workers), so two workers noting
 * two models at once never overwrite each other. Best effort: where Cache Storage is missing (Node) or refuses,
 * nothing is noted.
 */
import { modelKey } from './cached-files';

/** Cache Storage name of the last-use records. */
export const MODEL_USE_CACHE = 'aerie-model-use';
/** A model is noted at most this often per context (ms): every embedding call goes through `noteModelUse`. */
const NOTE_INTERVAL_MS = 60_000;
/** Path (under the origin) of the records: one per model key. */
const RECORD_PATH = '/__aerie/model-use/';

const lastNoted = new Map<string, number>();

function cacheStorage(): CacheStorage | undefined {
  return typeof caches === 'undefined' ? undefined : caches;
}

function origin(): string | undefined {
  const loc = (globalThis as { location?: { origin?: string } }).location;
  return loc?.origin && loc.origin !== 'null' ? loc.origin : undefined;
}

/** Records that `model` (any id Settings accepts) is being used now. Never throws, never waits. */
export function noteModelUse(model: string, now = Date.now()): void {
  const store = cacheStorage();
  const base = origin();
  if (!store || !base) return;
  const key = modelKey(model);
  if (now - (lastNoted.get(key) ?? -Infinity) < NOTE_INTERVAL_MS) return;
  lastNoted.set(key, now);
  const url = new URL(RECORD_PATH + encodeURIComponent(key), base).href;
  void store
    .open(MODEL_USE_CACHE)
    .then((cache) => cache.put(url, new Response(String(now))))
    .catch(() => undefined);
}

/** Every recorded last use, by model key. */
export async function readModelUse(store = cacheStorage()): Promise<Record<string, number>> {
  if (!store || !(await store.has(MODEL_USE_CACHE))) return {};
  const cache = await store.open(MODEL_USE_CACHE);
  const uses: Record<string, number> = {};
  for (const request of await cache.keys()) {
    const key = decodeURIComponent(new URL(request.url).pathname.slice(RECORD_PATH.length));
    const at = Number(await (await cache.match(request))?.text());
    if (key && Number.isFinite(at)) uses[key] = at;
  }
  return uses;
}

/** Forgets the last use of `model` (its files were deleted). */
export async function forgetModelUse(model: string, store = cacheStorage()): Promise<void> {
  const base = origin();
  if (!store || !base || !(await store.has(MODEL_USE_CACHE))) return;
  lastNoted.delete(modelKey(model));
  await (
    await store.open(MODEL_USE_CACHE)
  ).delete(new URL(RECORD_PATH + encodeURIComponent(modelKey(model)), base).href);
}

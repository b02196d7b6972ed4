/**
 * What the browser keeps for Aerie in Cache Storage, for Settings' storage list: the models (transformers.js's
 * cache and the GGUF cache, grouped by model with their last use) and Aerie's offline copy; and deleting a
 * model's files. Main thread (or any context with Cache Storage); every function answers "nothing" where Cache
 * Storage is missing.
 */
import {
  groupCachedFiles,
  type CachedFile,
  type CachedModel,
  forgetModelUse,
  readModelUse,
  MODEL_CACHE_NAME,
} from '../models/files';
import { GGUF_CACHE } from '../models/generate/gguf';
import { OFFLINE_CACHE } from '../offline/names';

/** The caches that hold model files. */
const MODEL_CACHES = [MODEL_CACHE_NAME, GGUF_CACHE] as const;

function cacheStorage(): CacheStorage | undefined {
  return typeof caches === 'undefined' ? undefined : caches;
}

/** A response's size: its Content-Length, else the size of its body (read from disk, not copied). */
async function sizeOf(response: Response): Promise<number> {
  const length = Number(response.headers.get('content-length'));
  if (Number.isFinite(length) && length > 0) return length;
  return (await response.blob()).size;
}

/** Every entry of the cache `name` with its size (none when the cache does not exist). */
async function filesOf(store: CacheStorage, name: string): Promise<CachedFile[]> {
  if (!(await store.has(name))) return [];
  const cache = await store.open(name);
  const files: CachedFile[] = [];
  for (const request of await cache.keys()) {
    const response = await cache.match(request);
    if (response) files.push({ cache: name, url: request.url, bytes: await sizeOf(response) });
  }
  return files;
}

/** The models with files in this browser's caches, largest first, each with its last use when known. */
export async function listCachedModels(): Promise<CachedModel[]> {
  const store = cacheStorage();
  if (!store) return [];
  const files = (await Promise.all(MODEL_CACHES.map((name) => filesOf(store, name)))).flat();
  return groupCachedFiles(files, location.origin, await readModelUse(store));
}

/** Deletes every cached file of `model`; the next use downloads (or reads from the app) again. */
export async function deleteCachedModel(model: CachedModel): Promise<void> {
  const store = cacheStorage();
  if (!store) return;
  for (const name of new Set(model.files.map((f) => f.cache))) {
    const cache = await store.open(name);
    await Promise.all(model.files.filter((f) => f.cache === name).map((f) => cache.delete(f.url)));
  }
  await forgetModelUse(model.id, store);
}

/** Aerie's offline copy: its files and bytes, or undefined when it is not (yet) in this browser. */
export async function offlineCopySize(): Promise<{ files: number; bytes: number } | undefined> {
  const store = cacheStorage();
  if (!store) return undefined;
  const files = await filesOf(store, OFFLINE_CACHE);
  if (files.length === 0) return undefined;
  return { files: files.length, bytes: files.reduce((sum, f) => sum + f.bytes, 0) };
}

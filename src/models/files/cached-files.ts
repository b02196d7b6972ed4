/**
 * Which model each file in the browser's model caches belongs to, and what the person sees of it: transformers.js
 * keeps every model file it read (from the hub or from the app) in Cache Storage under its URL, and llama.cpp's
 * GGUF files are kept the same way (llama-cpp-generator.ts). Pure: the page's Settings reads the caches
 * (src/client/model-cache.ts) and groups their entries here.
 */
import { HUB_HOST } from './hub';

/** Where the app serves its own models (public/models/). */
const APP_MODELS_PATH = '/models/';

/** One cached file: the cache holding it, its URL and its size in bytes. */
export interface CachedFile {
  cache: string;
  url: string;
  bytes: number;
}

/** A model with files in the browser's caches. */
export interface CachedModel {
  /** The model as Settings names it: `owner/repo` (hub) or `local:folder` (served by Aerie). */
  id: string;
  source: 'hub' | 'app';
  /** Total bytes of its cached files. */
  bytes: number;
  files: CachedFile[];
  /** When a worker last loaded it (ms since the epoch), when known (model-use.ts). */
  lastUsed?: number;
}

/**
 * The model a cached file belongs to: `owner/repo` for a hub URL (`https://huggingface.co/owner/repo/resolve/…`),
 * `local:folder` for a file the app at `origin` serves under /models/folder/; undefined for anything else.
 */
export function modelOfUrl(
  url: string,
  origin: string,
): { id: string; source: CachedModel['source'] } | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.href.startsWith(HUB_HOST)) {
    const [owner, repo, resolve] = parsed.pathname.slice(1).split('/');
    return owner && repo && resolve === 'resolve' ? { id: `${owner}/${repo}`, source: 'hub' } : undefined;
  }
  if (parsed.origin === origin && parsed.pathname.startsWith(APP_MODELS_PATH)) {
    const folder = parsed.pathname.slice(APP_MODELS_PATH.length).split('/')[0];
    return folder ? { id: `local:${decodeURIComponent(folder)}`, source: 'app' } : undefined;
  }
  return undefined;
}

/**
 * The key a model's use is recorded under, the same for every way of naming it: a hub id or GGUF file
 * (`owner/repo/file.gguf`) → `owner/repo`; `local:folder/file.gguf` → `local:folder`.
 */
export function modelKey(model: string): string {
  if (model.startsWith('local:'))
    return `local:${model.slice('local:'.length).replace(/^\/+/, '').split('/')[0]}`;
  return model.split('/').slice(0, 2).join('/');
}

/** Groups cached files by model (largest first), with each model's last use from `uses` (by `modelKey`). */
export function groupCachedFiles(
  files: readonly CachedFile[],
  origin: string,
  uses: Readonly<Record<string, number>> = {},
): CachedModel[] {
  const models = new Map<string, CachedModel>();
  for (const file of files) {
    const owner = modelOfUrl(file.url, origin);
    if (!owner) continue;
    const model = models.get(owner.id) ?? { id: owner.id, source: owner.source, bytes: 0, files: [] };
    model.bytes += file.bytes;
    model.files.push(file);
    models.set(owner.id, model);
  }
  return [...models.values()]
    .map((m) => (uses[m.id] !== undefined ? { ...m, lastUsed: uses[m.id] } : m))
    .sort((a, b) => b.bytes - a.bytes || a.id.localeCompare(b.id));
}

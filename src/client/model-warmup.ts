/**
 * The page's side of warming the embedding model (src/models/embed/warmup.ts says when a warm-up is allowed): checks
 * the model cache for a hub model's files, then asks the embedding worker to load the model. Nothing is shown:
 * a warm-up that fails is forgotten by the worker, and the build or question that needs the model loads it
 * again and reports its own error.
 */
import type { ModelChoice } from '../models/embed';
import { MODEL_CACHE_NAME } from '../models/files';
import { warmupPlan } from '../models/embed/warmup';
import { embedWorker } from './workers';

/** Whether every URL is in the model cache (false where Cache Storage is unavailable or refuses). */
async function allCached(urls: readonly string[]): Promise<boolean> {
  if (typeof caches === 'undefined') return false;
  try {
    if (!(await caches.has(MODEL_CACHE_NAME))) return false;
    const cache = await caches.open(MODEL_CACHE_NAME);
    for (const url of urls) if (!(await cache.match(url))) return false;
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts loading `choice` in the embedding worker when its plan allows it — or, for a hub model not in the
 * cache, the offline model (warmup.ts says why). Resolves to the model whose load was started, if any (it
 * resolves before the load ends; the load's own failure is swallowed).
 */
export async function warmEmbedder(choice: ModelChoice): Promise<string | undefined> {
  // 'auto' precision: the file that will be read is the one the worker's device settles on.
  const settled =
    choice.dtype === 'auto' ? { ...choice, dtype: (await embedWorker().settle(choice)).dtype } : choice;
  const plan = warmupPlan(settled);
  if (plan.kind === 'never') return undefined;
  const warmed = plan.kind === 'if-cached' && !(await allCached(plan.urls)) ? plan.otherwise : choice;
  embedWorker()
    .load(warmed)
    .catch(() => undefined);
  return warmed.model;
}

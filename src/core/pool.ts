/** Bounded concurrency for async work (LLM calls), preserving result order. */
import { throwIfAborted, type AbortSignalLike } from './abort';

/**
 * Runs `task(i)` for i = 0…count−1 with at most `concurrency` in flight; results keep their index.
 * Rejects with the first failure (tasks already running are left to settle; no new ones start).
 */
export function mapWithConcurrency<T>(
  count: number,
  concurrency: number,
  task: (index: number) => Promise<T>,
  signal?: AbortSignalLike,
): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < count) {
      throwIfAborted(signal);
      const i = next++;
      try {
        results[i] = await task(i);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const lanes = Math.max(1, Math.min(Math.floor(concurrency) || 1, count));
  return Promise.all(Array.from({ length: lanes }, worker)).then(() => {
    throwIfAborted(signal);
    return results;
  });
}

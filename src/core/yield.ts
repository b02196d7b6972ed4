/**
 * Cooperative yielding. Long numeric work in a worker must return to the event loop now and then, or a
 * cancel message (an AbortSignal firing) could not be delivered until the work is over.
 */

type TimerFn = (callback: () => void, ms: number) => unknown;

/** How long synchronous work may run before it yields, in milliseconds. */
export const YIELD_INTERVAL_MS = 50;

const timer = (globalThis as { setTimeout?: TimerFn }).setTimeout;

/** Resolves on a later macrotask, letting queued messages (such as an abort) through. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => {
    if (timer) timer(resolve, 0);
    else resolve();
  });
}

/**
 * Runs a generator that yields at safe points, to completion, without pausing. The synchronous face of
 * an algorithm written once as a generator.
 */
export function runSync<T>(steps: Generator<unknown, T, void>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * Runs a generator that yields at safe points, returning to the event loop at most every
 * `YIELD_INTERVAL_MS` and checking `shouldStop` (e.g. an aborted signal) at every yield point.
 */
export async function runAsync<T>(steps: Generator<unknown, T, void>, shouldStop?: () => void): Promise<T> {
  let last = Date.now();
  for (;;) {
    shouldStop?.();
    const step = steps.next();
    if (step.done) return step.value;
    if (Date.now() - last >= YIELD_INTERVAL_MS) {
      await yieldToEventLoop();
      last = Date.now();
    }
  }
}

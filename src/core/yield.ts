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
 * A step that waits for work done elsewhere (e.g. in a pool of workers): yield one from a generator run by
 * `runAsync`, and the generator resumes with the promise's value. `runSync` cannot wait and throws.
 */
export class Awaiting<T = unknown> {
  constructor(readonly promise: Promise<T>) {}
}

/** What a generator step may hand its runner: nothing, progress (ignored by the runners) or a wait. */
function awaited(value: unknown): Promise<unknown> | undefined {
  return value instanceof Awaiting ? value.promise : undefined;
}

/**
 * Runs a generator that yields at safe points, to completion, without pausing. The synchronous face of
 * an algorithm written once as a generator.
 * @throws Error when the generator yields an `Awaiting` step (that needs `runAsync`).
 */
export function runSync<T>(steps: Generator<unknown, T, unknown>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (awaited(step.value)) throw new Error('This computation waits for other work: run it with runAsync.');
  }
}

/**
 * Runs a generator that yields at safe points, returning to the event loop at most every
 * `YIELD_INTERVAL_MS` and checking `shouldStop` (e.g. an aborted signal) at every yield point. An `Awaiting`
 * step is awaited and its value handed back to the generator; if it rejects, the generator is closed (its
 * `finally` blocks run) and the error is thrown.
 */
export async function runAsync<T>(
  steps: Generator<unknown, T, unknown>,
  shouldStop?: () => void,
): Promise<T> {
  let last = Date.now();
  let input: unknown;
  for (;;) {
    shouldStop?.();
    const step = steps.next(input);
    input = undefined;
    if (step.done) return step.value;
    const wait = awaited(step.value);
    if (wait) {
      try {
        input = await wait;
      } catch (error) {
        steps.return(undefined as T);
        throw error;
      }
      last = Date.now();
    } else if (Date.now() - last >= YIELD_INTERVAL_MS) {
      await yieldToEventLoop();
      last = Date.now();
    }
  }
}

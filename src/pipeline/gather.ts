/**
 * Gathers one-at-a-time calls into batches: each call waits for the batch it joined, and the calls made while a
 * batch runs go together into the next one. A build's summaries are written `concurrency` at a time, each with a
 * cache lookup and a cache write: gathered, they take a few IndexedDB transactions instead of one each (every
 * transaction reads the tree record and waits for the one before it).
 */

/** A function of one item, answered by the batch it was gathered into. */
export type Gathered<T, R> = (item: T) => Promise<R>;

/**
 * Makes `run` (one call for many items, answering them in order) callable one item at a time. Calls made in the
 * same turn of the event loop, or while a batch is running, are run together as the next batch, so at most one
 * batch runs at a time and no call waits for more than the batch before its own. A batch that fails rejects
 * each of its calls with the error; the next batch runs as usual.
 * @throws RangeError (to each call of the batch) when `run` answers a number of results unlike its items'.
 */
export function gather<T, R>(run: (items: T[]) => Promise<readonly R[]>): Gathered<T, R> {
  let queue: { item: T; resolve: (r: R) => void; reject: (e: unknown) => void }[] = [];
  let running = false;

  async function drain(): Promise<void> {
    running = true;
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      try {
        const results = await run(batch.map((q) => q.item));
        if (results.length !== batch.length)
          throw new RangeError(`A gathered batch of ${batch.length} items got ${results.length} results.`);
        batch.forEach((q, i) => q.resolve(results[i]));
      } catch (error) {
        for (const q of batch) q.reject(error);
      }
    }
    running = false;
  }

  return (item) =>
    new Promise<R>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      // The first call of a quiet spell starts the batch a microtask later, so calls made with it join it.
      if (!running) {
        running = true;
        queueMicrotask(() => void drain());
      }
    });
}

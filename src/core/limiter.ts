/** A small FIFO semaphore bounding the requests in flight to one endpoint. */
import { abortErrorOf, onAbort, type AbortSignalLike } from './abort';

/** Default most requests in flight per endpoint: enough to hide latency, gentle on a local GPU server. */
export const DEFAULT_MAX_CONCURRENCY = 4;

interface Waiter {
  grant: () => void;
  /** Served before every waiter without it (see `acquire`). */
  first: boolean;
}

/** Lets at most `max` holders run at once; the others wait in arrival order. */
export class Limiter {
  private running = 0;
  private readonly queue: Waiter[] = [];
  private limit: number;

  /** @param max slots, at least 1 (non-integers are floored). */
  constructor(max: number = DEFAULT_MAX_CONCURRENCY) {
    this.limit = Limiter.clamp(max);
  }

  private static clamp(max: number): number {
    return Number.isFinite(max) ? Math.max(1, Math.floor(max)) : DEFAULT_MAX_CONCURRENCY;
  }

  /** Slots in use. */
  get active(): number {
    return this.running;
  }

  /** Callers waiting for a slot. */
  get pending(): number {
    return this.queue.length;
  }

  /** The number of slots. */
  get max(): number {
    return this.limit;
  }

  /** Changes the number of slots; raising it admits waiters at once, lowering it lets running holders finish. */
  set max(max: number) {
    this.limit = Limiter.clamp(max);
    this.drain();
  }

  /**
   * Waits for a slot; resolves with the function that gives it back (call it exactly once).
   * Rejects with an AbortError, and leaves the queue, when `signal` fires first. With `first`, the caller
   * waits ahead of every waiter without it (in arrival order among such callers).
   */
  acquire(signal?: AbortSignalLike, options: { first?: boolean } = {}): Promise<() => void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortErrorOf(signal));
        return;
      }
      let unsubscribe = () => {};
      const waiter: Waiter = {
        first: !!options.first,
        grant: () => {
          unsubscribe();
          this.running++;
          resolve(this.releaser());
        },
      };
      const behind = waiter.first ? this.queue.findIndex((w) => !w.first) : -1;
      if (behind >= 0) this.queue.splice(behind, 0, waiter);
      else this.queue.push(waiter);
      unsubscribe = onAbort(signal, () => {
        const i = this.queue.indexOf(waiter);
        if (i < 0) return;
        this.queue.splice(i, 1);
        reject(abortErrorOf(signal));
      });
      this.drain();
    });
  }

  /** Runs `task` inside a slot (`options.first`: see `acquire`). */
  async run<T>(
    task: () => Promise<T>,
    signal?: AbortSignalLike,
    options: { first?: boolean } = {},
  ): Promise<T> {
    const release = await this.acquire(signal, options);
    try {
      return await task();
    } finally {
      release();
    }
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
      this.drain();
    };
  }

  private drain(): void {
    while (this.running < this.limit && this.queue.length > 0) this.queue.shift()!.grant();
  }
}

/**
 * Calls in flight by request id, so a client can cancel them: several calls may share one id (all the summaries
 * of a build, all the embed calls of one), and `cancel(id)` aborts every one of them. The services differ in one
 * thing only, the `CancelPolicy`: whether a cancel also stops the calls that start with the same id while some
 * are still in flight.
 */
import { AbortError } from '../../core/abort';

/**
 * - 'calls-in-flight' (the generate service): a cancel stops the calls in flight; later calls with the id run.
 * - 'until-idle' (the embed service): a cancel holds for the id until its last call has ended, so a call that
 *   starts meanwhile (the next batch of a cancelled build) stops at its first check.
 */
export type CancelPolicy = 'calls-in-flight' | 'until-idle';

/** One tracked call: the signal its work checks, and `done` to call when it ends. */
export interface TrackedCall {
  signal: AbortSignal;
  done(): void;
}

/** The calls of a service in flight by request id (see the module comment). */
export class Requests {
  private readonly active = new Map<string, Set<AbortController>>();
  /** 'until-idle': the ids cancelled while calls with them are in flight. */
  private readonly cancelled = new Set<string>();

  constructor(private readonly policy: CancelPolicy) {}

  /** A signal registered under `requestId` until `done` is called (a call without an id cannot be cancelled). */
  track(requestId: string | undefined): TrackedCall {
    const controller = new AbortController();
    if (requestId === undefined) return { signal: controller.signal, done: () => undefined };
    let calls = this.active.get(requestId);
    if (!calls) this.active.set(requestId, (calls = new Set()));
    calls.add(controller);
    if (this.cancelled.has(requestId)) controller.abort(new AbortError());
    return {
      signal: controller.signal,
      done: () => {
        calls.delete(controller);
        if (calls.size > 0 || this.active.get(requestId) !== calls) return;
        this.active.delete(requestId);
        this.cancelled.delete(requestId);
      },
    };
  }

  /** Runs `work` as a call of `requestId` (see `track`). */
  async run<T>(requestId: string | undefined, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const call = this.track(requestId);
    try {
      return await work(call.signal);
    } finally {
      call.done();
    }
  }

  /** Aborts the calls in flight with `requestId` (and, 'until-idle', those that start before they have ended). */
  cancel(requestId: string): void {
    const calls = this.active.get(requestId);
    if (!calls) return;
    if (this.policy === 'until-idle') this.cancelled.add(requestId);
    for (const controller of calls) controller.abort(new AbortError());
  }
}

/**
 * The offline copy waits for builds. On a first visit the service worker installs Aerie's ~67 MB offline copy
 * (Workbox precaching, one file after another) while the person may already be building, and the two competed
 * for the same cores: the first 78k-token build took ~25% longer with the copy installing (issue #44). A build
 * holds its Web Lock (src/pipeline/locks.ts) in whichever tab runs it, and a service worker can see every lock of
 * the origin, so before fetching each file the install waits while any build's lock is held — the file already
 * on its way finishes, nothing new starts. A build outlasting `maxWaitMs` of waiting in all (a service worker's
 * install event may not run for ever) no longer holds the copy back.
 */
import { BUILD_LOCK_PREFIX } from '../pipeline/locks';

/** The part of the Web Locks API used here (navigator.locks in pages, workers and service workers). */
export interface LockQuery {
  query(): Promise<{ held?: readonly { name?: string }[] }>;
}

/** How often a waiting install looks at the locks again. */
export const BUILD_POLL_MS = 500;

/**
 * Most time the whole install spends waiting for builds: browsers stop an install event that runs for minutes
 * (Chromium after 5), and an install that fails is only retried at the next visit.
 */
export const MAX_BUILD_WAIT_MS = 3 * 60 * 1000;

/** Whether any tab or worker of the origin holds a build's lock. */
export async function buildRunning(locks: LockQuery): Promise<boolean> {
  const { held = [] } = await locks.query();
  return held.some((lock) => lock.name?.startsWith(BUILD_LOCK_PREFIX) ?? false);
}

/** Options of {@link buildGate}; the clock and the timer are injectable for tests. */
export interface BuildGateOptions {
  maxWaitMs?: number;
  pollMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * A gate the install passes before each file: `pass()` resolves at once when no build runs, else once none
 * does, or once the gate has waited `maxWaitMs` in all (from then on it never waits). Without Web Locks it never
 * waits.
 */
export function buildGate(locks: LockQuery | undefined, options: BuildGateOptions = {}) {
  const maxWaitMs = options.maxWaitMs ?? MAX_BUILD_WAIT_MS;
  const pollMs = options.pollMs ?? BUILD_POLL_MS;
  const now = options.now ?? (() => Date.now());
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let waited = 0;
  return {
    /** Milliseconds waited so far. */
    get waitedMs(): number {
      return waited;
    },
    async pass(): Promise<void> {
      if (!locks) return;
      while (waited < maxWaitMs) {
        let running: boolean;
        try {
          running = await buildRunning(locks);
        } catch {
          return;
        }
        if (!running) return;
        const started = now();
        await sleep(Math.min(pollMs, maxWaitMs - waited));
        waited += now() - started;
      }
    },
  };
}

/**
 * A Workbox plugin that makes the precache's install fetches pass `gate` first. Only the install's own fetches
 * wait: a page's request the precache route sends to the network (a file not cached yet) never does, or a
 * build's worker fetching a model through the route would wait for its own build.
 */
export function yieldToBuilds(gate: { pass(): Promise<void> }) {
  return {
    async requestWillFetch({ request, event }: { request: Request; event?: Event }): Promise<Request> {
      if (event?.type === 'install') await gate.pass();
      return request;
    },
  };
}

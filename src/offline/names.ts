/**
 * Names the service worker and the page share: the Cache Storage caches Aerie's offline copy lives in, and the
 * messages they exchange. Plain constants, so both sides (and the tests) import the same spelling.
 */

/** Cache Storage name of Aerie's offline copy (the precache: app shell, runtimes, the offline model). */
export const OFFLINE_CACHE = 'aerie-offline';

/**
 * Cache Storage name of the service worker's own bookkeeping: which entries of the offline copy an earlier
 * version left behind (see `retire` in retention.ts).
 */
export const OFFLINE_STATE_CACHE = 'aerie-offline-state';

/** The page asks the waiting service worker to take over (the person chose to reload). */
export const SKIP_WAITING = 'SKIP_WAITING';

/** URL path (under the app's base) of the service worker script. */
export const SERVICE_WORKER_PATH = 'sw.js';

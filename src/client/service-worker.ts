/**
 * The page's side of Aerie's service worker (workers/sw.ts), through workbox-window: registers it in the built
 * app; tells the page when a new version is installed and waiting, when the version changed under this page
 * (another tab chose to reload into it) and when the worker first controls the page; applies a waiting
 * version when the page asks (the page decides when: never in the middle of work). In `vite` dev nothing is
 * registered and a service worker left on the origin is removed.
 */
import { Workbox } from 'workbox-window';
import { SERVICE_WORKER_PATH } from '../offline/names';

/** What the page hears from the service worker. */
export interface ServiceWorkerEvents {
  /** A new version is installed beside the running one and waits for `applyUpdate`. */
  onUpdateReady(): void;
  /** Another tab took a new version: this page runs the old one until it reloads. */
  onUpdatedElsewhere(): void;
  /** The service worker controls this page for the first time: the offline copy is complete. */
  onFirstControl(): void;
}

/** The page's handle on the registered service worker. */
export interface ServiceWorkerHandle {
  /** Switches to the waiting version and reloads the page once it is in control (or just reloads). */
  applyUpdate(): void;
  /** Asks the server whether a new version exists (the browser also asks on navigations). */
  checkForUpdate(): Promise<void>;
}

/** How often an open page asks whether a new version was deployed (a tab may stay open for days). */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

function removeDevServiceWorkers(): void {
  void navigator.serviceWorker
    .getRegistrations()
    .then((registrations) => Promise.all(registrations.map((r) => r.unregister())))
    .catch(() => undefined);
}

/**
 * Registers the service worker (built app only) and reports to `events`. Resolves to undefined where there is
 * none: the dev server, a browser without service workers, or a registration the browser refused.
 */
export async function startServiceWorker(
  events: ServiceWorkerEvents,
): Promise<ServiceWorkerHandle | undefined> {
  if (!('serviceWorker' in navigator)) return undefined;
  if (import.meta.env.DEV) {
    removeDevServiceWorkers();
    return undefined;
  }
  const base = import.meta.env.BASE_URL;
  const workbox = new Workbox(`${base}${SERVICE_WORKER_PATH}`, { scope: base });
  const hadController = navigator.serviceWorker.controller !== null;
  let applying = false;
  workbox.addEventListener('waiting', () => events.onUpdateReady());
  workbox.addEventListener('controlling', () => {
    if (applying) location.reload();
    else if (hadController) events.onUpdatedElsewhere();
    else events.onFirstControl();
  });
  let registration: ServiceWorkerRegistration | undefined;
  try {
    registration = await workbox.register();
  } catch {
    return undefined;
  }
  if (!registration) return undefined;
  const check = () => workbox.update().catch(() => undefined);
  setInterval(() => void check(), UPDATE_CHECK_MS);
  addEventListener('online', () => void check());
  return {
    applyUpdate() {
      applying = true;
      if (registration.waiting) workbox.messageSkipWaiting();
      else location.reload();
    },
    checkForUpdate: check,
  };
}

/**
 * Aerie's offline copy and its updates, as the page shows them. A new version installs in the background and
 * waits; the page says "A new version of Aerie is ready" and reloads only when the person chooses, and never
 * in the middle of a build, an answer or an evaluation (the reload waits for it to end). Until then the
 * running version keeps working, offline too. When another tab takes the new version, this page says so and
 * keeps running the old one.
 *
 * On a host that sends no cross-origin isolation headers the first page is not isolated (one thread per
 * model); the service worker adds the headers from the next load on. If the person has not started anything
 * yet when the offline copy is complete, the page reloads once by itself to get them (docs/security.md).
 */
import { useEffect, useRef, useState } from 'react';
import { startServiceWorker, type ServiceWorkerHandle } from '../../client/service-worker';
import type { NoticeInput } from './useNotices';

/** Work a reload must not interrupt, as the notice names it. */
export type Busy = 'build' | 'answer' | 'evaluation';

/** Set once the page reloaded itself for cross-origin isolation (at most once per tab). */
const ISOLATION_RELOAD_KEY = 'aerie-isolation-reload';
const NOTICE_KEY = 'app-update';
const ISOLATION_NOTICE_KEY = 'isolation-reload';
const NEVER_INTERRUPTS = 'A reload waits for a build, an answer or an evaluation in progress to finish.';

/** What the update notice says, or undefined when there is nothing to say. Pure, tested in Node. */
export function updateNotice(state: {
  ready: boolean;
  elsewhere: boolean;
  wanted: boolean;
  busy?: Busy;
}): (Pick<NoticeInput, 'title' | 'body'> & { action: 'reload' | 'not-now' }) | undefined {
  if (!state.ready && !state.elsewhere) return undefined;
  const title = state.elsewhere ? 'Aerie was updated in another tab' : 'A new version of Aerie is ready';
  if (state.wanted && state.busy)
    return { title, body: `Aerie reloads as soon as the ${state.busy} has finished.`, action: 'not-now' };
  const kept = state.elsewhere
    ? 'This page still runs the previous version and keeps working until you reload it.'
    : 'This version keeps working, offline too, until you reload.';
  return { title, body: `${kept} ${NEVER_INTERRUPTS}`, action: 'reload' };
}

/**
 * The note of a page that became offline-ready on a host that sends no cross-origin isolation headers after the
 * person started something (so it did not reload by itself): a reload, when convenient, lets the models use
 * every core. It stays until dismissed and offers the reload (which waits for work in progress), since a note
 * that asks for an action must not vanish before it can be taken. Pure, tested in Node.
 */
export function isolationNotice(reload: () => void): NoticeInput {
  return {
    kind: 'info',
    key: ISOLATION_NOTICE_KEY,
    sticky: true,
    title: 'Aerie now works offline',
    body:
      'Reload the page when convenient: the models then use every core (this host sends no cross-origin ' +
      `isolation headers, so Aerie’s offline copy adds them from the next load on). ${NEVER_INTERRUPTS}`,
    actions: [{ label: 'Reload', onClick: reload }],
  };
}

/** Options of `useServiceWorker`. */
export interface ServiceWorkerOptions {
  notify(notice: NoticeInput): void;
  /** Work in progress a reload must wait for. */
  busy?: Busy;
  /** True while the person has not started anything (no document, tree, build or dialog). */
  pristine: boolean;
}

/** Registers the service worker and runs the update notice; `offlineReady` once the offline copy is complete. */
export function useServiceWorker({ notify, busy, pristine }: ServiceWorkerOptions) {
  const [handle, setHandle] = useState<ServiceWorkerHandle>();
  const [offlineReady, setOfflineReady] = useState(
    () => typeof navigator !== 'undefined' && !!navigator.serviceWorker?.controller,
  );
  const [ready, setReady] = useState(false);
  const [elsewhere, setElsewhere] = useState(false);
  const [wanted, setWanted] = useState(false);
  const pristineRef = useRef(pristine);
  pristineRef.current = pristine;
  /** The notice last shown: shown again only when what it says changes (a dismissed notice stays away). */
  const shown = useRef<string>(undefined);

  useEffect(() => {
    let live = true;
    void startServiceWorker({
      onUpdateReady: () => live && setReady(true),
      onUpdatedElsewhere: () => live && setElsewhere(true),
      onFirstControl: () => {
        if (!live) return;
        setOfflineReady(true);
        if (crossOriginIsolated) {
          notify({
            kind: 'info',
            title: 'Aerie now works offline',
            body: 'It is kept in this browser: the next visit needs no network (Settings → Storage and offline).',
          });
          return;
        }
        if (pristineRef.current && !sessionStorage.getItem(ISOLATION_RELOAD_KEY)) {
          sessionStorage.setItem(ISOLATION_RELOAD_KEY, '1');
          location.reload();
        } else if (navigator.hardwareConcurrency > 1) {
          notify(isolationNotice(() => setWanted(true)));
        }
      },
    }).then((h) => live && setHandle(h));
    return () => {
      live = false;
    };
  }, [notify]);

  // The person chose to reload: now, or as soon as the work in progress ends.
  useEffect(() => {
    if (!wanted || busy) return;
    if (ready && handle) handle.applyUpdate();
    else location.reload();
  }, [wanted, busy, ready, handle]);

  useEffect(() => {
    const notice = updateNotice({ ready, elsewhere, wanted, busy });
    if (!notice || shown.current === `${notice.title} ${notice.body}`) return;
    shown.current = `${notice.title} ${notice.body}`;
    notify({
      kind: 'info',
      key: NOTICE_KEY,
      sticky: true,
      title: notice.title,
      body: notice.body,
      actions: [
        notice.action === 'reload'
          ? { label: 'Reload', onClick: () => setWanted(true) }
          : { label: 'Not now', onClick: () => setWanted(false) },
      ],
    });
  }, [ready, elsewhere, wanted, busy, notify]);

  return { offlineReady, updateReady: ready, checkForUpdate: handle?.checkForUpdate };
}

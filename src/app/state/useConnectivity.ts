/**
 * While the browser is offline, a notice says so and names, in a sentence, what of the person's settings
 * needs the network (network-needs.ts); it goes when the connection comes back.
 */
import { useEffect, useState } from 'react';
import { listCachedModels } from '../../client/model-cache';
import { modelKey } from '../../models/files';
import type { AppSettings } from '../settings/app-settings';
import { networkNeeds, offlineSentence } from './network-needs';
import type { NoticeInput } from './useNotices';

/** Whether the browser is online, and the offline notice while it is not. */
export function useConnectivity(
  settings: AppSettings,
  notify: (notice: NoticeInput) => string,
  dismiss: (id: string) => void,
): boolean {
  const [online, setOnline] = useState(() => typeof navigator === 'undefined' || navigator.onLine);
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    addEventListener('online', update);
    addEventListener('offline', update);
    return () => {
      removeEventListener('online', update);
      removeEventListener('offline', update);
    };
  }, []);

  useEffect(() => {
    if (online) return;
    let live = true;
    let shown: string | undefined;
    listCachedModels()
      .catch(() => [])
      .then((models) => {
        if (!live) return;
        const needs = networkNeeds(settings, new Set(models.map((m) => modelKey(m.id))));
        shown = notify({
          kind: 'info',
          key: 'offline',
          sticky: true,
          title: 'You are offline',
          body: offlineSentence(needs),
        });
      });
    return () => {
      live = false;
      if (shown) dismiss(shown);
    };
  }, [online, settings, notify, dismiss]);

  return online;
}

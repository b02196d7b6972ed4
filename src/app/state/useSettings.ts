/** The user's settings, loaded from and saved to IndexedDB. */
import { useCallback, useEffect, useState } from 'react';
import { getSetting, setSetting, type AerieDb } from '../../storage';
import { configuredEndpoints, DEFAULT_SETTINGS, withDefaults, type AppSettings } from '../settings';
import { errorMessage } from './messages';
import type { NoticeInput } from './useNotices';

/** Settings (defaults until loaded) and a saver that persists them. */
export function useSettings(db: AerieDb | undefined, notify: (n: NoticeInput) => void) {
  const [settings, setSettings] = useState<AppSettings>(DEFAULT_SETTINGS);
  const [loaded, setLoaded] = useState(false);

  useEffect(() => {
    if (!db) return;
    let live = true;
    getSetting(db, 'appSettings').then(
      (stored) => {
        if (!live) return;
        setSettings(withDefaults(stored));
        setLoaded(true);
      },
      (error: unknown) => {
        notify({ kind: 'error', title: 'Settings could not be read', body: errorMessage(error) });
        setLoaded(true);
      },
    );
    return () => {
      live = false;
    };
  }, [db, notify]);

  const save = useCallback(
    async (next: AppSettings) => {
      setSettings(next);
      if (!db) return;
      try {
        await setSetting(db, 'appSettings', next);
        // A resumed build takes its API key from here (the tree's stored request has none).
        await setSetting(db, 'llmEndpoints', configuredEndpoints(next));
      } catch (error) {
        notify({ kind: 'error', title: 'Settings could not be saved', body: errorMessage(error) });
      }
    },
    [db, notify],
  );

  return { settings, loaded, save };
}

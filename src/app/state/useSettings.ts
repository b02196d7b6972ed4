/** The user's settings, loaded from and saved to IndexedDB. */
import { useCallback, useEffect, useState } from 'react';
import { getSetting, setSettings as storeSettings, type AerieDb } from '../../storage';
import {
  configuredEndpoints,
  DEFAULT_SETTINGS,
  withDefaults,
  type AppSettings,
} from '../settings/app-settings';
import { errorMessage } from './messages';
import type { NoticeInput } from './useNotices';

/**
 * Settings (defaults until loaded) and a saver that persists them. `ready` turns true once the stored settings
 * are read (or the database failed to open, when settings live in this page only): until then nothing may be
 * derived from `settings` and saved, or the defaults would overwrite what the user stored before.
 */
export function useSettings(db: AerieDb | undefined, dbFailed: boolean, notify: (n: NoticeInput) => void) {
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

  /**
   * Stores the settings, then uses them. When storage refuses them (a full quota), the settings in use stay
   * as they were and the promise rejects with the reason, so the caller can keep the user's edits.
   */
  const save = useCallback(
    async (next: AppSettings) => {
      if (db) {
        await storeSettings(db, {
          appSettings: next,
          // A resumed build takes its API key from here (the tree's stored request has none).
          llmEndpoints: configuredEndpoints(next),
        });
      }
      setSettings(next);
    },
    [db],
  );

  /** `save` for changes made outside the dialog (the theme, copied settings): a failure becomes a notice. */
  const saveOrReport = useCallback(
    (next: AppSettings) =>
      save(next).catch((error: unknown) =>
        notify({ kind: 'error', title: 'Settings could not be saved', body: errorMessage(error) }),
      ),
    [save, notify],
  );

  return { settings, ready: loaded || dbFailed, save, saveOrReport };
}

/**
 * Asking the browser to keep Aerie's data (persistent storage): when the user presses the library's button,
 * and once per page, quietly, when a build starts.
 */
import { useCallback } from 'react';
import { isStoragePersisted, requestPersistence } from '../../storage';
import type { NoticeInput } from './useNotices';

/** Set once this page asked for persistent storage at a build start: asked once per page, quietly. */
let askedAtBuild = false;

/** What asking for persistence reports to. */
export interface StoragePersistenceOptions {
  notify(n: NoticeInput): void;
  /** A failure as a notice with this title. */
  report(title: string, error: unknown): void;
  /** Reads the library (and its storage line) again. */
  refresh(): Promise<void>;
}

/** `persist` (the button) and `keepAtBuild` (a build starts); see the module comment. */
export function useStoragePersistence({ notify, report, refresh }: StoragePersistenceOptions) {
  /** Asks the browser to keep Aerie's data, says what it answered, and re-reads the library's storage line. */
  const persist = useCallback(
    () =>
      requestPersistence()
        .then(
          (granted) =>
            notify(
              granted
                ? { kind: 'success', title: 'Your trees will be kept on this device' }
                : {
                    kind: 'warning',
                    title: 'The browser did not grant persistent storage',
                    body: 'It may still keep your data; bookmarking the page or installing it often helps.',
                  },
            ),
          (e: unknown) => report('Persistent storage could not be requested', e),
        )
        .then(refresh),
    [notify, report, refresh],
  );

  /**
   * Asks the browser to keep Aerie's data, once per page, when a build starts (a tree is about to cost minutes
   * or money). Says so only when granted: the library offers the button otherwise.
   */
  const keepAtBuild = useCallback(() => {
    if (askedAtBuild) return;
    askedAtBuild = true;
    isStoragePersisted()
      .then(async (kept) => {
        if (kept !== false) return;
        if (await requestPersistence()) {
          notify({ kind: 'success', title: 'Your trees will be kept on this device' });
          await refresh();
        }
      })
      .catch(() => undefined);
  }, [notify, refresh]);

  return { persist, keepAtBuild };
}

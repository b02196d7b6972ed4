/**
 * Opens Aerie's database once for the page and reports the multi-tab situations a user must act on.
 */
import { useEffect, useState } from 'react';
import { openAerieDb, type AerieDb } from '../../storage';
import type { NoticeInput } from './useNotices';
import { errorMessage } from './messages';

let opening: Promise<AerieDb> | undefined;

/** The page's database connection (undefined while opening), or the reason it could not open. */
export function useDatabase(notify: (notice: NoticeInput) => void): { db?: AerieDb; error?: string } {
  const [state, setState] = useState<{ db?: AerieDb; error?: string }>({});
  useEffect(() => {
    let live = true;
    opening ??= openAerieDb({
      onBlocked: () =>
        notify({
          kind: 'warning',
          title: 'Close other Aerie tabs to finish updating',
          body: 'Another tab still uses the previous version of Aerie’s storage.',
        }),
      onVersionChange: () =>
        notify({
          kind: 'warning',
          title: 'Aerie was updated in another tab',
          body: 'Reload this page to continue; nothing you built is lost.',
          actions: [{ label: 'Reload', onClick: () => location.reload() }],
        }),
    });
    opening.then(
      (db) => live && setState({ db }),
      (error: unknown) => {
        opening = undefined;
        if (live) setState({ error: errorMessage(error) });
      },
    );
    return () => {
      live = false;
    };
  }, [notify]);
  return state;
}

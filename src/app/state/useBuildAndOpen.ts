/**
 * Which tree is open, and the build that opens the tree it finishes: a finished build opens its tree (read again,
 * even when it was already open) and refreshes the library.
 */
import { useCallback, useState } from 'react';
import type { AerieDb } from '../../storage';
import { useBuild } from './useBuild';
import type { useDocuments } from './useDocuments';
import type { useLibrary } from './useLibrary';
import type { useNotices } from './useNotices';
import { useOpenTree } from './useOpenTree';

/** The open tree's id and its setter, the build, and the open tree's state. */
export function useBuildAndOpen(
  db: AerieDb | undefined,
  notify: ReturnType<typeof useNotices>['notify'],
  library: ReturnType<typeof useLibrary>,
  docs: ReturnType<typeof useDocuments>,
) {
  const [openId, setOpenId] = useState<string>();
  const [version, setVersion] = useState(0);
  const onBuilt = useCallback(
    (treeId: string) => {
      setOpenId(treeId);
      setVersion((v) => v + 1);
      void library.refresh();
    },
    [library],
  );
  const build = useBuild(db, notify, { onBuilt, onTaken: docs.take });
  const open = useOpenTree(db, openId, version);
  return { openId, setOpenId, build, open };
}

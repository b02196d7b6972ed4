/**
 * A tree in and out of the page as a file: export (with or without its original PDFs) and import (read,
 * parsed and checked in a worker). Files chosen before the database opened are imported once it is open.
 */
import { useCallback, useEffect, useRef } from 'react';
import { importInWorker } from '../../client/import';
import { checkImportSize, exportTree, getTree, type AerieDb } from '../../storage';
import { download, safeFileBase } from '../download';
import type { NoticeInput } from './useNotices';

/** A safe file name from a tree title. */
export function exportFileName(title: string): string {
  return `${safeFileBase(title, 'tree')}.raptor.json`;
}

/** What export and import need from the library's actions. */
export interface TreeTransferOptions {
  db: AerieDb | undefined;
  notify(n: NoticeInput): void;
  /** A failure as a notice with this title. */
  report(title: string, error: unknown): void;
  /** The library changed: tell the other tabs and read it again. */
  changed(): Promise<void>;
  /** Opens the imported tree. */
  onOpen(treeId: string): void;
}

/** Export and import; see the module comment. */
export function useTreeTransfer({ db, notify, report, changed, onOpen }: TreeTransferOptions) {
  const exportOne = useCallback(
    (id: string, options: { originals?: boolean } = {}) => {
      if (!db) return;
      Promise.all([getTree(db, id), exportTree(db, id, options)]).then(
        ([record, json]) => download(exportFileName(record?.title ?? 'tree'), json),
        (e: unknown) => report('The tree could not be exported', e),
      );
    },
    [db, report],
  );

  /** Files chosen before the library's database opened: imported as soon as it is open, never dropped. */
  const waitingImports = useRef<File[]>([]);
  const importFile = useCallback(
    (file: File) => {
      if (!db) {
        waitingImports.current.push(file);
        return;
      }
      (async () => {
        checkImportSize(file.size);
        // Read, parsed and checked in a worker: a large file must not freeze the page. The tree keeps its own
        // title, not the file name.
        const { id, notes } = await importInWorker(file);
        await changed();
        onOpen(id);
        notify({ kind: 'success', title: `Imported “${file.name}”` });
        // A carried PDF that is not its document's is left out, and said (the tree itself imported).
        for (const [i, body] of notes.entries()) {
          notify({
            kind: 'warning',
            key: `import-${id}-${i}`,
            title: `Part of “${file.name}” was not kept`,
            body,
          });
        }
      })().catch((e: unknown) => report(`“${file.name}” could not be imported`, e));
    },
    [db, changed, onOpen, notify, report],
  );
  useEffect(() => {
    if (!db || waitingImports.current.length === 0) return;
    for (const file of waitingImports.current.splice(0)) importFile(file);
  }, [db, importFile]);

  return { exportTree: exportOne, importFile };
}

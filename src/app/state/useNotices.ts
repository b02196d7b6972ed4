/** The page's notices (errors, warnings, confirmations), each dismissible. */
import { useCallback, useState } from 'react';
import { randomId } from './ids';

/** A notice to show. */
export interface NoticeInput {
  kind: 'error' | 'warning' | 'info' | 'success';
  title: string;
  body?: string;
  actions?: { label: string; onClick(): void }[];
  /** Replaces an existing notice with the same key instead of stacking. */
  key?: string;
}

/** A shown notice. */
export type NoticeItem = NoticeInput & { id: string };

/** Confirmations and information disappear by themselves after this long; errors and warnings stay. */
export const TRANSIENT_NOTICE_MS = 6000;

/** Notices and the functions that add and remove them. */
export function useNotices() {
  const [notices, setNotices] = useState<NoticeItem[]>([]);
  const dismiss = useCallback((id: string) => setNotices((list) => list.filter((n) => n.id !== id)), []);
  const notify = useCallback(
    (notice: NoticeInput) => {
      const id = randomId('n');
      setNotices((list) => [...list.filter((n) => !notice.key || n.key !== notice.key), { ...notice, id }]);
      if (notice.kind === 'success' || notice.kind === 'info')
        setTimeout(() => dismiss(id), TRANSIENT_NOTICE_MS);
      return id;
    },
    [dismiss],
  );
  return { notices, notify, dismiss };
}

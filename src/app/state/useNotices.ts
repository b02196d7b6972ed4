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

/** Notices and the functions that add and remove them. */
export function useNotices() {
  const [notices, setNotices] = useState<NoticeItem[]>([]);
  const notify = useCallback((notice: NoticeInput) => {
    const id = randomId('n');
    setNotices((list) => [...list.filter((n) => !notice.key || n.key !== notice.key), { ...notice, id }]);
    return id;
  }, []);
  const dismiss = useCallback((id: string) => setNotices((list) => list.filter((n) => n.id !== id)), []);
  return { notices, notify, dismiss };
}

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
  /** Information that stays until dismissed or replaced (e.g. "A new version is ready"). */
  sticky?: boolean;
}

/** A shown notice; `repeats` counts the same notice arriving again while it was shown (1 = once). */
export type NoticeItem = NoticeInput & { id: string; repeats: number };

/**
 * The list after `notice` arrives: a notice with the same key is replaced; one with the same kind, title and
 * body is replaced and counted (an error that happens five times is one notice "× 5", not five); the new one
 * goes last. Pure, tested in Node.
 */
export function addNotice(list: readonly NoticeItem[], notice: NoticeInput, id: string): NoticeItem[] {
  const same = (n: NoticeItem) =>
    (notice.key !== undefined && n.key === notice.key) ||
    (notice.key === undefined &&
      n.key === undefined &&
      n.kind === notice.kind &&
      n.title === notice.title &&
      n.body === notice.body);
  const previous = list.find(same);
  const repeats = previous !== undefined && notice.key === undefined ? previous.repeats + 1 : 1;
  return [...list.filter((n) => !same(n)), { ...notice, id, repeats }];
}

/** Confirmations and information disappear by themselves after this long (unless sticky); errors and warnings stay. */
export const TRANSIENT_NOTICE_MS = 6000;

/** Notices and the functions that add and remove them. */
export function useNotices() {
  const [notices, setNotices] = useState<NoticeItem[]>([]);
  const dismiss = useCallback((id: string) => setNotices((list) => list.filter((n) => n.id !== id)), []);
  const notify = useCallback(
    (notice: NoticeInput) => {
      const id = randomId('n');
      setNotices((list) => addNotice(list, notice, id));
      if ((notice.kind === 'success' || notice.kind === 'info') && !notice.sticky)
        setTimeout(() => dismiss(id), TRANSIENT_NOTICE_MS);
      return id;
    },
    [dismiss],
  );
  return { notices, notify, dismiss };
}

/** The page's view tabs (Tree, Document, Statistics, Evaluate) and their keyboard, as the ARIA tabs pattern has it. */
import { useState, type KeyboardEvent } from 'react';

/** A view of the open tree. */
export type View = 'tree' | 'document' | 'stats' | 'eval';

/** Each view's tab label, in the tabs' order. */
export const VIEW_LABELS: Record<View, string> = {
  tree: 'Tree',
  document: 'Document',
  stats: 'Statistics',
  eval: 'Evaluate',
};

/** The tab for `key` pressed on the tab of `view`: arrows move (and wrap), Home and End go to the ends. */
export function tabAfterKey(view: View, key: string): View | undefined {
  const order = Object.keys(VIEW_LABELS) as View[];
  const at = order.indexOf(view);
  if (key === 'ArrowRight') return order[(at + 1) % order.length];
  if (key === 'ArrowLeft') return order[(at + order.length - 1) % order.length];
  if (key === 'Home') return order[0];
  if (key === 'End') return order[order.length - 1];
  return undefined;
}

/** The view shown, and the tab list's key handler: a key that moves selects the tab and focuses it. */
export function useViewTabs() {
  const [view, setView] = useState<View>('tree');
  const onTabKey = (event: KeyboardEvent) => {
    const next = tabAfterKey(view, event.key);
    if (!next) return;
    event.preventDefault();
    setView(next);
    document.getElementById(`tab-${next}`)?.focus();
  };
  return { view, setView, onTabKey };
}

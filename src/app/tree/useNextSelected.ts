/**
 * "Next selected": visits the nodes the modes selected for the question, best rank first, bringing each into
 * view and saying which mode picked it at what rank. A new question starts the walk again.
 */
import { useMemo, useState } from 'react';
import { MODE_LABELS } from '../modes';
import type { TreeViewNode } from './hierarchy';
import { cycle, selectedOrder } from './marks';
import { describeShort } from './outline';
import type { SelectionIndex } from './selection';

/** What the walk visits and how it shows a node. */
export interface NextSelectedOptions {
  selection: SelectionIndex;
  nodes: readonly TreeViewNode[];
  /** Brings a node into view (useTreeFocus's `show`). */
  show(id: number): void;
  /** Says where the walk went, for the status line. */
  announce(text: string): void;
}

/** The walk's picks, where it is (-1 before the first), and the step; see the module comment. */
export function useNextSelected({ selection, nodes, show, announce }: NextSelectedOptions) {
  const picks = useMemo(() => selectedOrder(selection), [selection]);
  const [pickState, setPickState] = useState<{ picks: readonly number[]; at: number }>({ picks: [], at: -1 });
  const pickAt = pickState.picks === picks ? pickState.at : -1;

  const nextSelected = () => {
    if (picks.length === 0) return;
    const next = cycle(pickAt, picks.length);
    setPickState({ picks, at: next });
    show(picks[next]);
    const marks = selection.byNode.get(picks[next]) ?? [];
    announce(
      `Selected ${next + 1} of ${picks.length}: ${describeShort(nodes[picks[next]])} — ` +
        marks.map((m) => `${MODE_LABELS[m.mode]} rank ${m.rank}`).join(', '),
    );
  };

  return { picks, pickAt, nextSelected };
}

/** What `useNextSelected` gives the view. */
export type NextSelected = ReturnType<typeof useNextSelected>;

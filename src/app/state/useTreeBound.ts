/**
 * View state that belongs to one tree: node ids (the zoom path, the node open in the inspector, the active row,
 * the open branches), a citation's target, a scroll target. Such a value is stored with the tree it was made
 * for, and read back only while that tree is the one shown; for any other tree the state reads as its initial
 * value, in the very render that first shows that tree.
 *
 * Why not reset it when the tree changes: an effect runs after the render that shows the new tree, and a
 * render-phase reset (`if (shown !== tree) setX(initial)`) lets the rest of that same render read the old
 * value. Either way one render combined the previous tree's ids with the new tree's nodes, which threw (issue
 * 41: "Cannot read properties of undefined (reading 'label')" in the breadcrumb) and blanked the page. The
 * setter is bound to the tree of the render that made it, so a callback made for the previous tree (a settle
 * timer, a resolved promise) writes a value tagged with that tree, which the new one never reads.
 */
import { useCallback, useState } from 'react';

/** A stored value and the tree (any object identity) it belongs to. */
export interface Bound<T> {
  owner: unknown;
  value: T;
}

/** The value `state` holds for `owner`: its own value when it was made for `owner`, else `initial`. Pure. */
export function boundValue<T>(state: Bound<T>, owner: unknown, initial: T): T {
  return state.owner === owner ? state.value : initial;
}

/** What a setter of tree-bound state takes: a value, or a function of the current one (for this tree). */
export type BoundUpdate<T> = T | ((current: T) => T);

/** The state after `update` made for `owner` (a function update starts from this owner's value). Pure. */
export function boundUpdate<T>(
  state: Bound<T>,
  owner: unknown,
  initial: T,
  update: BoundUpdate<T>,
): Bound<T> {
  const current = boundValue(state, owner, initial);
  const value = typeof update === 'function' ? (update as (c: T) => T)(current) : update;
  return { owner, value };
}

/**
 * `useState` for a value that belongs to `owner` (the tree, or its hierarchy): reads `initial` whenever `owner`
 * is not the one the value was set for. `initial` must be stable (a constant, or memoised per owner). The
 * setter changes identity with `owner`: list it in the dependencies of callbacks that call it.
 */
export function useTreeBound<T>(owner: unknown, initial: T): [T, (update: BoundUpdate<T>) => void] {
  const [state, setState] = useState<Bound<T>>(() => ({ owner, value: initial }));
  const set = useCallback(
    (update: BoundUpdate<T>) => setState((s) => boundUpdate(s, owner, initial, update)),
    [owner, initial],
  );
  return [boundValue(state, owner, initial), set];
}

/**
 * Find in the tree view: labels and text, searched FIND_DEBOUNCE_MS after the last keystroke; Enter goes to the
 * next match (Shift: the previous), searching at once if the debounce has not run. The folded texts are made
 * on the first search only (a 1M-token tree's are megabytes).
 */
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTreeBound } from '../state/useTreeBound';
import { count } from './describe';
import type { Hierarchy, TreeViewNode } from './hierarchy';
import { cycle, findNodes, searchText, sumUp } from './marks';
import { describeShort } from './outline';

/** Find waits this long after the last keystroke. */
const FIND_DEBOUNCE_MS = 150;
/** Tree-bound initial value (stable, so the setter keeps its identity while the tree does). */
const NO_MATCH = { query: '', at: -1 };

/** What Find searches and how it shows a match. */
export interface TreeFindOptions {
  h: Hierarchy;
  nodes: readonly TreeViewNode[];
  /** Brings a match into view (useTreeFocus's `show`). */
  show(id: number): void;
  /** Says where Enter went, for the status line. */
  announce(text: string): void;
}

/** Find's state; see the module comment. */
export function useTreeFind({ h, nodes, show, announce }: TreeFindOptions) {
  const haystackCache = useRef<{ nodes: readonly TreeViewNode[]; texts: string[] } | null>(null);
  const haystacks = useCallback(() => {
    if (haystackCache.current?.nodes !== nodes)
      haystackCache.current = { nodes, texts: nodes.map(searchText) };
    return haystackCache.current.texts;
  }, [nodes]);
  const [query, setQuery] = useState('');
  const [findQuery, setFindQuery] = useState('');
  const [matchState, setMatchState] = useTreeBound(h, NO_MATCH);

  useEffect(() => {
    const timer = setTimeout(() => setFindQuery(query), FIND_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [query]);
  const matches = useMemo(
    () => (findQuery.trim() === '' ? [] : findNodes(h, haystacks(), findQuery)),
    [h, haystacks, findQuery],
  );
  const matchSet = useMemo(() => new Set(matches), [matches]);
  const findCounts = useMemo(() => (matches.length > 0 ? sumUp(h, matches) : undefined), [h, matches]);
  const matchAt = matchState.query === findQuery ? matchState.at : -1;
  const isMatch = useCallback((id: number) => matchSet.has(id), [matchSet]);

  /** Enter in Find: the next match (Shift: the previous), searching at once if the debounce has not run. */
  const onFindKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    const fresh = findQuery !== query;
    const list = fresh ? findNodes(h, haystacks(), query) : matches;
    if (fresh) setFindQuery(query);
    if (list.length === 0) return;
    const next = cycle(fresh ? -1 : matchAt, list.length, e.shiftKey);
    setMatchState({ query, at: next });
    show(list[next]);
    announce(`Match ${next + 1} of ${list.length}: ${describeShort(nodes[list[next]])}`);
  };

  const matchText =
    findQuery.trim().length === 0
      ? ''
      : matches.length === 0
        ? 'No match'
        : matchAt < 0
          ? count(matches.length, 'match', 'matches')
          : `${matchAt + 1} of ${matches.length}`;

  return { query, setQuery, onFindKey, matchText, matchSet, findCounts, isMatch };
}

/** What `useTreeFind` gives the view. */
export type TreeFind = ReturnType<typeof useTreeFind>;

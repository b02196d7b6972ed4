/** What each retrieval mode picked for the question shown, as the tree view and its strips mark it. */
import { useMemo } from 'react';
import type { RaptorTree } from '../../core/types';
import { RETRIEVAL_MODES, type ModeSelections, type RetrievalMode } from '../modes';
import { leavesUnder } from '../tree/selection';
import type { AskResults } from './types';

/** Node ids per mode (only the modes that ran). */
export type ModeIds = Partial<Record<RetrievalMode, number[]>>;

/**
 * Each mode's picked nodes (`selections`), the leaves among them (`highlights`) and the leaves under them
 * (`underSelected`), for the open tree and the results shown.
 */
export function useModeSelections(
  tree: RaptorTree | undefined,
  results: AskResults | undefined,
): { selections: ModeSelections; highlights: ModeIds; underSelected: ModeIds } {
  const selections: ModeSelections = useMemo(() => {
    const out: ModeSelections = {};
    for (const [mode, result] of Object.entries(results?.results ?? {})) {
      out[mode as RetrievalMode] = result.passages.map((p) => ({ id: p.id, layer: p.layer, score: p.score }));
    }
    return out;
  }, [results]);

  const highlights = useMemo(() => {
    const out: ModeIds = {};
    for (const mode of RETRIEVAL_MODES) {
      const list = selections[mode];
      if (list && tree) out[mode] = list.filter((s) => tree.nodes[s.id].layer === 0).map((s) => s.id);
    }
    return out;
  }, [selections, tree]);

  const underSelected = useMemo(() => {
    const out: ModeIds = {};
    for (const mode of RETRIEVAL_MODES) {
      const list = selections[mode];
      if (list && tree)
        out[mode] = leavesUnder(
          tree.nodes,
          list.map((s) => s.id),
        );
    }
    return out;
  }, [selections, tree]);

  return { selections, highlights, underSelected };
}

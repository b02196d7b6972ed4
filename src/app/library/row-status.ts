/** A library row's status: what the library shows for a tree, from its record and the builds running. */
import type { TreeSummary } from '../../storage';

/** A row's status as the library shows it. */
export type RowStatus = 'ready' | 'building' | 'paused' | 'failed' | 'interrupted';

/** Badge text of each status. */
export const STATUS_LABELS: Readonly<Record<RowStatus, string>> = Object.freeze({
  ready: 'Ready',
  building: 'Building',
  paused: 'Paused',
  failed: 'Failed',
  interrupted: 'Interrupted',
});

/**
 * What the library shows for a tree: a tree being built by a live build (here or in another tab) is
 * "building"; one recorded as building that no live build owns was interrupted (its tab closed).
 */
export function rowStatus(tree: Pick<TreeSummary, 'id' | 'status'>, running: ReadonlySet<string>): RowStatus {
  if (tree.status === 'ready') return 'ready';
  if (running.has(tree.id)) return 'building';
  return tree.status === 'building' ? 'interrupted' : tree.status;
}

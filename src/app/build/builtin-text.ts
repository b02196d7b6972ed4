/** What the progress view says about the built-in model: its expected time and its pace. */
import { formatDecimal, formatDuration, formatQuantity } from '../format';
import { placementLabel } from '../../models/device';
import type { BuildProgressState } from '../state/types';

/** "1.2 tokens/s" with one decimal under 10 (a CPU's pace), whole numbers above. */
export function formatTokenRate(perSecond: number): string {
  if (!Number.isFinite(perSecond)) return '…';
  return `${formatDecimal(perSecond, perSecond < 10 ? 1 : 0, perSecond < 10 ? 1 : 0)} tokens/s`;
}

/**
 * "Expected on this device: about 4 min for 12 summaries (between 2 min and 7 min), measured by a warm-up on WASM
 * (2 threads, cross-origin isolated): reads 98 tokens/s, writes 31 tokens/s (8 summaries at a time).", from the
 * built-in model's warm-up, before the first summary, naming where it ran (its rates hold there only).
 */
export function estimateSummary(estimate: NonNullable<BuildProgressState['estimate']>): string {
  const { seconds, summaries } = estimate;
  const low = Math.min(seconds.fewest, seconds.most);
  const high = Math.max(seconds.fewest, seconds.most);
  return (
    `Expected on this device: about ${formatDuration(seconds.likely)} for ` +
    `${formatQuantity(summaries.likely, 'summary', 'summaries')} (between ${formatDuration(low)} and ` +
    `${formatDuration(high)}), measured by a warm-up on ${placementLabel(estimate.placement)}: reads ` +
    `${formatTokenRate(estimate.speed.prefillTokensPerSecond)}, writes ` +
    `${formatTokenRate(estimate.speed.decodeTokensPerSecond)}` +
    (estimate.batchRows > 1 ? ` (${estimate.batchRows} summaries at a time).` : '.')
  );
}

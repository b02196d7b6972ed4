/** What the build card and the tree's statistics say about summaries cut to their budget. */
import type { SummaryCutNotice } from '../../protocol/build';
import { formatCount } from '../format';

/**
 * "3 of 41 summaries by fake-model at http://localhost:11434 ran past the 100-token summary budget; each was cut
 * at the last sentence end within it."
 */
export function summaryCutText(cuts: SummaryCutNotice): string {
  const where = cuts.endpoint ? ` at ${cuts.endpoint}` : '';
  const which = cuts.of === 1 ? 'summary' : 'summaries';
  return (
    `${formatCount(cuts.cut)} of ${formatCount(cuts.of)} ${which} by ${cuts.model}${where} ran past the ` +
    `${formatCount(cuts.budget)}-token summary budget; ${cuts.cut === 1 ? 'it was' : 'each was'} cut at the ` +
    'last sentence end within it.'
  );
}

/**
 * "The server went on past the 512-token answer limit (it ignored it); Aerie stopped reading after 4,096
 * characters."
 */
export function answerLimitText(limit: { maxTokens: number; maxChars: number }): string {
  return (
    `The model went on past the ${formatCount(limit.maxTokens)}-token answer limit (the server ignored it), ` +
    `so Aerie stopped reading after ${formatCount(limit.maxChars)} characters. The answer above ends there.`
  );
}

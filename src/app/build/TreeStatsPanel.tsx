/**
 * Statistics of one tree in the form of the paper's Appendix C: nodes per layer, average summary and child
 * lengths, children per parent and the compression ratio, next to the paper's own figures; which models
 * made the tree; and the root layer's summary on one line (cut with an ellipsis when it does not fit, with a
 * toggle to show all of it), rendered as text.
 */
import { useId, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import type { TreeStats } from '../../core/stats';
import type { SummarizerInfo } from '../../core/types';
import { formatCount, formatDecimal, formatPercent, UNKNOWN_VALUE } from '../format';
import { embeddingModelLabel, summarizerLabel } from '../library/model-label';
import './build.css';

/** Props of `TreeStatsPanel`. */
export interface TreeStatsPanelProps {
  stats: TreeStats;
  /** Text of the root layer (its summaries, joined), shown on one line with a toggle. */
  rootSummary?: string;
  summarizer: SummarizerInfo;
  /** The embedding model string the tree records. */
  embeddingModel: string;
}

/** The paper's averages over all datasets (Appendix C, Table 10; summaries by gpt-3.5-turbo). */
export const PAPER_TREE_STATS = Object.freeze({
  avgSummaryTokens: 131,
  avgChildTokens: 85.6,
  avgChildrenPerParent: 6.7,
  avgCompressionRatio: 0.28,
});

/** Decimals of averages (as the paper prints them: 85.6 tokens, 6.7 children). */
const AVERAGE_DECIMALS = 1;

function average(value: number, hasSummaries: boolean): string {
  return hasSummaries ? formatDecimal(value, AVERAGE_DECIMALS) : UNKNOWN_VALUE;
}

function layerName(layer: number, top: number): string {
  if (layer === 0) return '0 (leaves)';
  return layer === top ? `${layer} (root)` : String(layer);
}

/** Whether the element's text is cut (wider than its box), kept up to date as the box resizes. */
function useOverflow(ref: RefObject<HTMLElement | null>, expanded: boolean): boolean {
  const [overflowing, setOverflowing] = useState(false);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || expanded) return;
    const measure = () => setOverflowing(el.scrollWidth > el.clientWidth + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref, expanded]);
  return overflowing;
}

/** The statistics panel; see the module comment. */
export function TreeStatsPanel({ stats, rootSummary, summarizer, embeddingModel }: TreeStatsPanelProps) {
  const headingId = useId();
  const rootId = useId();
  const [expanded, setExpanded] = useState(false);
  const textRef = useRef<HTMLParagraphElement>(null);
  const overflowing = useOverflow(textRef, expanded);
  const hasSummaries = stats.summaryLayers > 0;
  const top = stats.nodesPerLayer.length - 1;
  const totalNodes = stats.nodesPerLayer.reduce((a, b) => a + b, 0);
  const root = rootSummary?.trim() ?? '';

  const rows: { label: string; value: string; paper: string }[] = [
    {
      label: 'Average summary length',
      value: hasSummaries ? `${average(stats.avgSummaryTokens, true)} tokens` : UNKNOWN_VALUE,
      paper: `${formatCount(PAPER_TREE_STATS.avgSummaryTokens)} tokens`,
    },
    {
      label: 'Average child length',
      value: hasSummaries ? `${average(stats.avgChildTokens, true)} tokens` : UNKNOWN_VALUE,
      paper: `${formatDecimal(PAPER_TREE_STATS.avgChildTokens, AVERAGE_DECIMALS)} tokens`,
    },
    {
      label: 'Children per parent',
      value: average(stats.avgChildrenPerParent, hasSummaries),
      paper: formatDecimal(PAPER_TREE_STATS.avgChildrenPerParent, AVERAGE_DECIMALS),
    },
    {
      label: 'Compression ratio',
      value: hasSummaries ? formatPercent(stats.avgCompressionRatio) : UNKNOWN_VALUE,
      paper: formatPercent(PAPER_TREE_STATS.avgCompressionRatio),
    },
  ];

  return (
    <section className="stats-panel" aria-labelledby={headingId}>
      <header className="stats-header">
        <h2 id={headingId} className="stats-title">
          Tree statistics
        </h2>
        <p className="stats-models">
          <span>Summaries: {summarizerLabel(summarizer)}</span>
          {' · '}
          <span>Embeddings: {embeddingModelLabel(embeddingModel)}</span>
        </p>
      </header>
      <div className="stats-tables">
        <table>
          <caption>Nodes per layer</caption>
          <thead>
            <tr>
              <th scope="col">Layer</th>
              <th scope="col">Nodes</th>
            </tr>
          </thead>
          <tbody>
            {stats.nodesPerLayer.map((count, layer) => (
              <tr key={layer}>
                <th scope="row">{layerName(layer, top)}</th>
                <td>{formatCount(count)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Total</th>
              <td>{formatCount(totalNodes)}</td>
            </tr>
          </tfoot>
        </table>
        <div>
          <table>
            <caption>Summaries compared with the paper</caption>
            <thead>
              <tr>
                <th scope="col">Measure</th>
                <th scope="col">This tree</th>
                <th scope="col">Paper</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.label}>
                  <th scope="row">{row.label}</th>
                  <td>{row.value}</td>
                  <td className="stats-paper">{row.paper}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="stats-source">
            Paper: RAPTOR, Appendix C (Table 10), all datasets with gpt-3.5-turbo summaries: 131-token
            summaries of 86-token children, 6.7 children per parent, a 28% compression ratio (a summary’s
            tokens ÷ its children’s tokens). This tree’s {formatCount(stats.nodesPerLayer[0] ?? 0)} leaves
            hold {formatCount(stats.leafTokens)} tokens.
          </p>
        </div>
      </div>
      {root !== '' && (
        <div className="stats-root">
          <span className="stats-root-label">Root layer:</span>
          <p ref={textRef} id={rootId} className={`stats-root-text${expanded ? ' is-expanded' : ''}`}>
            {root}
          </p>
          {(expanded || overflowing) && (
            <button
              type="button"
              className="stats-toggle"
              aria-expanded={expanded}
              aria-controls={rootId}
              onClick={() => setExpanded((v) => !v)}
            >
              {expanded ? 'Show less' : 'Show all'}
            </button>
          )}
        </div>
      )}
    </section>
  );
}

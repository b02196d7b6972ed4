/**
 * Statistics of one tree in the form of the paper's Appendix C (Table 10): per layer and for the whole tree,
 * the nodes, average summary and child lengths, children per parent and the compression ratio, with the
 * paper's row beside them (definitions in src/core/stats.ts); which models made the tree; and the root layer's
 * summary on one line (cut with an ellipsis when it does not fit, with a toggle to show all of it), rendered
 * as text.
 */
import { useId, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { PAPER_TABLE_10, type SummaryFigures, type TreeStats } from '../../core/stats';
import type { SummarizerInfo } from '../../core/types';
import type { SummaryCuts } from '../../storage';
import { formatCount, formatDecimal, formatPercent, UNKNOWN_VALUE } from '../format';
import { embeddingModelLabel, summarizerLabel } from '../library/model-label';
import type { RunDevices } from '../../protocol/build';
import { summaryCutText } from './budget-text';
import { devicesLines } from './devices-text';
import './build.css';

/** Props of `TreeStatsPanel`. */
export interface TreeStatsPanelProps {
  stats: TreeStats;
  /** Text of the root layer (its summaries, joined), shown on one line with a toggle. */
  rootSummary?: string;
  /** The root layer's topic terms (`rootTerms`), shown before its text. */
  rootTerms?: readonly string[];
  /** Per layer, the terms most of its summaries' labels share (`layerTopics`); a column of the table. */
  layerTopics?: readonly (readonly string[])[];
  summarizer: SummarizerInfo;
  /** The embedding model string the tree records. */
  embeddingModel: string;
  /** Summaries the model wrote past the budget, cut to it (absent when none was). */
  summaryCuts?: SummaryCuts;
  /** Where the models ran (a tree built in this browser). */
  devices?: RunDevices;
}

/** The paper's averages over all datasets (Appendix C, Table 10; summaries by gpt-3.5-turbo). */
export const PAPER_TREE_STATS = PAPER_TABLE_10[0];

/** Decimals of averages (as the paper prints them: 85.6 tokens, 6.7 children). */
const AVERAGE_DECIMALS = 1;

/** Column heads of the four Table 10 figures. */
const FIGURE_HEADS = ['Summary length', 'Child length', 'Children per parent', 'Compression ratio'];

/** The four Table 10 cells of a row; dashes where there are no summaries. */
function figureCells(f: Omit<SummaryFigures, 'parents'> | undefined): string[] {
  if (!f || ('parents' in f && f.parents === 0)) return FIGURE_HEADS.map(() => UNKNOWN_VALUE);
  return [
    formatDecimal(f.avgSummaryTokens, AVERAGE_DECIMALS),
    formatDecimal(f.avgChildTokens, AVERAGE_DECIMALS),
    formatDecimal(f.avgChildrenPerParent, AVERAGE_DECIMALS),
    formatPercent(f.avgCompressionRatio),
  ];
}

function layerName(layer: number, top: number): string {
  if (layer === 0) return '0 (leaves)';
  return layer === top ? `${layer} (root)` : String(layer);
}

/** The paper's other rows, for the note under the table: "QuALITY 5.7, NarrativeQA 6.8, QASPER 5.7". */
const PAPER_DATASETS = PAPER_TABLE_10.slice(1)
  .map((row) => `${row.dataset} ${formatDecimal(row.avgChildrenPerParent, AVERAGE_DECIMALS)}`)
  .join(', ');

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
export function TreeStatsPanel({
  stats,
  rootSummary,
  rootTerms = [],
  layerTopics = [],
  summarizer,
  embeddingModel,
  summaryCuts,
  devices,
}: TreeStatsPanelProps) {
  const headingId = useId();
  const rootId = useId();
  const [expanded, setExpanded] = useState(false);
  const textRef = useRef<HTMLParagraphElement>(null);
  const overflowing = useOverflow(textRef, expanded);
  const top = stats.nodesPerLayer.length - 1;
  const totalNodes = stats.nodesPerLayer.reduce((a, b) => a + b, 0);
  const root = rootSummary?.trim() ?? '';

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
        {summaryCuts && <p className="stats-cuts">{summaryCutText(summaryCuts)}</p>}
        {devicesLines(devices).map((line) => (
          <p key={line} className="stats-devices">
            {line}
          </p>
        ))}
      </header>
      <div className="stats-table-scroll">
        <table>
          <caption>Layers beside the paper’s Table 10</caption>
          <thead>
            <tr>
              <th scope="col">Layer</th>
              <th scope="col">Nodes</th>
              {FIGURE_HEADS.map((head) => (
                <th scope="col" key={head}>
                  {head}
                </th>
              ))}
              <th scope="col" className="stats-topics">
                Topics
              </th>
            </tr>
          </thead>
          <tbody>
            {stats.nodesPerLayer.map((count, layer) => (
              <tr key={layer}>
                <th scope="row">{layerName(layer, top)}</th>
                <td>{formatCount(count)}</td>
                {figureCells(stats.byLayer[layer - 1]).map((cell, i) => (
                  <td key={FIGURE_HEADS[i]}>{cell}</td>
                ))}
                <td className="stats-topics">{(layerTopics[layer] ?? []).join(' · ') || UNKNOWN_VALUE}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Whole tree</th>
              <td>{formatCount(totalNodes)}</td>
              {figureCells(stats).map((cell, i) => (
                <td key={FIGURE_HEADS[i]}>{cell}</td>
              ))}
              <td />
            </tr>
            <tr className="stats-paper">
              <th scope="row">Paper (all datasets)</th>
              <td>{UNKNOWN_VALUE}</td>
              {figureCells(PAPER_TREE_STATS).map((cell, i) => (
                <td key={FIGURE_HEADS[i]}>{cell}</td>
              ))}
              <td />
            </tr>
          </tfoot>
        </table>
      </div>
      <p className="stats-source">
        Lengths in tokens. Summary and child length are means over summaries and over parent–child links;
        children per parent is the mean over summaries; the compression ratio is the mean over summaries of a
        summary’s tokens ÷ its children’s tokens. Paper: RAPTOR, Appendix C (Table 10), gpt-3.5-turbo
        summaries over whole trees; children per parent by dataset: {PAPER_DATASETS}. This tree’s{' '}
        {formatCount(stats.nodesPerLayer[0] ?? 0)} leaves hold {formatCount(stats.leafTokens)} tokens.
      </p>
      {rootTerms.length > 0 && (
        <p className="stats-root-topics">
          <span className="stats-root-label">Root layer topics:</span> {rootTerms.join(' · ')}
        </p>
      )}
      {root !== '' && (
        <div className="stats-root">
          <span className="stats-root-label">Root layer text:</span>
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

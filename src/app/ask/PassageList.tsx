/**
 * Retrieved passages: one mode's list in the order of its context (its number, which an answer cites as [n];
 * layer, cosine score, tokens and text, long texts collapsible; clicking a passage or its "Open node" button
 * opens the node), a line of totals per mode, and "Compare modes" as tabs — one per mode, in the mode's colour,
 * operable with the arrow keys. A question by keywords lists its passages in the book's order, each with where
 * it sits ("Chapter 34 · 54%") and the order it was chosen in. Passage texts are untrusted document text and are
 * rendered as text.
 */
import { useId, useRef, useState, type CSSProperties, type KeyboardEvent } from 'react';
import { MODE_LABELS, modeColorVar, modeInkVar, RETRIEVAL_MODES, type RetrievalMode } from '../modes';
import { formatCount } from '../format';
import type { ModeResult, RetrievedPassage } from '../state/types';
import { SCORE_DECIMALS, truncateText } from '../tree/describe';
import { layerCountsText, layerLabel } from './retrieval-form';
import type { PassagePath } from './sources';
import './ask.css';

/** Characters of a passage shown before "Show all". */
export const PASSAGE_PREVIEW_CHARS = 360;

/** "1,982 tokens". */
export function tokensText(tokens: number): string {
  return `${formatCount(tokens)} ${tokens === 1 ? 'token' : 'tokens'}`;
}

/** Props of `PassageList`. */
export interface PassageListProps {
  mode: RetrievalMode;
  /** In the context's order; passage n is the answer's [n]. */
  passages: readonly RetrievedPassage[];
  onOpenNode(id: number): void;
  /** The node open in the inspector; its passage is marked. */
  activeNodeId?: number;
  /** Nodes the answer cites; their passages say so (and, when given, the others say they are not cited). */
  citedNodeIds?: ReadonlySet<number>;
  /** Accessible name of the list. */
  label?: string;
  /** Where each passage stands in the tree and in the documents (the sources of an answer). */
  sourceOf?(id: number): PassageSource | undefined;
}

/** A passage's place: its path in the tree and where it is in the documents. */
export interface PassageSource {
  path: PassagePath;
  /** "report.pdf, page 7". */
  where?: string;
}

/** One mode's passages, ranked; see the module comment. */
export function PassageList({
  mode,
  passages,
  onOpenNode,
  activeNodeId,
  citedNodeIds,
  label,
  sourceOf,
}: PassageListProps) {
  if (passages.length === 0) {
    return <p className="ask-muted">{MODE_LABELS[mode]} selected no passages.</p>;
  }
  return (
    <ol className="passage-list" aria-label={label ?? `${MODE_LABELS[mode]} passages`}>
      {passages.map((passage, i) => (
        <PassageItem
          key={passage.id}
          mode={mode}
          rank={i + 1}
          passage={passage}
          active={passage.id === activeNodeId}
          cited={citedNodeIds === undefined ? undefined : citedNodeIds.has(passage.id)}
          source={sourceOf?.(passage.id)}
          onOpenNode={onOpenNode}
        />
      ))}
    </ol>
  );
}

interface PassageItemProps {
  mode: RetrievalMode;
  rank: number;
  passage: RetrievedPassage;
  active: boolean;
  /** Whether the answer cites it (undefined: no answer). */
  cited: boolean | undefined;
  source?: PassageSource;
  onOpenNode(id: number): void;
}

function PassageItem({ mode, rank, passage, active, cited, source, onOpenNode }: PassageItemProps) {
  const [expanded, setExpanded] = useState(false);
  const textId = useId();
  // What entered the context: the node's text, or its new sentences when some were already there.
  const body = passage.excerpt?.text ?? passage.text;
  const long = body.length > PASSAGE_PREVIEW_CHARS;
  const shown = long && !expanded ? truncateText(body, PASSAGE_PREVIEW_CHARS) : body;
  const omitted = passage.excerpt?.omitted ?? 0;
  const open = () => {
    // A click that ends a text selection is someone copying, not asking to open the node.
    if (window.getSelection()?.toString()) return;
    onOpenNode(passage.id);
  };
  return (
    <li
      className="passage"
      data-node-id={passage.id}
      data-mode={mode}
      data-active={active || undefined}
      data-cited={cited === undefined ? undefined : String(cited)}
      aria-current={active || undefined}
      style={
        { '--passage-mode': modeColorVar(mode), '--passage-mode-ink': modeInkVar(mode) } as CSSProperties
      }
    >
      <div className="passage-head">
        <span className="passage-rank">
          <span className="visually-hidden">Passage </span>
          {rank}
        </span>
        <span className="passage-layer">{layerLabel(passage.layer)}</span>
        <span className="passage-fact" title="Cosine similarity to the question">
          score {passage.score.toFixed(SCORE_DECIMALS)}
        </span>
        {passage.keyword !== undefined && (
          <span
            className="passage-fact"
            title="Keyword (BM25) score for the question: the node's own words, and for a passage a tenth as much for the words of the two passages on each side"
          >
            keywords {passage.keyword.toFixed(SCORE_DECIMALS)}
          </span>
        )}
        {passage.rerank !== undefined && (
          <span className="passage-fact" title="The cross-encoder's score">
            rerank {passage.rerank.toFixed(SCORE_DECIMALS)}
          </span>
        )}
        <span className="passage-fact">{tokensText(passage.tokens)}</span>
        {passage.rank !== undefined && (
          <span
            className="passage-fact"
            title="Passages are listed in the book's order; this one was chosen as"
          >
            chosen {ordinal(passage.rank)}
          </span>
        )}
        {cited === true && <span className="passage-cited">Cited [{rank}]</span>}
        {cited === false && <span className="passage-uncited">Not cited</span>}
        <button type="button" className="ask-link passage-open" onClick={() => onOpenNode(passage.id)}>
          Open node {passage.id}
        </button>
      </div>
      {passage.label !== undefined && passage.label.length > 0 && (
        <p className="passage-label">
          <span className="visually-hidden">Topic: </span>
          {passage.label.join(' · ')}
        </p>
      )}
      {source && <SourceLine source={source} layer={passage.layer} />}
      <p className="passage-text" id={textId} onClick={open}>
        {shown}
      </p>
      {omitted > 0 && (
        <p className="passage-omitted">
          {omitted} {omitted === 1 ? 'sentence' : 'sentences'}{' '}
          {passage.excerpt?.focused
            ? 'of this passage left out: the budget went to sentences that bear on the question (… marks a gap).'
            : 'already in the context left out (not paid twice).'}
        </p>
      )}
      {long && (
        <button
          type="button"
          className="ask-link passage-more"
          aria-expanded={expanded}
          aria-controls={textId}
          onClick={() => setExpanded((e) => !e)}
        >
          {expanded ? 'Show less' : `Show all ${formatCount(body.length)} characters`}
        </button>
      )}
    </li>
  );
}

/** "1st", "2nd", "3rd", "11th", "22nd". */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** "Path: Sir Walter · Anne › Kellynch · navy › this leaf · layouts.pdf, page 7". */
function SourceLine({ source, layer }: { source: PassageSource; layer: number }) {
  const { path, where } = source;
  const self =
    layer === 0
      ? 'this leaf'
      : `this summary → ${formatCount(path.leaves ?? 0)} ${path.leaves === 1 ? 'leaf' : 'leaves'} under it`;
  return (
    <p className="passage-path">
      <span className="visually-hidden">Tree path: </span>
      {[...path.ancestors, self].join(' › ')}
      {where && <span className="passage-where"> · {where}</span>}
    </p>
  );
}

/** Props of `ModeTotals`. */
export interface ModeTotalsProps {
  result: ModeResult;
  /** The mode's token budget (collapsed and leaves), shown as "of 2,000". */
  budget?: number;
}

/** "7 passages · 1,982 of 2,000 tokens · 5 leaves · 2 layer-1 summaries". */
export function ModeTotals({ result, budget }: ModeTotalsProps) {
  const count = result.passages.length;
  return (
    <p className="mode-totals">
      <span>
        {count} {count === 1 ? 'passage' : 'passages'}
      </span>
      <span>
        {budget === undefined
          ? tokensText(result.tokens)
          : `${formatCount(result.tokens)} of ${tokensText(budget)}`}
      </span>
      <span>{layerCountsText(result.passages)}</span>
      {result.route !== undefined && result.route.length > 0 && (
        <span title="Tree traversal walked down through these summaries to reach its passages">
          reached through {result.route.length} {result.route.length === 1 ? 'summary' : 'summaries'}
        </span>
      )}
    </p>
  );
}

/** Props of `CompareView`. */
export interface CompareViewProps {
  results: Partial<Record<RetrievalMode, ModeResult>>;
  /** Token budget per mode, when it has one. */
  budgets?: Partial<Record<RetrievalMode, number>>;
  /** The tab shown first. */
  initialMode?: RetrievalMode;
  onOpenNode(id: number): void;
  activeNodeId?: number;
  /** Where each passage stands in the tree and in the documents. */
  sourceOf?(id: number): PassageSource | undefined;
}

/** The modes' results side by side as tabs; arrow keys, Home and End move between tabs (WAI-ARIA tabs). */
export function CompareView({
  results,
  budgets,
  initialMode,
  onOpenNode,
  activeNodeId,
  sourceOf,
}: CompareViewProps) {
  const modes = RETRIEVAL_MODES.filter((m) => results[m] !== undefined);
  const [chosen, setChosen] = useState<RetrievalMode | undefined>(initialMode);
  const selected = chosen !== undefined && modes.includes(chosen) ? chosen : modes[0];
  const baseId = useId();
  const tabRefs = useRef(new Map<RetrievalMode, HTMLButtonElement>());

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = modes.indexOf(selected);
    const target: Record<string, number> = {
      ArrowRight: (index + 1) % modes.length,
      ArrowLeft: (index - 1 + modes.length) % modes.length,
      Home: 0,
      End: modes.length - 1,
    };
    const next = target[event.key];
    if (next === undefined) return;
    event.preventDefault();
    setChosen(modes[next]);
    tabRefs.current.get(modes[next])?.focus();
  };

  if (selected === undefined) return null;
  const result = results[selected]!;
  return (
    <div className="compare">
      <div
        className="compare-tabs"
        role="tablist"
        aria-label="Retrieval modes compared"
        onKeyDown={onKeyDown}
      >
        {modes.map((mode) => {
          const r = results[mode]!;
          return (
            <button
              key={mode}
              ref={(el) => {
                if (el === null) tabRefs.current.delete(mode);
                else tabRefs.current.set(mode, el);
              }}
              type="button"
              role="tab"
              id={`${baseId}-tab-${mode}`}
              aria-selected={mode === selected}
              aria-controls={`${baseId}-panel`}
              tabIndex={mode === selected ? 0 : -1}
              className="compare-tab"
              data-mode={mode}
              style={{ '--tab-mode': modeColorVar(mode) } as CSSProperties}
              onClick={() => setChosen(mode)}
            >
              <span className="compare-tab-name">
                <span className="mode-dot" aria-hidden="true" />
                {MODE_LABELS[mode]}
              </span>
              <span className="compare-tab-facts">
                {r.passages.length} {r.passages.length === 1 ? 'passage' : 'passages'} ·{' '}
                {tokensText(r.tokens)}
              </span>
            </button>
          );
        })}
      </div>
      <div
        className="compare-panel"
        role="tabpanel"
        id={`${baseId}-panel`}
        aria-labelledby={`${baseId}-tab-${selected}`}
        data-mode={selected}
        style={{ '--tab-mode': modeColorVar(selected) } as CSSProperties}
      >
        <ModeTotals result={result} budget={budgets?.[selected]} />
        <PassageList
          key={selected}
          mode={selected}
          passages={result.passages}
          onOpenNode={onOpenNode}
          activeNodeId={activeNodeId}
          sourceOf={sourceOf}
        />
      </div>
    </div>
  );
}

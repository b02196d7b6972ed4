/**
 * An answer written by the user's LLM, streaming in: its text with every citation "[n]" a button that opens
 * the node of passage n, the model's failure when it failed (the context stays on screen below), and the
 * tokens it used. The text is untrusted model output and is rendered as text, never as HTML. The answer box
 * keeps a minimum height and the line under it is always there, so nothing jumps while the text arrives.
 */
import { useId, useMemo } from 'react';
import type { UsageTotals } from '../../llm';
import { formatCount } from '../format';
import { MODE_LABELS, modeColorVar } from '../modes';
import { Notice } from '../notices/Notice';
import type { AnswerState, RetrievedPassage } from '../state/types';
import {
  citationNodeIds,
  nowrapCitations,
  splitCitations,
  type AnswerSegment,
  type CitationSegment,
} from './citations';
import { uncitedSentences } from './sources';
import './ask.css';

/** Props of `AnswerView`. */
export interface AnswerViewProps {
  answer: AnswerState;
  /** The passages sent as context, in the order they were numbered ([1] is the first). */
  passages: readonly RetrievedPassage[];
  onOpenNode(id: number): void;
  /** Shows citation [n]'s passage in the document (else the citation opens its node). */
  /** `read`: the passage's text as the model read it (an excerpt of the node, or its whole text). */
  onOpenCitation?(n: number, nodeId: number, from: HTMLElement, read?: string): void;
}

/** "1,234 prompt + 210 answer = 1,444 tokens", with a note when the server did not report some usage. */
export function usageText(usage: UsageTotals): string {
  const sum = `${formatCount(usage.promptTokens)} prompt + ${formatCount(usage.completionTokens)} answer = ${formatCount(usage.totalTokens)} tokens`;
  if (usage.unreported === 0) return sum;
  const requests = usage.unreported === 1 ? '1 request' : `${usage.unreported} requests`;
  return `${sum} (the server did not report usage for ${requests})`;
}

/** What the model read of a passage: the sentences that entered (an excerpt), or the node's whole text. */
function readText(passage: RetrievedPassage | undefined): string | undefined {
  return passage ? (passage.excerpt?.text ?? passage.text) : undefined;
}

/** The answer; see the module comment. */
export function AnswerView({ answer, passages, onOpenNode, onOpenCitation }: AnswerViewProps) {
  const open: CitationOpener = (segment, from) =>
    onOpenCitation
      ? onOpenCitation(segment.n, segment.nodeId, from, readText(passages[segment.n - 1]))
      : onOpenNode(segment.nodeId);
  const headingId = useId();
  const nodeIds = useMemo(() => citationNodeIds(passages, answer.citations), [passages, answer.citations]);
  // Re-split from the whole text on every change: a citation cut across two streamed chunks joins up here.
  const segments = useMemo(() => splitCitations(answer.text, nodeIds), [answer.text, nodeIds]);
  // Sentences citing nothing are marked once the answer is complete (while it streams, the next [n] may come).
  const uncited = useMemo(
    () => (answer.streaming ? [] : uncitedSentences(answer.text, segments)),
    [answer.text, answer.streaming, segments],
  );
  const pieces = useMemo(() => nowrapCitations(markUncited(segments, uncited)), [segments, uncited]);
  const sentences = useMemo(
    () => (answer.streaming ? 0 : uncitedSentences(answer.text, []).length),
    [answer.text, answer.streaming],
  );
  const empty = answer.text.length === 0;

  return (
    <section className="card answer" aria-labelledby={headingId} data-mode={answer.mode}>
      <h3 className="answer-heading" id={headingId}>
        Answer
        <span className="answer-source">
          <span className="mode-dot" style={{ background: modeColorVar(answer.mode) }} aria-hidden="true" />
          from {MODE_LABELS[answer.mode]} context
        </span>
      </h3>
      <div
        className="answer-text"
        aria-live="polite"
        aria-busy={answer.streaming}
        data-streaming={answer.streaming || undefined}
        data-failed={answer.error !== undefined || undefined}
      >
        {empty && answer.streaming && (
          <span className="ask-muted">{answer.status ?? 'Waiting for the model…'}</span>
        )}
        {empty && !answer.streaming && answer.error === undefined && (
          <span className="ask-muted">The model returned no text.</span>
        )}
        {pieces.map((piece) =>
          piece.kind === 'nowrap' ? (
            <span key={piece.start} className="answer-nowrap">
              {piece.segments.map((segment) => renderSegment(segment, open))}
            </span>
          ) : (
            renderSegment(piece, open)
          ),
        )}
        {answer.streaming && <span className="answer-caret" aria-hidden="true" />}
      </div>
      {uncited.length > 0 && (
        <p className="answer-uncited-note">
          {uncited.length} of {sentences} {sentences === 1 ? 'sentence cites' : 'sentences cite'} no passage
          (marked with a dotted line): check {uncited.length === 1 ? 'it' : 'them'} against the sources below.
        </p>
      )}
      {answer.notice !== undefined && (
        <Notice kind="warning" title="The answer was stopped at its limit.">
          <p>{answer.notice}</p>
        </Notice>
      )}
      {answer.error !== undefined && (
        <Notice kind="error" title="The answering model failed.">
          <p>{answer.error}</p>
          <p>The retrieved context is shown below.</p>
        </Notice>
      )}
      {(answer.streaming || answer.usage !== undefined || answer.error === undefined) && (
        <p className="answer-usage">
          {answer.streaming
            ? (!empty && answer.status) || 'Writing…'
            : answer.usage !== undefined
              ? usageText(answer.usage) + (answer.writer ? ` · ${answer.writer}` : '')
              : 'The server did not report token usage.'}
        </p>
      )}
    </section>
  );
}

/** Opens a citation, given the button that was pressed. */
export type CitationOpener = (segment: CitationSegment, from: HTMLElement) => void;

/** A citation as a button that shows its passage (in the document) and opens its node. */
export function CitationButton({ segment, open }: { segment: CitationSegment; open: CitationOpener }) {
  return (
    <button
      type="button"
      className="answer-cite"
      data-citation={segment.n}
      aria-label={`Citation ${segment.n}: open node ${segment.nodeId}`}
      title={`Passage ${segment.n} (node ${segment.nodeId}): show it in the document`}
      onClick={(e) => open(segment, e.currentTarget)}
    >
      {segment.text}
    </button>
  );
}

/** A text segment inside a sentence that cites nothing. */
type MarkedSegment = AnswerSegment & { uncited?: boolean };

/** The segments cut at the edges of the uncited sentences, those inside marked. */
function markUncited(
  segments: readonly AnswerSegment[],
  uncited: readonly [number, number][],
): AnswerSegment[] {
  if (uncited.length === 0) return [...segments];
  const out: MarkedSegment[] = [];
  for (const seg of segments) {
    if (seg.kind !== 'text') {
      out.push(seg);
      continue;
    }
    const end = seg.start + seg.text.length;
    const cuts = new Set([seg.start, end]);
    for (const [a, b] of uncited) for (const c of [a, b]) if (c > seg.start && c < end) cuts.add(c);
    const points = [...cuts].sort((x, y) => x - y);
    for (let i = 0; i + 1 < points.length; i++) {
      const [from, to] = [points[i], points[i + 1]];
      const inside = uncited.some(([a, b]) => from >= a && to <= b);
      out.push({
        kind: 'text',
        start: from,
        text: seg.text.slice(from - seg.start, to - seg.start),
        uncited: inside,
      });
    }
  }
  return out;
}

/** Text as text (a sentence citing nothing marked); a citation as a button. */
function renderSegment(segment: MarkedSegment, open: CitationOpener) {
  if (segment.kind === 'text') {
    if (!segment.uncited) return <span key={segment.start}>{segment.text}</span>;
    return (
      <span key={segment.start} className="answer-uncited" title="This sentence cites no passage">
        {segment.text}
        <span className="visually-hidden"> (cites no passage)</span>
      </span>
    );
  }
  return <CitationButton key={segment.start} segment={segment} open={open} />;
}

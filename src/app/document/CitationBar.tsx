/**
 * The bar above a document shown for a citation: back to the answer, pages or text for a kept PDF, where the
 * passage is, the summary cited, what could not be highlighted, and the previous and next passage.
 */
import type { CitationTarget } from './citation-target';
import { citationHeading, pagesText } from './citation-text';
import type { PanelDocument } from './panel-document';

/** Props of `CitationBar`. */
export interface CitationBarProps {
  /** The citation shown, if any. */
  target: CitationTarget | undefined;
  /** The document shown. */
  doc: PanelDocument | undefined;
  /** The passage of the citation shown (an index into its ranges). */
  index: number;
  mode: 'pages' | 'text';
  canShowPages: boolean;
  /** Why the document's pages cannot be shown, if they cannot. */
  reason: string | undefined;
  onBack?(): void;
  onMode(mode: 'pages' | 'text'): void;
  /** Shows another passage of the citation. */
  onGo(index: number): void;
}

/** The bar; see the module comment. */
export function CitationBar(props: CitationBarProps) {
  const { target, doc, index, mode, canShowPages, reason, onBack, onGo } = props;
  const range = target?.ranges[index];
  return (
    <div className="citation-bar" role="group" aria-label={target ? 'Cited passage' : 'Document view'}>
      {target && onBack && (
        <button type="button" className="citation-back" onClick={onBack}>
          ← Back to the answer
        </button>
      )}
      {doc?.pdf && canShowPages && (
        <div className="citation-modes" role="group" aria-label="Show the document as">
          <button type="button" aria-pressed={mode === 'pages'} onClick={() => props.onMode('pages')}>
            Pages
          </button>
          <button type="button" aria-pressed={mode === 'text'} onClick={() => props.onMode('text')}>
            Text
          </button>
        </div>
      )}
      {target && (
        <p className="citation-heading">
          {citationHeading(target)}
          {range && doc && (
            <span className="citation-where">
              {' · '}
              {doc.name}
              {pagesText(doc.pageStarts, range) && `, ${pagesText(doc.pageStarts, range)}`}
            </span>
          )}
        </p>
      )}
      {target && target.layer > 0 && <blockquote className="citation-summary">{target.text}</blockquote>}
      {target && target.unlocated > 0 && (
        <p className="citation-note">
          {target.unlocated} {target.unlocated === 1 ? 'sentence' : 'sentences'} of this summary could not be
          found in its passages (cut at the summary’s length) and {target.unlocated === 1 ? 'is' : 'are'} not
          highlighted.
        </p>
      )}
      {target && target.ranges.length === 0 && (
        <p className="citation-note">This passage’s place in the document is not recorded.</p>
      )}
      {target && target.ranges.length > 1 && (
        <div className="citation-nav">
          <button type="button" disabled={index === 0} onClick={() => onGo(index - 1)}>
            Previous passage
          </button>
          <span aria-live="polite">
            {index + 1} of {target.ranges.length}
          </span>
          <button type="button" disabled={index + 1 >= target.ranges.length} onClick={() => onGo(index + 1)}>
            Next passage
          </button>
        </div>
      )}
      {reason && <p className="citation-note">{reason}</p>}
    </div>
  );
}

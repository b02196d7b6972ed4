/**
 * The Document tab: the documents as text (every leaf marked, the modes' picks highlighted) and, for a PDF whose
 * original is kept, its pages drawn by PDF.js. A citation opened from an answer shows exactly its characters:
 * on their page (both pages of a passage across a page break) or in the text; the focus moves to the
 * highlight, and "Back to the answer" returns to the citation where it was. A page part Aerie cannot locate
 * for at least half is shown without a highlight and a sentence says so; a PDF without its original (a tree
 * from before, a file too large, a full disk) opens in the text view with the reason.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import type { PdfLayout } from '../../protocol/pdf-layout';
import { locateSpan } from '../../ingest';
import { MAX_KEPT_ORIGINAL_BYTES, type OriginalInfo, type OriginalRecord } from '../../storage';
import type { CitationTarget } from './citation-target';
import { citationHeading, noPagesReason, pagesText } from './citation-text';
import { originalKey } from './original-key';
import { DocumentView, type DocumentViewProps, type ViewedDocument } from './DocumentView';
import { useElementSize } from '../tree/useElementSize';
import { closePdfs, openPdf } from './pdf/pdf-document';
import { PdfPageView, type DrawnPage, type PagePart } from './pdf/PdfPageView';
import './document.css';

/** A document of the open tree as the panel needs it. */
export interface PanelDocument extends ViewedDocument {
  pageStarts?: number[];
  /** PDFs: the stored text's id (its original's key) and whether the original is kept. */
  pdf?: { documentId?: string; original?: OriginalInfo };
}

/** A citation being shown; a new `key` opens it again (focus, first range). */
export interface ActiveCitation {
  target: CitationTarget;
  key: number;
}

/** Props of `DocumentPanel`. */
export interface DocumentPanelProps extends Omit<DocumentViewProps, 'documents' | 'cited' | 'focusKey'> {
  documents: readonly PanelDocument[];
  citation?: ActiveCitation;
  onBack?(): void;
  /** The kept file of `key` (`originalKey`: a text's id and the file's hash). */
  loadOriginal(key: string): Promise<OriginalRecord | undefined>;
  /** Whether the panel is on screen (a hidden tab draws nothing). */
  visible: boolean;
}

/** Pages of a range drawn at once; further pages are a "Next page" away. */
const MAX_PAGES_SHOWN = 2;
/** Longest the warm-up of the kept PDFs waits for an idle moment, ms. */
const WARM_TIMEOUT_MS = 2000;
/** Widest a page is drawn, CSS pixels. */
const MAX_PAGE_WIDTH = 900;
/** Border, padding and a scroll bar around the pages, CSS pixels. */
const PAGE_INSET = 36;

interface OpenPdf {
  /** The file's `originalKey`. */
  documentId: string;
  pdf?: PDFDocumentProxy;
  layout?: PdfLayout;
  error?: string;
}

/** The panel; see the module comment. */
// eslint-disable-next-line max-lines-per-function -- not yet cut along its seams into hooks or components (issue 46; docs/architecture.md lists the long functions)
export function DocumentPanel(props: DocumentPanelProps) {
  const { documents, citation, onBack, loadOriginal, visible, ...view } = props;
  const [mode, setMode] = useState<'pages' | 'text'>('pages');
  const [index, setIndex] = useState(0);
  const [shift, setShift] = useState(0);
  const [opened, setOpened] = useState<OpenPdf>();
  const [drawn, setDrawn] = useState<Map<number, DrawnPage>>(new Map());
  const [focusKey, setFocusKey] = useState<number>();
  const [pageError, setPageError] = useState<string>();
  const pendingFocus = useRef<number | undefined>(undefined);
  const rootRef = useRef<HTMLDivElement>(null);
  const { width: panelWidth } = useElementSize(rootRef);

  // A new citation: its first range, no page shift, the focus to follow once it is drawn.
  useEffect(() => {
    if (!citation) return;
    setIndex(0);
    setShift(0);
    pendingFocus.current = citation.key;
  }, [citation]);

  // The tree's kept PDFs are opened while the page is idle, so the first citation does not wait for PDF.js to
  // load and parse the file (seconds on a busy 2-core machine; then a citation draws in about 0.15 s).
  const keptIds = documents
    .map((d) => originalKey(d.pdf))
    .filter((id): id is string => id !== undefined)
    .join(' ');
  useEffect(() => {
    if (!keptIds) return;
    const warm = () => {
      for (const id of keptIds.split(' ')) {
        openPdf(id, async () => {
          const record = await loadOriginal(id);
          if (!record) throw new Error('not stored');
          return record.file;
        }).catch(() => undefined); // the page view says what went wrong when it is asked for
      }
    };
    const handle = requestIdleCallback(warm, { timeout: WARM_TIMEOUT_MS });
    return () => {
      cancelIdleCallback(handle);
      closePdfs(); // another tree opened (or the panel closed): its PDFs are not needed any more
    };
  }, [keptIds, loadOriginal]);

  const target = citation?.target;
  const range = target?.ranges[index];
  const pdfDocs = documents.filter((d) => d.pdf?.original?.kept && d.pdf.documentId);
  const doc = range ? documents.find((d) => d.id === range.doc) : pdfDocs[0];
  const canShowPages = doc?.pdf?.original?.kept === true && doc.pdf.documentId !== undefined;
  const showPages = mode === 'pages' && canShowPages && visible;
  const reason = doc?.pdf ? noPagesReason(doc.name, doc.pdf.original, MAX_KEPT_ORIGINAL_BYTES) : undefined;

  // The PDF of the document shown, opened once (kept open by pdf-document.ts until the tree closes).
  const documentId = showPages ? originalKey(doc?.pdf) : undefined;
  useEffect(() => {
    if (!documentId) return;
    let live = true;
    setOpened((o) => (o?.documentId === documentId ? o : { documentId }));
    (async () => {
      const record = await loadOriginal(documentId);
      if (!record) throw new Error('its original file is no longer stored');
      const pdf = await openPdf(documentId, async () => record.file);
      return { documentId, pdf, layout: record.layout };
    })().then(
      (o) => live && setOpened(o),
      (error: unknown) =>
        live && setOpened({ documentId, error: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      live = false;
    };
  }, [documentId, loadOriginal]);

  const layout = opened?.documentId === documentId ? opened?.layout : undefined;
  const pdf = opened?.documentId === documentId ? opened?.pdf : undefined;

  // Every range of the citation in this document, located on its pages.
  const partsByPage = useMemo(() => {
    const map = new Map<number, PagePart[]>();
    if (!layout || !doc || !target) return map;
    target.ranges.forEach((r, i) => {
      if (r.doc !== doc.id) return;
      for (const part of locateSpan(layout, doc.text, r.start, r.end)) {
        const list = map.get(part.page) ?? [];
        list.push({ range: i, part });
        map.set(part.page, list);
      }
    });
    return map;
  }, [layout, doc, target]);

  const pages = useMemo(() => {
    if (!layout) return [];
    const total = layout.pages.length;
    const own = range
      ? [...partsByPage.entries()].filter(([, parts]) => parts.some((p) => p.range === index)).map(([p]) => p)
      : [1];
    const first = Math.min(total, Math.max(1, (own[0] ?? 1) + shift));
    const count = shift === 0 ? Math.max(1, Math.min(MAX_PAGES_SHOWN, own.length)) : 1;
    return Array.from({ length: Math.min(count, total - first + 1) }, (_, i) => first + i);
  }, [layout, partsByPage, range, index, shift]);

  const onDrawn = useCallback((page: DrawnPage) => {
    setDrawn((m) => new Map(m).set(page.page, page));
  }, []);
  useEffect(() => {
    setDrawn(new Map());
    setPageError(undefined);
  }, [pages, pdf]);

  // Once every page shown is drawn: the focus moves to the current range's first mark (or to the sentence
  // saying it could not be located), and the panel says it is done (the bench waits for that).
  // A page counts once it is drawn with this citation's parts (an earlier drawing of it may still be listed).
  const allDrawn =
    pages.length > 0 && pages.every((p) => drawn.get(p)?.parts === (partsByPage.get(p) ?? NO_PARTS));
  const located = pages.flatMap((p) => [...(drawn.get(p)?.located ?? new Map<number, boolean>())]);
  const unlocatedPages = pages.filter((p) => drawn.get(p)?.located.get(index) === false);
  useEffect(() => {
    if (!allDrawn || !citation || pendingFocus.current !== citation.key) return;
    pendingFocus.current = undefined;
    const marks = pages.flatMap((p) => drawn.get(p)?.marks ?? []);
    const first = marks.find((m) => Number(m.dataset.range) === index);
    const note = rootRef.current?.querySelector<HTMLElement>('.citation-unlocated');
    const el = first ?? note;
    if (el) {
      el.tabIndex = -1;
      el.scrollIntoView({ block: 'center' });
      el.focus({ preventScroll: true });
    }
    rootRef.current?.setAttribute('data-citation-drawn', String(citation.key));
  }, [allDrawn, citation, drawn, pages, index]);

  // The text view: the focus goes to the range whenever a citation opens there or another range is chosen.
  const textShown = !showPages;
  useEffect(() => {
    if (!textShown || !citation || !visible) return;
    setFocusKey((k) => (k ?? 0) + 1);
    pendingFocus.current = undefined;
    rootRef.current?.setAttribute('data-citation-drawn', String(citation.key));
  }, [textShown, citation, index, visible]);

  const go = (next: number) => {
    setIndex(next);
    setShift(0);
    if (citation) pendingFocus.current = citation.key;
  };
  // The page fills the panel (less its border and scroll bar), up to a comfortable reading width.
  const width = Math.min(MAX_PAGE_WIDTH, Math.max(0, panelWidth - PAGE_INSET));

  return (
    <div className="document-panel" ref={rootRef} data-mode={showPages ? 'pages' : 'text'}>
      {(target || pdfDocs.length > 0) && (
        <div className="citation-bar" role="group" aria-label={target ? 'Cited passage' : 'Document view'}>
          {target && onBack && (
            <button type="button" className="citation-back" onClick={onBack}>
              ← Back to the answer
            </button>
          )}
          {doc?.pdf && canShowPages && (
            <div className="citation-modes" role="group" aria-label="Show the document as">
              <button type="button" aria-pressed={mode === 'pages'} onClick={() => setMode('pages')}>
                Pages
              </button>
              <button type="button" aria-pressed={mode === 'text'} onClick={() => setMode('text')}>
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
              {target.unlocated} {target.unlocated === 1 ? 'sentence' : 'sentences'} of this summary could not
              be found in its passages (cut at the summary’s length) and{' '}
              {target.unlocated === 1 ? 'is' : 'are'} not highlighted.
            </p>
          )}
          {target && target.ranges.length === 0 && (
            <p className="citation-note">This passage’s place in the document is not recorded.</p>
          )}
          {target && target.ranges.length > 1 && (
            <div className="citation-nav">
              <button type="button" disabled={index === 0} onClick={() => go(index - 1)}>
                Previous passage
              </button>
              <span aria-live="polite">
                {index + 1} of {target.ranges.length}
              </span>
              <button
                type="button"
                disabled={index + 1 >= target.ranges.length}
                onClick={() => go(index + 1)}
              >
                Next passage
              </button>
            </div>
          )}
          {reason && <p className="citation-note">{reason}</p>}
        </div>
      )}
      {showPages ? (
        <div className="pdf-pages" aria-label={`Pages of ${doc?.name ?? 'the document'}`} role="region">
          {opened?.error !== undefined && opened.documentId === documentId && (
            <p className="citation-note" role="alert">
              The PDF could not be opened ({opened.error}). Choose Text to read the passage.
            </p>
          )}
          {pageError !== undefined && (
            <p className="citation-note" role="alert">
              A page could not be drawn ({pageError}). Choose Text to read the passage.
            </p>
          )}
          {unlocatedPages.length > 0 && allDrawn && (
            <p className="citation-unlocated" role="note">
              On page {unlocatedPages.join(' and ')}, Aerie could not find at least half of this passage’s
              words, so nothing is highlighted there (a wrong highlight would mislead). The Text view shows
              the passage exactly.
            </p>
          )}
          <div className="pdf-page-nav">
            <button type="button" disabled={!layout || pages[0] <= 1} onClick={() => setShift((s) => s - 1)}>
              Previous page
            </button>
            <span>
              {pages.length > 0 && layout
                ? `Page ${pages.join('–')} of ${layout.pages.length}`
                : 'Opening the PDF…'}
            </span>
            <button
              type="button"
              disabled={!layout || (pages.at(-1) ?? 0) >= layout.pages.length}
              onClick={() => setShift((s) => s + 1)}
            >
              Next page
            </button>
          </div>
          {pdf &&
            doc &&
            width > 0 &&
            pages.map((p) => (
              <PdfPageView
                key={p}
                pdf={pdf}
                page={p}
                width={width}
                layout={layout?.pages[p - 1]}
                text={doc.text}
                parts={partsByPage.get(p) ?? NO_PARTS}
                current={index}
                documentName={doc.name}
                onDrawn={onDrawn}
                onError={setPageError}
              />
            ))}
          <span hidden data-located={located.filter(([, ok]) => ok).length} />
        </div>
      ) : (
        <DocumentView
          {...view}
          documents={documents}
          cited={target?.ranges}
          citedCurrent={index}
          focusKey={focusKey}
        />
      )}
    </div>
  );
}

const NO_PARTS: readonly PagePart[] = [];

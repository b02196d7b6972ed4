/**
 * The Document tab: the documents as text (every leaf marked, the modes' picks highlighted) and, for a PDF whose
 * original is kept, its pages drawn by PDF.js. A citation opened from an answer shows exactly its characters:
 * on their page (both pages of a passage across a page break) or in the text; the focus moves to the
 * highlight, and "Back to the answer" returns to the citation where it was. A page part Aerie cannot locate
 * for at least half is shown without a highlight and a sentence says so; a PDF without its original (a tree
 * from before, a file too large, a full disk) opens in the text view with the reason.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { MAX_KEPT_ORIGINAL_BYTES, type OriginalRecord } from '../../storage';
import { noPagesReason } from './citation-text';
import { CitationBar } from './CitationBar';
import { originalKey } from './original-key';
import { DocumentView, type DocumentViewProps } from './DocumentView';
import type { ActiveCitation, PanelDocument } from './panel-document';
import { NO_PARTS, PdfPages } from './PdfPages';
import { useElementSize } from '../tree/useElementSize';
import type { DrawnPage } from './pdf/PdfPageView';
import { useCitationPages, useOpenedPdf, useWarmPdfs } from './useCitationPdf';
import './document.css';

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

/** Widest a page is drawn, CSS pixels. */
const MAX_PAGE_WIDTH = 900;
/** Border, padding and a scroll bar around the pages, CSS pixels. */
const PAGE_INSET = 36;

/** The panel; see the module comment. */
export function DocumentPanel(props: DocumentPanelProps) {
  const { documents, citation, onBack, loadOriginal, visible, ...view } = props;
  const [mode, setMode] = useState<'pages' | 'text'>('pages');
  const [index, setIndex] = useState(0);
  const [shift, setShift] = useState(0);
  const [drawn, setDrawn] = useState<Map<number, DrawnPage>>(new Map());
  const [focusKey, setFocusKey] = useState<number>();
  const [pageError, setPageError] = useState<string>();
  const pendingFocus = useRef<number | undefined>(undefined);
  /** The mark the panel last put the focus on (followed when its page is drawn again). */
  const focusedMark = useRef<HTMLElement | undefined>(undefined);
  const rootRef = useRef<HTMLDivElement>(null);
  const { width: panelWidth } = useElementSize(rootRef);

  // A new citation: its first range, no page shift, the focus to follow once it is drawn.
  useEffect(() => {
    focusedMark.current = undefined;
    if (!citation) return;
    setIndex(0);
    setShift(0);
    pendingFocus.current = citation.key;
  }, [citation]);

  useWarmPdfs(documents, loadOriginal);

  const target = citation?.target;
  const range = target?.ranges[index];
  const pdfDocs = documents.filter((d) => d.pdf?.original?.kept && d.pdf.documentId);
  const doc = range ? documents.find((d) => d.id === range.doc) : pdfDocs[0];
  const canShowPages = doc?.pdf?.original?.kept === true && doc.pdf.documentId !== undefined;
  const showPages = mode === 'pages' && canShowPages && visible;
  const reason = doc?.pdf ? noPagesReason(doc.name, doc.pdf.original, MAX_KEPT_ORIGINAL_BYTES) : undefined;

  // The PDF of the document shown, opened once (kept open by pdf-document.ts until the tree closes).
  const documentId = showPages ? originalKey(doc?.pdf) : undefined;
  const { layout, pdf, error: openError } = useOpenedPdf(documentId, loadOriginal);

  const { partsByPage, pages } = useCitationPages({ layout, doc, target, index, shift });

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
    focusedMark.current = first;
    rootRef.current?.setAttribute('data-citation-drawn', String(citation.key));
  }, [allDrawn, citation, drawn, pages, index]);

  // A page drawn again (the panel's width changed: a scroll bar came, the window was resized) replaces its
  // marks; if the focus was on the range's first mark it went with it, so it moves to the new one.
  useEffect(() => {
    const old = focusedMark.current;
    if (!allDrawn || !old || old.isConnected) return;
    focusedMark.current = undefined;
    const active = document.activeElement;
    if (active !== null && active !== document.body) return; // the user has moved on
    const marks = pages.flatMap((p) => drawn.get(p)?.marks ?? []);
    const first = marks.find((m) => Number(m.dataset.range) === index);
    if (!first) return;
    first.tabIndex = -1;
    first.scrollIntoView({ block: 'center' });
    first.focus({ preventScroll: true });
    focusedMark.current = first;
  }, [allDrawn, drawn, pages, index]);

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
    focusedMark.current = undefined;
  };
  // The page fills the panel (less its border and scroll bar), up to a comfortable reading width.
  const width = Math.min(MAX_PAGE_WIDTH, Math.max(0, panelWidth - PAGE_INSET));

  return (
    <div className="document-panel" ref={rootRef} data-mode={showPages ? 'pages' : 'text'}>
      {(target || pdfDocs.length > 0) && (
        <CitationBar
          target={target}
          doc={doc}
          index={index}
          mode={mode}
          canShowPages={canShowPages}
          reason={reason}
          onBack={onBack}
          onMode={setMode}
          onGo={go}
        />
      )}
      {showPages ? (
        <PdfPages
          doc={doc}
          pdf={pdf}
          layout={layout}
          width={width}
          pages={pages}
          partsByPage={partsByPage}
          index={index}
          openError={openError}
          pageError={pageError}
          unlocatedPages={unlocatedPages}
          allDrawn={allDrawn}
          located={located}
          onShift={(by) => setShift((s) => s + by)}
          onDrawn={onDrawn}
          onError={setPageError}
        />
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

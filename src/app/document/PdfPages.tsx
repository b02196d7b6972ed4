/**
 * A kept PDF's pages with a citation's passage highlighted: the pages of the current passage (two at most, the
 * rest a "Next page" away), what could not be opened, drawn or located, and the page navigation.
 */
import type { PDFDocumentProxy } from 'pdfjs-dist';
import type { PdfLayout } from '../../protocol/pdf-layout';
import type { PanelDocument } from './panel-document';
import { PdfPageView, type DrawnPage, type PagePart } from './pdf/PdfPageView';

/** No parts of a citation on a page (one array, so a drawing compares equal). */
export const NO_PARTS: readonly PagePart[] = [];

/** Props of `PdfPages`. */
export interface PdfPagesProps {
  doc: PanelDocument | undefined;
  pdf: PDFDocumentProxy | undefined;
  layout: PdfLayout | undefined;
  /** Width a page is drawn at, CSS pixels. */
  width: number;
  /** The pages shown (1-based). */
  pages: readonly number[];
  partsByPage: ReadonlyMap<number, PagePart[]>;
  /** The citation's current passage. */
  index: number;
  /** Why the PDF could not be opened, if it could not. */
  openError: string | undefined;
  /** Why a page could not be drawn, if one could not. */
  pageError: string | undefined;
  /** Pages where the current passage could not be located. */
  unlocatedPages: readonly number[];
  allDrawn: boolean;
  /** Each passage drawn, and whether it was located. */
  located: readonly (readonly [number, boolean])[];
  /** Moves the pages shown by `by` pages. */
  onShift(by: number): void;
  onDrawn(page: DrawnPage): void;
  onError(message: string): void;
}

/** The pages; see the module comment. */
export function PdfPages(props: PdfPagesProps) {
  const { doc, pdf, layout, width, pages, partsByPage, index, openError, pageError } = props;
  const { unlocatedPages, allDrawn, located, onShift, onDrawn } = props;
  return (
    <div className="pdf-pages" aria-label={`Pages of ${doc?.name ?? 'the document'}`} role="region">
      {openError !== undefined && (
        <p className="citation-note" role="alert">
          The PDF could not be opened ({openError}). Choose Text to read the passage.
        </p>
      )}
      {pageError !== undefined && (
        <p className="citation-note" role="alert">
          A page could not be drawn ({pageError}). Choose Text to read the passage.
        </p>
      )}
      {unlocatedPages.length > 0 && allDrawn && (
        <p className="citation-unlocated" role="note">
          On page {unlocatedPages.join(' and ')}, Aerie could not find at least half of this passage’s words,
          so nothing is highlighted there (a wrong highlight would mislead). The Text view shows the passage
          exactly.
        </p>
      )}
      <div className="pdf-page-nav">
        <button type="button" disabled={!layout || pages[0] <= 1} onClick={() => onShift(-1)}>
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
          onClick={() => onShift(1)}
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
            onError={props.onError}
          />
        ))}
      <span hidden data-located={located.filter(([, ok]) => ok).length} />
    </div>
  );
}

/**
 * One page of a kept PDF, drawn by PDF.js on a canvas with Aerie's text layer over it, and the cited ranges'
 * characters on it highlighted. The characters come from the layout recorded at ingest when PDF.js gives the
 * same items as then; otherwise from aligning the span's words with the page's (pdf-locate.ts). A range
 * located for less than half on this page is not highlighted here: the panel says so instead.
 */
import { useEffect, useRef } from 'react';
import type { PDFDocumentProxy, RenderTask } from 'pdfjs-dist';
import type { PdfPageLayout } from '../../../protocol/pdf-layout';
import { alignSpan, isLocated, sameItems, type PageSpan } from '../../../ingest';
import { buildTextLayer, type ItemHighlight } from './text-layer';

/** A cited range's part on this page. */
export interface PagePart {
  /** Index of the range in the citation's ranges. */
  range: number;
  part: PageSpan;
}

/** What a drawn page reports. */
export interface DrawnPage {
  page: number;
  /** The highlight marks, in reading order. */
  marks: HTMLElement[];
  /** Per range index: whether its part here was located well enough to highlight. */
  located: Map<number, boolean>;
  /** How the characters were found. */
  by: PageSpan['by'];
  /** The parts it was drawn with (a drawing of other parts is not this citation's). */
  parts: readonly PagePart[];
}

/** Props of `PdfPageView`. */
export interface PdfPageViewProps {
  pdf: PDFDocumentProxy;
  /** 1-based. */
  page: number;
  /** Width to draw at, CSS pixels. */
  width: number;
  layout: PdfPageLayout | undefined;
  /** The document's extracted text (to align words when the items changed). */
  text: string;
  parts: readonly PagePart[];
  /** The range the citation points at now (its marks are emphasised). */
  current: number;
  documentName: string;
  onDrawn(drawn: DrawnPage): void;
  onError(message: string): void;
}

/** The page; see the module comment. */
export function PdfPageView(props: PdfPageViewProps) {
  const { pdf, page, width, layout, text, parts, current, documentName, onDrawn, onError } = props;
  const boxRef = useRef<HTMLDivElement>(null);
  const layerRef = useRef<HTMLDivElement>(null);
  // The callbacks change on every render; the drawing must not restart for that.
  const report = useRef({ onDrawn, onError });
  report.current = { onDrawn, onError };

  useEffect(() => {
    const box = boxRef.current;
    const layer = layerRef.current;
    if (!box || !layer || width <= 0) return;
    let live = true;
    let task: RenderTask | undefined;
    // A canvas per drawing: PDF.js refuses a canvas whose previous drawing is still being cancelled. It
    // replaces the one shown once it is drawn, so a redraw never flashes an empty page.
    const canvas = document.createElement('canvas');
    canvas.className = 'pdf-canvas';
    canvas.setAttribute('role', 'img');
    canvas.setAttribute('aria-label', `Page ${page} of ${documentName}`);
    (async () => {
      const pdfPage = await pdf.getPage(page);
      const base = pdfPage.getViewport({ scale: 1 });
      const viewport = pdfPage.getViewport({ scale: width / base.width });
      const ratio = window.devicePixelRatio || 1;
      canvas.width = Math.floor(viewport.width * ratio);
      canvas.height = Math.floor(viewport.height * ratio);
      canvas.style.width = `${viewport.width}px`;
      canvas.style.height = `${viewport.height}px`;
      box.style.width = `${viewport.width}px`;
      box.style.height = `${viewport.height}px`;
      task = pdfPage.render({
        canvas,
        viewport,
        ...(ratio !== 1 ? { transform: [ratio, 0, 0, ratio, 0, 0] } : {}),
      });
      const [content] = await Promise.all([pdfPage.getTextContent(), task.promise]);
      if (!live) return;
      box.querySelector('canvas')?.remove();
      box.prepend(canvas);
      const items = content.items;
      const exact = layout !== undefined && sameItems(layout, items);
      const highlights = new Map<number, ItemHighlight[]>();
      const located = new Map<number, boolean>();
      for (const { range, part } of parts) {
        const found = exact ? part : alignSpan(text, part, items);
        const ok = isLocated(found);
        located.set(range, ok);
        if (!ok) continue;
        for (const piece of found.pieces) {
          const list = highlights.get(piece.item) ?? [];
          list.push({ from: piece.from, to: piece.to, range });
          highlights.set(piece.item, list);
        }
      }
      const marks = buildTextLayer(layer, items, viewport, highlights);
      box.dataset.drawn = 'true';
      box.dataset.locatedBy = exact ? 'runs' : 'words';
      report.current.onDrawn({ page, marks, located, by: exact ? 'runs' : 'words', parts });
    })().catch((error: unknown) => {
      if (!live || (error as { name?: string })?.name === 'RenderingCancelledException') return;
      report.current.onError(error instanceof Error ? error.message : String(error));
    });
    return () => {
      live = false;
      task?.cancel();
      delete box.dataset.drawn;
    };
  }, [pdf, page, width, layout, text, parts, documentName]);

  // The current range's marks stand out; the others of the same citation are lighter.
  useEffect(() => {
    for (const mark of layerRef.current?.querySelectorAll<HTMLElement>('mark.pdf-hit') ?? []) {
      mark.classList.toggle('is-current', Number(mark.dataset.range) === current);
    }
  });

  return (
    <div className="pdf-page" ref={boxRef} data-page={page}>
      <div ref={layerRef} className="pdf-text-layer" aria-label={`Text of page ${page}`} />
    </div>
  );
}

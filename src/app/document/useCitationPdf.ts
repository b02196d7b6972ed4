/**
 * The kept PDFs behind the Document tab: opened while the page is idle (so the first citation does not wait for
 * PDF.js), the one shown opened once, and a citation's passages located on its pages.
 */
import { useEffect, useMemo, useState } from 'react';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import type { PdfLayout } from '../../protocol/pdf-layout';
import { locateSpan } from '../../ingest';
import type { OriginalRecord } from '../../storage';
import type { CitationTarget } from './citation-target';
import { originalKey } from './original-key';
import type { PanelDocument } from './panel-document';
import { closePdfs, openPdf } from './pdf/pdf-document';
import type { PagePart } from './pdf/PdfPageView';

/** Pages of a range drawn at once; further pages are a "Next page" away. */
const MAX_PAGES_SHOWN = 2;
/** Longest the warm-up of the kept PDFs waits for an idle moment, ms. */
const WARM_TIMEOUT_MS = 2000;

/** Reads the kept file of a key (`originalKey`). */
type LoadOriginal = (key: string) => Promise<OriginalRecord | undefined>;

/** A PDF being opened, open, or that could not be opened. */
export interface OpenPdf {
  /** The file's `originalKey`. */
  documentId: string;
  pdf?: PDFDocumentProxy;
  layout?: PdfLayout;
  error?: string;
}

/** Opens the tree's kept PDFs while the page is idle; closes them when another tree opens. */
export function useWarmPdfs(documents: readonly PanelDocument[], loadOriginal: LoadOriginal): void {
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
}

/** The PDF of `documentId` (none: nothing), opened once (kept open by pdf-document.ts until the tree closes). */
export function useOpenedPdf(documentId: string | undefined, loadOriginal: LoadOriginal) {
  const [opened, setOpened] = useState<OpenPdf>();
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

  const mine = opened?.documentId === documentId ? opened : undefined;
  return { layout: mine?.layout, pdf: mine?.pdf, error: mine?.error };
}

/** Where a citation's passages are on the pages, and which pages `useCitationPages` shows. */
export interface CitationPagesRequest {
  layout: PdfLayout | undefined;
  doc: PanelDocument | undefined;
  target: CitationTarget | undefined;
  /** The current passage (an index into the citation's ranges). */
  index: number;
  /** Pages moved from the passage's first page by "Previous page" and "Next page". */
  shift: number;
}

/** Every passage of the citation located on the document's pages, and the pages to show. */
export function useCitationPages({ layout, doc, target, index, shift }: CitationPagesRequest) {
  const range = target?.ranges[index];
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

  return { partsByPage, pages };
}

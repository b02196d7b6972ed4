/**
 * PDF.js for the page view: the display layer loads on the page when a PDF page is first shown (legacy build,
 * as ingestion uses), parsing and rasterising in a worker of the app's own (workers/pdf-render.worker.ts).
 * CMaps and the standard fonts come from the app's origin, only when a document needs them; no code is
 * evaluated from the PDF (`isEvalSupported: false`). Open documents are kept per original file until the
 * tree closes (`closePdfs`), so a second citation in the same PDF draws at once.
 */
import type { PDFDocumentProxy, PDFWorker } from 'pdfjs-dist';
import type * as PdfjsModule from 'pdfjs-dist/legacy/build/pdf.mjs';
import { binaryDataParams } from '../../../ingest';
import { loadBundledCMap, loadBundledStandardFont } from '../../../ingest/pdf-assets';
import { startPdfRenderWorker } from '../../../spawn/pdf-render';

type Pdfjs = typeof PdfjsModule;

/** PDF.js verbosity: errors only. */
const VERBOSITY_ERRORS = 0;

let runtime: Promise<{ pdfjs: Pdfjs; worker: PDFWorker }> | undefined;
const open = new Map<string, Promise<PDFDocumentProxy>>();

function loadRuntime(): Promise<{ pdfjs: Pdfjs; worker: PDFWorker }> {
  runtime ??= (async () => {
    const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const port = startPdfRenderWorker();
    // `create` keeps one PDFWorker per port (the constructor's typings omit the port).
    return { pdfjs, worker: pdfjs.PDFWorker.create({ port, name: 'aerie-pdf' }) };
  })().catch((error: unknown) => {
    runtime = undefined; // the next page view tries again
    throw error;
  });
  return runtime;
}

/**
 * The PDF kept under `key` (its document id), opened once.
 * @param file read only the first time.
 */
export function openPdf(key: string, file: () => Promise<Blob>): Promise<PDFDocumentProxy> {
  let pending = open.get(key);
  if (!pending) {
    pending = (async () => {
      const { pdfjs, worker } = await loadRuntime();
      const data = new Uint8Array(await (await file()).arrayBuffer());
      return pdfjs.getDocument({
        data,
        worker,
        isEvalSupported: false,
        enableXfa: false,
        useWasm: false,
        verbosity: VERBOSITY_ERRORS,
        ...binaryDataParams({ cMap: loadBundledCMap, standardFont: loadBundledStandardFont }),
      }).promise;
    })();
    pending.catch(() => open.delete(key));
    open.set(key, pending);
  }
  return pending;
}

/** Closes every open PDF (the tree closed). The worker stays for the next tree. */
export function closePdfs(): void {
  for (const pending of open.values())
    pending.then(
      (doc) => doc.destroy(),
      () => undefined,
    );
  open.clear();
}

/**
 * Loading PDF.js. Aerie uses the legacy build everywhere: the modern build needs very recent JavaScript (it
 * calls `Map.prototype.getOrInsertComputed` unguarded), which older browsers and Node 20 lack, and one build
 * means the Node tests run the code the browser runs.
 *
 * PDF.js normally parses in a worker of its own. Ingestion already runs in Aerie's ingestion worker
 * (workers/ingest.worker.ts), so PDF.js's worker code is imported into that thread instead (its module registers
 * `globalThis.pdfjsWorker`, which PDF.js then uses directly): no second worker, no worker URL, nothing fetched.
 * Do not load this module on a page's main thread: parsing would run there.
 */
// The worker module's types must reach every tsconfig that compiles this file (tests', the worker's), and
// an ambient declaration travels only by reference.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./pdfjs-worker.d.ts" />
import type { DocumentInitParameters } from 'pdfjs-dist/types/src/display/api';
import { binaryDataParams } from './pdf-data';
import type { PdfRuntime } from './pdf';

/**
 * Loads one of PDF.js's packed CMaps (e.g. "UniJIS-UCS2-H.bcmap") as bytes. CMaps are needed to read text set
 * in CJK fonts that use predefined encodings; without a loader such text comes out empty.
 */
export type CMapLoader = (filename: string) => Promise<Uint8Array>;

/** The `getDocument` parameters that make PDF.js ask `loadCMap` for CMaps (and for nothing else). */
export function cMapParams(loadCMap: CMapLoader): Partial<DocumentInitParameters> {
  return binaryDataParams({ cMap: loadCMap });
}

/**
 * Loads PDF.js (legacy build) to parse in the current thread.
 * @param loadCMap where CMaps come from; without it, CJK text in predefined encodings is not extracted.
 */
export async function loadPdfjs(loadCMap?: CMapLoader): Promise<PdfRuntime> {
  const [pdfjs] = await Promise.all([
    import('pdfjs-dist/legacy/build/pdf.mjs'),
    import('pdfjs-dist/legacy/build/pdf.worker.mjs'),
  ]);
  return { pdfjs, params: loadCMap ? cMapParams(loadCMap) : {} };
}

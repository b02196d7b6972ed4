/**
 * Starts the PDF.js worker that renders a document's pages (workers/pdf-render.worker.ts). Workers start only
 * here, one file each (docs/architecture.md, "Workers").
 */
export function startPdfRenderWorker(): Worker {
  return new Worker(new URL('../../workers/pdf-render.worker.ts', import.meta.url), {
    type: 'module',
    name: 'aerie-pdf',
  });
}

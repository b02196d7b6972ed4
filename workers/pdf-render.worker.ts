// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="../src/ingest/pdfjs-worker.d.ts" />
// PDF.js's worker for the page view: importing it in a worker answers the page's PDF.js (it listens on `self`).
import 'pdfjs-dist/legacy/build/pdf.worker.mjs';

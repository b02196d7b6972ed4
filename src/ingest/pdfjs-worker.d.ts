/**
 * PDF.js's worker module ships without type declarations. Importing it registers
 * `globalThis.pdfjsWorker`, which makes PDF.js parse in the importing thread instead of starting a worker.
 */
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}

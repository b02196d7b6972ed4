/**
 * Ingestion: a user's file or pasted text to a document `buildTree` accepts. On a page use `ingestInWorker`
 * and `ingestText`; `ingestFile` is the same work in the current thread (workers, Node, tests).
 */
export { ingestInWorker, type WorkerLike } from './client';
export { IngestError, type IngestErrorCode } from './errors';
export { htmlToText, type HtmlParser } from './html';
export { ingestFile, ingestText, PASTED_TEXT_NAME, type IngestDeps } from './ingest';
export { preflight } from './preflight';
export { LARGE_TEXT_CHARS, MAX_FILE_BYTES, MAX_TEXT_CHARS } from '../protocol/ingest-limits';
export { createIngestService, type IngestApi, type IngestOutcome, type IngestSettings } from './service';
export type {
  IngestedDocument,
  IngestFile,
  IngestOptions,
  IngestProgress,
  IngestType,
} from '../protocol/ingest';
export { alignSpan, isLocated, locateSpan, type PageSpan, sameItems } from './pdf-locate';
export { binaryDataParams } from './pdf-data';
export { loadPdfjs } from './pdfjs-runtime';
export { extractPdfText } from './pdf';

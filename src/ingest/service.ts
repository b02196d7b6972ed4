/**
 * The ingestion API the ingestion worker exposes. Results are a discriminated union rather than a thrown
 * error, so an `IngestError`'s code and details survive the trip across the worker boundary (a thrown error
 * arrives as a bare name and message). Any other failure rejects.
 */
import { IngestError, type IngestErrorCode } from './errors';
import { ingestFile, type IngestDeps } from './ingest';
import type { IngestedDocument, IngestOptions, IngestProgress } from '../protocol/ingest';

/** What `ingest` returns: the document, or the typed refusal as plain data. */
export type IngestOutcome =
  | { ok: true; document: IngestedDocument }
  | { ok: false; error: { code: IngestErrorCode; message: string; details: Record<string, unknown> } };

/** Options that can cross the worker boundary (cancel by terminating the worker; progress is a callback). */
export type IngestSettings = Omit<IngestOptions, 'signal' | 'onProgress'>;

/** Makes the service. `deps` supply the parsers (the worker passes bundled CMaps for PDF.js). */
export function createIngestService(deps: IngestDeps = {}) {
  const api = {
    /**
     * Ingests a file. `name` travels separately because some structured-clone implementations (Node's)
     * deliver a File as a plain Blob.
     */
    async ingest(
      file: Blob,
      name: string,
      settings: IngestSettings = {},
      onProgress?: (progress: IngestProgress) => void,
    ): Promise<IngestOutcome> {
      const named = new File([file], name, { type: file.type });
      try {
        return { ok: true, document: await ingestFile(named, { ...settings, onProgress }, deps) };
      } catch (error) {
        if (!(error instanceof IngestError)) throw error;
        return {
          ok: false,
          error: { code: error.code, message: error.message, details: { ...error.details } },
        };
      }
    },
  };
  return api;
}

/** The API type, derived from the implementation. */
export type IngestApi = ReturnType<typeof createIngestService>;

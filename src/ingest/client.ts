/**
 * The page's way to ingest a file: in a worker of its own, so parsing a large PDF or Word file never
 * freezes the tab. Each call starts a worker and ends it when done, which frees PDF.js's and mammoth's memory
 * and makes cancelling immediate (terminating stops even a long synchronous parse). The page imports only
 * the API type of the worker.
 */
import '../rpc/errors';
import { proxy, wrap } from 'comlink';
import { AbortError, onAbort, throwIfAborted } from '../core/abort';
import { IngestError, quoted } from './errors';
import { preflight } from './preflight';
import type { IngestApi, IngestOutcome } from './service';
import type { IngestedDocument, IngestFile, IngestOptions } from '../protocol/ingest';
import { startIngestWorker } from '../spawn/ingest';

/** What the client needs of a worker (a `Worker`, or a test's fake). */
export type WorkerLike = Pick<
  Worker,
  'postMessage' | 'addEventListener' | 'removeEventListener' | 'terminate'
>;

/**
 * Ingests a file in a worker (see `ingestFile` for what it does and how it fails). Empty and over-large files
 * are refused here, before a worker starts.
 * @param startWorker starts the worker; tests pass a fake.
 * @throws IngestError as `ingestFile` does, or `WORKER_FAILED` when the worker cannot start or dies;
 *   AbortError when `options.signal` fires (the worker is terminated at once).
 */
export async function ingestInWorker(
  file: IngestFile,
  options: IngestOptions = {},
  startWorker: () => WorkerLike = startIngestWorker,
): Promise<IngestedDocument> {
  const { signal, onProgress, ...settings } = options;
  throwIfAborted(signal);
  preflight(file, settings.maxBytes);
  const worker = startWorker();
  const api = wrap<IngestApi>(worker);
  const cleanups: (() => void)[] = [];
  try {
    const outcome = await new Promise<IngestOutcome>((resolve, reject) => {
      cleanups.push(onAbort(signal, () => reject(new AbortError('Reading the file was cancelled.'))));
      const onError = (event: Event) => {
        const reason = (event as ErrorEvent).message || 'the worker stopped';
        reject(
          new IngestError(
            'WORKER_FAILED',
            `${quoted(file.name)} could not be read: ${reason}. Reload the page and try again.`,
            { name: file.name, reason },
          ),
        );
      };
      worker.addEventListener('error', onError);
      cleanups.push(() => worker.removeEventListener('error', onError));
      api.ingest(file, file.name, settings, onProgress ? proxy(onProgress) : undefined).then(resolve, reject);
    });
    if (!outcome.ok) throw new IngestError(outcome.error.code, outcome.error.message, outcome.error.details);
    return outcome.document;
  } finally {
    for (const cleanup of cleanups) cleanup();
    // Terminating frees everything the worker and its proxies held; a call still running is abandoned.
    worker.terminate();
  }
}

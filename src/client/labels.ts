/**
 * Topic labels computed in a worker (workers/labels.worker.ts), so that opening a large tree saved before labels
 * existed never blocks the page: labelling a 1M-token tree takes about a second of CPU. One worker per call,
 * as this happens once per old tree (its labels are then saved), ended when the call settles or is aborted.
 */
import '../rpc/errors';
import { releaseProxy, wrap } from 'comlink';
import { AerieError } from '../core/errors';
import type { LabelNode } from '../core/labels';
import type { LabelsWorkerApi } from '../pipeline/labels-service';
import { startLabelsWorker } from '../spawn/labels';

/** The labels worker could not start or died before it answered. */
export class LabelsWorkerError extends AerieError<'WORKER_FAILED'> {}

/**
 * `computeLabels(nodes)` run in a fresh worker. Only what labelling reads of each node is sent (id, layer,
 * text, children). Rejects with `signal.reason` when aborted (the worker is ended at once), and with a
 * LabelsWorkerError when the worker fails.
 */
export async function computeLabelsInWorker(
  nodes: readonly LabelNode[],
  signal?: AbortSignal,
): Promise<(string[] | undefined)[]> {
  signal?.throwIfAborted();
  const worker = startLabelsWorker();
  const api = wrap<LabelsWorkerApi>(worker);
  const ended = new AbortController();
  try {
    const stopped = new Promise<never>((_, reject) => {
      worker.addEventListener(
        'error',
        (event) =>
          reject(
            new LabelsWorkerError(
              'WORKER_FAILED',
              `The labels worker failed: ${event.message || 'unknown error'}`,
            ),
          ),
        { signal: ended.signal },
      );
      signal?.addEventListener('abort', () => reject(signal.reason), { signal: ended.signal });
    });
    const sent = nodes.map(({ id, layer, text, children }) => ({ id, layer, text, children }));
    return await Promise.race([api.computeLabels(sent), stopped]);
  } finally {
    ended.abort();
    api[releaseProxy]();
    worker.terminate();
  }
}

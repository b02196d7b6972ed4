import { expose } from 'comlink';
import { describe, expect, it, vi } from 'vitest';
import {
  createIngestService,
  IngestError,
  ingestInWorker,
  type IngestDeps,
  type IngestProgress,
  type WorkerLike,
} from '../../src/ingest';

/** A FAKE worker: the ingestion service exposed over a MessageChannel in this thread, as the worker exposes it. */
function fakeWorker(deps: IngestDeps = {}) {
  const { port1, port2 } = new MessageChannel();
  expose(createIngestService(deps), port2);
  const state = { terminated: false };
  const worker: WorkerLike & { start(): void } = {
    postMessage: (message: unknown, transfer?: unknown) =>
      port1.postMessage(message, (transfer ?? []) as Transferable[]),
    addEventListener: port1.addEventListener.bind(port1) as WorkerLike['addEventListener'],
    removeEventListener: port1.removeEventListener.bind(port1) as WorkerLike['removeEventListener'],
    start: () => port1.start(),
    terminate: () => {
      state.terminated = true;
      port1.close();
      port2.close();
    },
  };
  return { worker, state, fail: () => port1.dispatchEvent(new Event('error')) };
}

describe('the ingestion service', () => {
  it('returns the document, or the refusal as data that survives a worker boundary', async () => {
    const service = createIngestService();
    const ok = await service.ingest(new Blob(['Hello\r\nworld']), 'hello.txt');
    expect(ok).toEqual({
      ok: true,
      document: { name: 'hello.txt', type: 'txt', size: 12, text: 'Hello\nworld', warnings: [] },
    });
    const refused = await service.ingest(new Blob(['   ']), 'blank.txt');
    expect(refused).toEqual({
      ok: false,
      error: {
        code: 'NO_TEXT',
        message: '“blank.txt” contains no text, only blank space.',
        details: { name: 'blank.txt', chars: 3 },
      },
    });
  });
});

describe('ingestInWorker (with a fake worker)', () => {
  it('returns the document and forwards progress, then ends the worker', async () => {
    const { worker, state } = fakeWorker();
    const events: IngestProgress[] = [];
    const doc = await ingestInWorker(
      new File(['# Notes\n\nOwls.'], 'notes.md'),
      { onProgress: (p) => events.push(p) },
      () => worker,
    );
    expect([doc.type, doc.text]).toEqual(['md', '# Notes\n\nOwls.']);
    // Progress travels on its own channel and may trail the result by a tick.
    await vi.waitFor(() => expect(events).toEqual([{ stage: 'read', done: 14, total: 14 }]));
    expect(state.terminated).toBe(true);
  });

  it('rethrows a refusal as an IngestError with its code and details', async () => {
    const { worker, state } = fakeWorker();
    const error = await ingestInWorker(
      new File([new Uint8Array([1, 2, 0, 3])], 'x.txt'),
      {},
      () => worker,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IngestError);
    expect(error).toMatchObject({ name: 'IngestError', code: 'BINARY', details: { name: 'x.txt', nul: 1 } });
    expect(state.terminated).toBe(true);
  });

  it('refuses empty and over-large files before starting a worker', async () => {
    const start = () => {
      throw new Error('no worker may start');
    };
    await expect(ingestInWorker(new File([], 'e.txt'), {}, start)).rejects.toMatchObject({ code: 'EMPTY' });
    await expect(ingestInWorker(new File(['abc'], 'b.txt'), { maxBytes: 2 }, start)).rejects.toMatchObject({
      code: 'TOO_LARGE',
    });
  });

  it('cancels at once by terminating a busy worker', async () => {
    // A PDF whose parser never loads keeps the worker busy until it is cancelled.
    const { worker, state } = fakeWorker({ loadPdf: () => new Promise(() => undefined) });
    const controller = new AbortController();
    const run = ingestInWorker(
      new File(['%PDF-1.7\n'], 'a.pdf'),
      { signal: controller.signal },
      () => worker,
    );
    setTimeout(() => controller.abort(), 10);
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(state.terminated).toBe(true);
  });

  it('fails with WORKER_FAILED when the worker dies', async () => {
    const { worker, fail } = fakeWorker({ loadPdf: () => new Promise(() => undefined) });
    const run = ingestInWorker(new File(['%PDF-1.7\n'], 'a.pdf'), {}, () => worker);
    setTimeout(fail, 10);
    await expect(run).rejects.toMatchObject({ code: 'WORKER_FAILED' });
  });
});

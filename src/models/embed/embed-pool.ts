/**
 * Embedding one call's batches on several workers at once. On a CPU, two ONNX Runtime instances of one thread
 * each embed faster than one instance of two threads, whose threads wait for each other at every operator: a
 * 78k-token book's 963 leaves in 20.5 s against 23.4 s on 2 cores (`npm run bench build`, one run of each).
 *
 * The batches are formed before any worker sees them, exactly as one worker forms them (`longestFirst`, then
 * `batchSize` texts at a time), and each is embedded whole by whichever worker is free: a batch's vectors
 * depend on its texts (padding; q8's dynamic quantisation scales over the whole batch), never on the worker
 * or on how many there are, so the result is the same for any pool size. The calling worker's own batch blocks
 * its thread (ONNX Runtime's WASM run does not return to the event loop), so a helper's answer, and the next
 * batch it could be handed, wait until that batch ends: a helper is therefore handed HELPER_DEPTH batches at a
 * time and always has the next one (one at a time, it sat idle half the time: 31.6 s for those leaves). A helper
 * that fails is dropped and its batches are embedded by the others; the call fails when the calling worker's
 * own model fails.
 */
import { throwIfAborted, type AbortSignalLike } from '../../core/abort';
import { yieldToEventLoop } from '../../core/yield';
import type { EmbeddingBatch } from './rows';

/** Embeds one batch of texts (in the given order) and returns its vectors, and sentence vectors when asked. */
export type BatchRunner = (texts: string[]) => Promise<EmbeddingBatch>;

/** A worker of the pool: how it embeds a batch and, for a helper, whether its model has loaded. */
export interface PoolRunner {
  run: BatchRunner;
  /** Resolves true once the runner can embed (false: never use it). Default: ready now. */
  ready?: Promise<boolean>;
}

/** The pool's plan of CPU workers for embeddings: how many, and WASM threads for each. */
export interface EmbedWorkerPlan {
  workers: number;
  threads: number;
}

/** Batches handed to a helper before it returns one (see `embedOnPool`). */
export const HELPER_DEPTH = 2;

/** At most this many embedding workers: each holds its own copy of the model. */
export const MAX_EMBED_WORKERS = 2;

/**
 * How to spread embeddings over `cores` (navigator.hardwareConcurrency): up to MAX_EMBED_WORKERS workers, the
 * cores shared out between them as WASM threads (threads need cross-origin isolation: without it, one each).
 * Measured on 2 cores only (2 × 1 thread beats 1 × 2); on more cores the same split is assumed to hold.
 */
export function embedWorkerPlan(cores: number, crossOriginIsolated: boolean): EmbedWorkerPlan {
  const usable = Math.max(1, Math.floor(cores) || 1);
  const workers = Math.min(MAX_EMBED_WORKERS, usable);
  return { workers, threads: crossOriginIsolated ? Math.max(1, Math.floor(usable / workers)) : 1 };
}

/**
 * Runs `batches` (lists of indices into `texts`) on `runners` — the first is the calling worker's own model,
 * which never gets dropped (it should be ready at once) — each taking the next batch when free, and assembles
 * the vectors (and sentence vectors) in text order.
 * @param onBatch called after each batch with the number of texts done so far.
 * @throws the first runner's error for a batch it could not embed; AbortError when `signal` aborts between batches.
 */
export async function embedOnPool(
  texts: readonly string[],
  batches: readonly (readonly number[])[],
  runners: readonly PoolRunner[],
  options: { signal?: AbortSignalLike; onBatch?: (done: number) => void } = {},
): Promise<EmbeddingBatch> {
  const results: EmbeddingBatch[] = new Array(batches.length);
  const queue = batches.map((_, b) => b);
  let done = 0;
  let failure: unknown;
  /** Helpers that failed a batch: none of their loops takes another. */
  const dropped = new Set<PoolRunner>();

  /** Resolves when the calling worker's own loop has ended: no batch is left for a helper still loading. */
  let ownEnded!: () => void;
  const ownDone = new Promise<false>((resolve) => (ownEnded = () => resolve(false)));

  async function work(runner: PoolRunner, own: boolean): Promise<void> {
    const { run, ready } = runner;
    // A helper still loading takes no batch until it can start on it, and none at all once the calling worker
    // has run out of them (the call does not wait for its load).
    if (ready && !(await Promise.race([ready, ownDone]))) return;
    for (;;) {
      if (failure !== undefined || dropped.has(runner)) return;
      throwIfAborted(options.signal);
      const b = queue.shift();
      if (b === undefined) return;
      try {
        results[b] = await run(batches[b].map((i) => texts[i]));
      } catch (error) {
        if (own) {
          failure ??= error;
          return;
        }
        // A helper that fails (crashed, out of memory, model not loaded) leaves its batch to the others.
        dropped.add(runner);
        queue.unshift(b);
        return;
      }
      done += batches[b].length;
      options.onBatch?.(done);
      // ONNX Runtime on one thread resolves without a macrotask in between: without a yield, the helpers'
      // results (messages) would wait until this worker had run out of batches.
      await yieldToEventLoop();
    }
  }

  // A helper gets HELPER_DEPTH batches at a time: the next is already in its inbox when it finishes one, even
  // while this worker's own batch keeps it from handing out more (ONNX Runtime blocks its thread).
  const loops = runners.flatMap((runner, r) =>
    r === 0
      ? [work(runner, true).finally(ownEnded)]
      : Array.from({ length: HELPER_DEPTH }, () => work(runner, false)),
  );
  const settled = await Promise.allSettled(loops);
  const rejected = settled.find((s) => s.status === 'rejected');
  if (rejected) throw rejected.reason;
  // A helper that failed after the others had finished left its batch behind.
  if (failure === undefined && queue.length > 0) await work(runners[0], true);
  if (failure !== undefined) throw failure;
  return assemble(texts.length, batches, results);
}

/** The batches' results as one batch in text order. */
function assemble(
  count: number,
  batches: readonly (readonly number[])[],
  results: readonly EmbeddingBatch[],
): EmbeddingBatch {
  const dim = results[0]?.dim ?? 0;
  const data = new Float32Array(count * dim);
  const withSentences = results.length > 0 && results.every((r) => r.sentences);
  const counts = new Int32Array(count).fill(-1);
  /** Where text i's sentence rows start in its batch's sentence data. */
  const sentenceAt = new Int32Array(count);
  batches.forEach((batch, b) => {
    const result = results[b];
    let row = 0;
    batch.forEach((textIndex, j) => {
      data.set(result.data.subarray(j * dim, (j + 1) * dim), textIndex * dim);
      if (!withSentences) return;
      const n = result.sentences!.counts[j];
      counts[textIndex] = n;
      sentenceAt[textIndex] = row;
      row += Math.max(0, n);
    });
  });
  if (!withSentences) return { data, dim };
  let rows = 0;
  for (let i = 0; i < count; i++) rows += Math.max(0, counts[i]);
  const sentenceData = new Float32Array(rows * dim);
  const batchOf = new Int32Array(count);
  batches.forEach((batch, b) => batch.forEach((textIndex) => (batchOf[textIndex] = b)));
  let at = 0;
  for (let i = 0; i < count; i++) {
    const n = Math.max(0, counts[i]);
    const source = results[batchOf[i]].sentences!.data;
    sentenceData.set(source.subarray(sentenceAt[i] * dim, (sentenceAt[i] + n) * dim), at * dim);
    at += n;
  }
  return { data, dim, sentences: { data: sentenceData, dim, counts } };
}

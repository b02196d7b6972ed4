/**
 * Harness page for the embedding worker (`npx vite`, then /dev/models.html): the app's real embed worker
 * (workers/embed.worker.ts, as the page starts it) behind `window.aerieModels`, so a browser test can load
 * models, embed texts and rerank with exact inputs, and read what failed. No UI.
 */
import { embedWorker, terminateAll } from '../src/client/workers';
import type { ModelChoice, RerankerChoice } from '../src/models/embed';

/** The outcome of a call: its value, or the error's code and message. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; code: string; name: string; message: string };

async function outcome<T>(work: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    const e = error as { code?: unknown; name?: string; message?: string };
    return { ok: false, code: String(e.code), name: e.name ?? 'Error', message: e.message ?? String(error) };
  }
}

/** Loads `choice` in the embed worker. */
function load(choice: ModelChoice) {
  return outcome(() => embedWorker().load(choice));
}

/**
 * Embeds `texts` with `choice` (`batchSize` texts per model pass, default the app's): the vectors as plain arrays,
 * row by row, and where they were embedded.
 */
function embed(texts: string[], choice: ModelChoice, batchSize?: number) {
  return outcome(async () => {
    const { data, dim, ranOn } = await embedWorker().embed(texts, choice, batchSize ? { batchSize } : {});
    return { vectors: texts.map((_, i) => Array.from(data.subarray(i * dim, (i + 1) * dim))), ranOn };
  });
}

/** Loads a reranker and scores `passages` for `question`. */
function rerank(question: string, passages: string[], choice: RerankerChoice) {
  return outcome(async () => {
    const info = await embedWorker().loadReranker(choice);
    return { info, scores: Array.from(await embedWorker().rerank(question, passages, choice)) };
  });
}

/** Ends the embed worker: the next call starts a fresh one (a new WebGPU device, nothing loaded). */
function restart(): void {
  terminateAll();
}

Object.assign(globalThis, { aerieModels: { load, embed, rerank, restart } });

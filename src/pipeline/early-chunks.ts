/**
 * A build's documents chunked while its embedding model loads. The load runs in the embedding workers and
 * mostly waits (files fetched, ONNX Runtime compiled), while the build worker, which chunks, sat idle through it
 * and chunked only after: 0.2 s of a 78k-token book on an idle machine, ~3 s of the KJV (docs/build-time.md).
 * The chunks are those `chunkTextAsync` makes (the same function, text and budget), so the tree is the same.
 */
import type { AbortSignalLike } from '../core/abort';
import { chunkTextAsync, type AsyncChunkOptions, type Chunk } from '../core/text';

/** A document's chunking begun early: its result, how far it got, and who to tell as it goes on. */
interface Started {
  chunks: Promise<Chunk[]>;
  done: number;
  listener?: (done: number) => void;
}

/**
 * Starts chunking every text of `texts` at once (each distinct text once) and returns a chunker for
 * `buildTree` that hands back those chunks: a text it began with the same budget gets its result (its
 * progress reported from where it got, then as it goes on); any other is chunked then.
 * @param maxTokens the build's chunk budget (`chunkTokens`).
 * @param signal stops the early chunking (the build's cancel).
 */
export function startChunking(
  texts: readonly string[],
  maxTokens: number,
  signal?: AbortSignalLike,
): (text: string, options: AsyncChunkOptions) => Promise<Chunk[]> {
  const started = new Map<string, Started>();
  for (const text of texts) {
    if (started.has(text)) continue;
    const entry: Started = { chunks: Promise.resolve([]), done: 0 };
    entry.chunks = chunkTextAsync(text, {
      maxTokens,
      signal,
      onProgress: (done) => {
        entry.done = done;
        entry.listener?.(done);
      },
    });
    // A failure (a bad budget, a cancel) is the build's to report, when it asks for these chunks.
    entry.chunks.catch(() => undefined);
    started.set(text, entry);
  }
  return (text, options) => {
    const entry = options.maxTokens === maxTokens ? started.get(text) : undefined;
    if (!entry) return chunkTextAsync(text, options);
    entry.listener = options.onProgress;
    if (entry.done > 0) options.onProgress?.(entry.done);
    return entry.chunks;
  };
}

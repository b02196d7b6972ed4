/**
 * The same-run reference of `npm run bench build`: the same pipeline in Node, where transformers.js runs
 * the same ONNX file on native ONNX Runtime (onnxruntime-node, the CPU binary the npm package ships; no
 * Python): `buildTree` with the same parameters, model, dtype and extractive summaries (sentence vectors from
 * the nodes' own pass, as the app does), and the leaves' embedding alone, timed. What is left between the two
 * is the browser's cost: WASM instead of native kernels, workers and messages, IndexedDB.
 */
import { buildTree, EMBED_BATCH, embeddingOrder } from '../../src/core/build';
import { chunkText } from '../../src/core/text';
import { createExtractiveSummarizer } from '../../src/core/extractive';
import { createSentenceMemory } from '../../src/core/sentence-vectors';
import { DEFAULT_BUILD_PARAMS } from '../../src/core/types';
import { configureRuntime, DEFAULT_BATCH_SIZE, TransformersEmbedder } from '../../src/models/embed';
import { splitRows, splitSentenceRows } from '../../src/models/embed/rows';
import { paddingShare } from './padding';

/** What the Node run measured. */
export interface NativeBuild {
  totalMs: number;
  /** Embedding the leaves alone (a second, separate pass over the same chunks), ms. */
  embedLeavesMs: number;
  chunks: number;
  nodes: number;
  /** onnxruntime-node's version. */
  ortVersion: string;
  /**
   * Share of the model's work on the leaves that is padding (paddingShare, the model's own token counts): in the
   * order the build embeds them (longest first) and in document order.
   */
  padding: { built: number; documentOrder: number };
}

/**
 * Builds `text` in Node with the model `model` (a `local:` id under `modelsDir`), q8, then embeds its
 * chunks once more alone to time the leaves' embedding without the rest.
 */
export async function nativeBuild(text: string, model: string, modelsDir: string): Promise<NativeBuild> {
  configureRuntime({ localModelPath: modelsDir });
  const embedder = await TransformersEmbedder.load(model, { dtype: 'q8', device: 'cpu' });
  try {
    const memory = createSentenceMemory(async (texts) => {
      const batch = await embedder.embed(texts, { sentences: true });
      return { vectors: splitRows(batch), sentences: splitSentenceRows(batch.sentences!) };
    });
    const plain = async (texts: string[]) => splitRows(await embedder.embed(texts));
    const started = performance.now();
    const tree = await buildTree(
      [{ id: 'd1', name: 'bench.txt', text }],
      {
        embed: memory.embed,
        summarize: createExtractiveSummarizer(plain, memory.source),
        embedLengths: async (texts) => embedder.tokenCounts(texts),
      },
      { ...DEFAULT_BUILD_PARAMS },
    );
    const totalMs = performance.now() - started;
    const chunks = chunkText(text, { maxTokens: DEFAULT_BUILD_PARAMS.chunkTokens }).map((c) => c.text);
    const embedStarted = performance.now();
    await embedder.embed(chunks);
    const embedLeavesMs = performance.now() - embedStarted;
    const lengths = await embedder.tokenCounts(chunks);
    const inDocumentOrder = chunks.map((_, i) => i);
    const padding = {
      built: paddingShare(lengths, embeddingOrder(lengths), EMBED_BATCH, DEFAULT_BATCH_SIZE),
      documentOrder: paddingShare(lengths, inDocumentOrder, EMBED_BATCH, DEFAULT_BATCH_SIZE),
    };
    const ort = (await import('onnxruntime-node')) as { env?: { versions?: { node?: string } } };
    return {
      totalMs,
      embedLeavesMs,
      chunks: chunks.length,
      nodes: tree.nodes.length,
      ortVersion: ort.env?.versions?.node ?? 'unknown',
      padding,
    };
  } finally {
    await embedder.dispose();
  }
}

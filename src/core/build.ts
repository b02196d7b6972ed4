/**
 * Builds a RAPTOR tree bottom-up (paper §3): chunk the documents into leaves, embed them, then repeat —
 * cluster the current layer, summarise each cluster, embed the summaries — until the layer is small, stops
 * shrinking, or the layer cap is reached. The models are injected, so the same code runs with real models
 * in a worker and with fakes in tests.
 */
import { throwIfAborted, type AbortSignalLike } from './abort';
import { chunkText } from './chunk';
import {
  clusterNodesAsync,
  DEFAULT_MAX_CLUSTERS,
  type ClusterPool,
  type ClusterProgress,
  type LocalMixtureOptions,
} from './cluster';
import { BuildError, EMBED_BATCH } from './build-shared';
import { mapWithConcurrency } from './pool';
import { deriveSeed } from './random';
import { countTokens } from './tokens';
import {
  DEFAULT_BUILD_PARAMS,
  DEFAULT_CONCURRENCY,
  type BuildParams,
  type EmbedFn,
  type RaptorTree,
  type SummarizeFn,
  type SummarizerInfo,
  type TreeDocument,
  type TreeNode,
} from './types';

export { DEFAULT_CONCURRENCY } from './types';
export { BuildError, EMBED_BATCH } from './build-shared';

/** A document to build from. */
export interface BuildDocument {
  /** Stable id recorded in leaf sources; defaults to `doc-<index>`. */
  id?: string;
  /** Display name; defaults to the id. */
  name?: string;
  text: string;
  /** Start offsets of pages 2, 3, … in `text` (PDFs), so leaves can record their page. */
  pageStarts?: number[];
}

/** What `buildTree` accepts: one text, one document or several documents (one tree). */
export type BuildInput = string | BuildDocument | BuildDocument[];

/** The injected models. */
export interface BuildModels {
  embed: EmbedFn;
  summarize: SummarizeFn;
  /**
   * Each text's length in the embedding model's own tokens. The build hands the embedder texts of similar
   * length together, so its batches pad little (on the bench's books, in document order, 9–11% of the model's
   * work on the leaves was padding). Without it, the texts' cl100k counts order them (padding 2–5%).
   */
  embedLengths?: (texts: string[]) => Promise<number[]>;
}

/** Options of `buildTree`: the paper's parameters (all optional) plus run settings. */
export interface BuildOptions extends Partial<BuildParams> {
  /** Tree title; defaults to the first document's name. */
  title?: string;
  /** Recorded in the tree; queries must use the same model. Default "unknown". */
  embeddingModel?: string;
  /** Recorded in the tree. Default `{ kind: 'llm' }`. */
  summarizer?: SummarizerInfo;
  /** Summaries requested at once. Default 4. */
  concurrency?: number;
  /** Most clusters BIC may choose per mixture. Default 50. */
  maxClusters?: number;
  /** Stops the build with an AbortError. */
  signal?: AbortSignalLike;
  /** Timestamp recorded as `createdAt`. Default now. */
  createdAt?: string;
  /**
   * The mixture inside each global cluster. Default: the paper's tree shape (spherical components of at least
   * three nodes, about six children per parent); see `LocalMixtureOptions` and docs/clustering.md.
   */
  localMixture?: LocalMixtureOptions;
  /**
   * Runs each layer's local clusterings several at once (e.g. a pool of workers). The tree is the same with
   * or without one, whatever its size. Default: one after another, here.
   */
  clusterPool?: ClusterPool;
}

/** Progress of a build, stage by stage, with counts. */
export type BuildProgress =
  | { stage: 'chunk'; done: number; total: number }
  | { stage: 'embed-leaves'; done: number; total: number }
  | { stage: 'cluster'; layer: number; done: number; total: number; detail?: ClusterProgress }
  | { stage: 'summarize'; layer: number; done: number; total: number }
  | { stage: 'embed-summaries'; layer: number; done: number; total: number }
  | { stage: 'done'; layers: number; nodes: number; stopReason: StopReason };

/** Why a build stopped adding layers (recorded for the UI and statistics). */
export type StopReason = 'small-layer' | 'no-reduction' | 'max-layers';

interface NormalizedDocument {
  id: string;
  name: string;
  text: string;
  pageStarts?: number[];
}

function normalizeInput(input: BuildInput): NormalizedDocument[] {
  const docs = typeof input === 'string' ? [{ text: input }] : Array.isArray(input) ? input : [input];
  const seen = new Set<string>();
  return docs.map((d, i) => {
    const id = d.id ?? `doc-${i}`;
    if (seen.has(id)) throw new BuildError('INVALID_PARAM', `Two documents share the id "${id}".`, { id });
    seen.add(id);
    return { id, name: d.name ?? id, text: d.text, pageStarts: d.pageStarts };
  });
}

function validateParams(p: BuildParams, concurrency: number): void {
  const positiveInts: (keyof BuildParams)[] = [
    'chunkTokens',
    'reductionDim',
    'maxClusterTokens',
    'summaryTokens',
  ];
  for (const key of positiveInts) {
    if (!Number.isInteger(p[key]) || p[key] < 1) {
      throw new BuildError('INVALID_PARAM', `${key} must be a positive integer (got ${p[key]}).`, {
        [key]: p[key],
      });
    }
  }
  if (!Number.isInteger(p.maxLayers) || p.maxLayers < 0) {
    throw new BuildError('INVALID_PARAM', `maxLayers must be a whole number ≥ 0 (got ${p.maxLayers}).`, {
      maxLayers: p.maxLayers,
    });
  }
  if (!(p.clusterThreshold > 0 && p.clusterThreshold < 1)) {
    throw new BuildError(
      'INVALID_PARAM',
      `clusterThreshold must lie in (0, 1) (got ${p.clusterThreshold}).`,
      {
        clusterThreshold: p.clusterThreshold,
      },
    );
  }
  if (!Number.isFinite(p.seed))
    throw new BuildError('INVALID_PARAM', 'seed must be a number.', { seed: p.seed });
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new BuildError('INVALID_PARAM', `concurrency must be a positive integer (got ${concurrency}).`, {
      concurrency,
    });
  }
}

function pageOf(pageStarts: number[] | undefined, offset: number): number | undefined {
  if (!pageStarts) return undefined;
  let page = 1;
  for (const start of pageStarts) if (offset >= start) page++;
  return page;
}

/**
 * Batches `embedAll` keeps asked for at once: the next batch is already with the embedder while the previous
 * one's vectors are checked and stored (a cache lookup and write per batch), so the model never waits for them.
 */
export const EMBED_BATCHES_IN_FLIGHT = 2;

/**
 * The order texts are embedded in: longest first by `lengths` (ties in text order), so that each call, and each
 * batch the embedder forms from it, holds texts of similar length. Depends only on the lengths, never on timing.
 */
export function embeddingOrder(lengths: readonly number[]): number[] {
  return lengths.map((_, i) => i).sort((a, b) => lengths[b] - lengths[a] || a - b);
}

/**
 * Embeds texts in calls of EMBED_BATCH in `embeddingOrder` of `lengths` (always the same calls: the vectors do
 * not depend on timing), checking every vector and reporting progress after each call, in order; the vectors
 * come back in text order.
 */
async function embedAll(
  embed: EmbedFn,
  texts: string[],
  lengths: readonly number[],
  dim: number | undefined,
  signal: AbortSignalLike | undefined,
  onBatch: (done: number) => void,
): Promise<Float32Array[]> {
  const order = embeddingOrder(lengths);
  const ordered = order.map((i) => texts[i]);
  const out: Float32Array[] = new Array(texts.length);
  let done = 0;
  const asked: Promise<Float32Array[]>[] = [];
  const ask = (start: number) => {
    throwIfAborted(signal);
    const call = embed(ordered.slice(start, start + EMBED_BATCH), { signal });
    // A batch asked for ahead whose predecessor fails is not waited for: its rejection is not an error.
    call.catch(() => undefined);
    asked.push(call);
  };
  for (let i = 0; i < ordered.length; i += EMBED_BATCH) {
    while (asked.length * EMBED_BATCH < Math.min(ordered.length, i + EMBED_BATCHES_IN_FLIGHT * EMBED_BATCH))
      ask(asked.length * EMBED_BATCH);
    const batch = ordered.slice(i, i + EMBED_BATCH);
    const vectors = await asked[i / EMBED_BATCH];
    if (!Array.isArray(vectors) || vectors.length !== batch.length) {
      throw new BuildError(
        'BAD_EMBEDDING',
        `The embedder returned ${vectors?.length} vectors for ${batch.length} texts.`,
        {
          expected: batch.length,
          actual: vectors?.length,
        },
      );
    }
    vectors.forEach((v, j) => {
      const expected = dim ?? (done > 0 ? out[order[0]].length : vectors[0]?.length);
      if (
        !(v instanceof Float32Array) ||
        v.length !== expected ||
        v.length === 0 ||
        !v.every(Number.isFinite)
      ) {
        throw new BuildError(
          'BAD_EMBEDDING',
          `The embedder returned an invalid vector (length ${v?.length}, expected ${expected}).`,
          {
            expected,
            actual: v?.length,
          },
        );
      }
      out[order[i + j]] = v;
    });
    done += vectors.length;
    onBatch(done);
  }
  return out;
}

/** Each text's length for `embeddingOrder`: the embedder's own tokens when it can count them, else `fallback`. */
async function embedLengths(
  models: BuildModels,
  texts: string[],
  fallback: readonly number[],
): Promise<readonly number[]> {
  if (!models.embedLengths) return fallback;
  const lengths = await models.embedLengths(texts);
  return Array.isArray(lengths) && lengths.length === texts.length && lengths.every(Number.isFinite)
    ? lengths
    : fallback;
}

/**
 * Builds a RAPTOR tree from one or more documents.
 * @param input text or documents; several documents make one tree whose leaves keep their document.
 * @param models `embed` and `summarize` (see `createExtractiveSummarizer` for a model-free summariser).
 * @param options the paper's parameters (defaults: `DEFAULT_BUILD_PARAMS`) and run settings.
 * @param onProgress called at every step with counts.
 * @throws BuildError for empty input or broken model output; AbortError when `options.signal` fires;
 *   any error thrown by the models, unchanged.
 */
export async function buildTree(
  input: BuildInput,
  models: BuildModels,
  options: BuildOptions = {},
  onProgress?: (progress: BuildProgress) => void,
): Promise<RaptorTree> {
  const { signal } = options;
  const params: BuildParams = {
    chunkTokens: options.chunkTokens ?? DEFAULT_BUILD_PARAMS.chunkTokens,
    reductionDim: options.reductionDim ?? DEFAULT_BUILD_PARAMS.reductionDim,
    clusterThreshold: options.clusterThreshold ?? DEFAULT_BUILD_PARAMS.clusterThreshold,
    maxClusterTokens: options.maxClusterTokens ?? DEFAULT_BUILD_PARAMS.maxClusterTokens,
    maxLayers: options.maxLayers ?? DEFAULT_BUILD_PARAMS.maxLayers,
    summaryTokens: options.summaryTokens ?? DEFAULT_BUILD_PARAMS.summaryTokens,
    seed: options.seed ?? DEFAULT_BUILD_PARAMS.seed,
  };
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  validateParams(params, concurrency);
  throwIfAborted(signal);

  const docs = normalizeInput(input);
  const documents: TreeDocument[] = docs.map((d) => ({ id: d.id, name: d.name, chars: d.text.length }));
  const nodes: TreeNode[] = [];
  docs.forEach((doc, i) => {
    for (const chunk of chunkText(doc.text, { maxTokens: params.chunkTokens })) {
      const page = pageOf(doc.pageStarts, chunk.start);
      nodes.push({
        id: nodes.length,
        layer: 0,
        text: chunk.text,
        tokens: chunk.tokens,
        children: [],
        embedding: new Float32Array(0),
        source: { doc: doc.id, start: chunk.start, end: chunk.end, ...(page ? { page } : {}) },
      });
    }
    onProgress?.({ stage: 'chunk', done: i + 1, total: docs.length });
  });
  if (nodes.length === 0) {
    throw new BuildError('EMPTY_INPUT', 'The documents contain no text to build a tree from.', {
      documents: docs.length,
    });
  }

  // Embedding starts now (the progress shows it at 0 rather than chunking until the first batch is done).
  onProgress?.({ stage: 'embed-leaves', done: 0, total: nodes.length });
  const leafTexts = nodes.map((n) => n.text);
  const leafVectors = await embedAll(
    models.embed,
    leafTexts,
    await embedLengths(
      models,
      leafTexts,
      nodes.map((n) => n.tokens),
    ),
    undefined,
    signal,
    (done) => onProgress?.({ stage: 'embed-leaves', done, total: nodes.length }),
  );
  leafVectors.forEach((v, i) => (nodes[i].embedding = v));
  const dim = leafVectors[0].length;

  let current = nodes.slice();
  let layer = 0;
  let stopReason: StopReason = 'max-layers';
  while (layer < params.maxLayers) {
    let clusters: number[][];
    if (current.length <= params.reductionDim + 1) {
      // Too few nodes to cluster (paper's stop rule). A document too short to cluster still gets one root
      // summary over its leaves, so every tree has a top that covers the whole text.
      stopReason = 'small-layer';
      if (layer > 0 || current.length < 2) break;
      clusters = [current.map((_, i) => i)];
    } else {
      const clusterLayer = layer + 1;
      onProgress?.({ stage: 'cluster', layer: clusterLayer, done: 0, total: 1 });
      clusters = await clusterNodesAsync(
        current.map((n) => n.embedding),
        current.map((n) => n.tokens),
        {
          reductionDim: params.reductionDim,
          threshold: params.clusterThreshold,
          maxClusterTokens: params.maxClusterTokens,
          maxClusters: options.maxClusters ?? DEFAULT_MAX_CLUSTERS,
          seed: deriveSeed(params.seed, layer),
          local: options.localMixture,
          pool: options.clusterPool,
          signal,
          onProgress: (detail) =>
            onProgress?.({ stage: 'cluster', layer: clusterLayer, done: 0, total: 1, detail }),
        },
      );
      onProgress?.({ stage: 'cluster', layer: clusterLayer, done: 1, total: 1 });
      if (clusters.length >= current.length) {
        stopReason = 'no-reduction';
        break;
      }
    }
    layer++;
    const parents = current;
    let summarized = 0;
    onProgress?.({ stage: 'summarize', layer, done: 0, total: clusters.length });
    const summaries = await mapWithConcurrency(
      clusters.length,
      concurrency,
      async (c) => {
        const text = await models.summarize(
          clusters[c].map((i) => parents[i].text),
          { maxTokens: params.summaryTokens, signal },
        );
        if (typeof text !== 'string' || !text.trim()) {
          throw new BuildError(
            'EMPTY_SUMMARY',
            `The summariser returned an empty summary for a cluster of ${clusters[c].length} nodes.`,
            {
              layer,
              cluster: c,
            },
          );
        }
        onProgress?.({ stage: 'summarize', layer, done: ++summarized, total: clusters.length });
        return text.trim();
      },
      signal,
    );
    // Embedding starts now: the progress shows it at 0 rather than summarising until its first batch is done.
    onProgress?.({ stage: 'embed-summaries', layer, done: 0, total: summaries.length });
    const summaryTokens = summaries.map((text) => countTokens(text));
    const lengths = await embedLengths(models, summaries, summaryTokens);
    const vectors = await embedAll(models.embed, summaries, lengths, dim, signal, (done) =>
      onProgress?.({ stage: 'embed-summaries', layer, done, total: summaries.length }),
    );
    current = summaries.map((text, c) => {
      const node: TreeNode = {
        id: nodes.length,
        layer,
        text,
        tokens: summaryTokens[c],
        children: clusters[c].map((i) => parents[i].id),
        embedding: vectors[c],
      };
      nodes.push(node);
      return node;
    });
  }
  onProgress?.({ stage: 'done', layers: layer, nodes: nodes.length, stopReason });
  return {
    format: 'raptor-tree',
    version: 1,
    title: options.title ?? docs[0].name,
    createdAt: options.createdAt ?? new Date().toISOString(),
    embedding: { model: options.embeddingModel ?? 'unknown', dim },
    summarizer: options.summarizer ?? { kind: 'llm' },
    params: { ...params },
    documents,
    nodes,
  };
}

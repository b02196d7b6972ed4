/**
 * Builds a RAPTOR tree bottom-up (paper §3): chunk the documents into leaves, embed them, then repeat —
 * cluster the current layer, summarise each cluster, embed the summaries — until the layer is small, stops
 * shrinking, or the layer cap is reached. The models are injected, so the same code runs with real models
 * in a worker and with fakes in tests.
 */
import { throwIfAborted, type AbortSignalLike } from './abort';
import { chunkTextAsync, countTokens, hasVisibleText, type AsyncChunkOptions, type Chunk } from './text';
import {
  clusterNodesAsync,
  DEFAULT_MAX_CLUSTERS,
  type ClusterPool,
  type ClusterProgress,
  type LocalMixtureOptions,
} from './cluster';
import { BuildError, EMBED_BATCH } from './build-shared';
import { computeLabels } from './labels';
import { mapWithConcurrency } from './pool';
import { deriveSeed } from './random';
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
   * Each text's length in the embedding model's own tokens. The build hands the embedder leaves of similar
   * length together, so its batches pad little (`npm run bench build`: 9.0% and 10.7% of the model's work on the
   * two books' leaves is padding in document order, 0.9% and 0.3% longest first). Without it, the leaves'
   * cl100k counts order them, a weaker guess of the model's lengths.
   * Summaries are embedded as they are written instead (see `summarizeAndEmbed`).
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
  /**
   * Chunks one document: `chunkTextAsync` (the default) or anything that returns its chunks, e.g. chunks the
   * caller began while the model loaded (pipeline/early-chunks.ts).
   */
  chunker?: (text: string, options: AsyncChunkOptions) => Promise<Chunk[]>;
}

/** Progress of a build, stage by stage, with counts. */
export type BuildProgress =
  /** Chunking: characters of all documents done, of `total`. */
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

/** Chunking progress is reported each time this share of all documents' characters is done. */
const CHUNK_PROGRESS_STEP = 0.005;

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
 * Embeds `count` texts in calls of EMBED_BATCH, taking them in `order` (always the same calls: the vectors do
 * not depend on timing). A call is sent once `textsOf` has its texts (summaries still being written are waited
 * for), at most EMBED_BATCHES_IN_FLIGHT calls ahead of the one being checked. Checks every vector, reports the
 * texts done after each call, in order, and returns the vectors in text order.
 */
async function embedAll(
  embed: EmbedFn,
  order: readonly number[],
  textsOf: (ids: number[]) => string[] | Promise<string[]>,
  dim: number | undefined,
  signal: AbortSignalLike | undefined,
  onBatch: (done: number) => void,
): Promise<Float32Array[]> {
  const count = order.length;
  const out: Float32Array[] = new Array(count);
  let done = 0;
  const asked: Promise<Float32Array[]>[] = [];
  const ask = (start: number) => {
    throwIfAborted(signal);
    const ids = order.slice(start, start + EMBED_BATCH);
    const call = (async () => {
      const texts = await textsOf(ids);
      throwIfAborted(signal);
      return embed(texts, { signal });
    })();
    // A batch asked for ahead whose predecessor fails is not waited for: its rejection is not an error.
    call.catch(() => undefined);
    asked.push(call);
  };
  for (let i = 0; i < count; i += EMBED_BATCH) {
    while (asked.length * EMBED_BATCH < Math.min(count, i + EMBED_BATCHES_IN_FLIGHT * EMBED_BATCH))
      ask(asked.length * EMBED_BATCH);
    const size = Math.min(EMBED_BATCH, count - i);
    const vectors = await asked[i / EMBED_BATCH];
    if (!Array.isArray(vectors) || vectors.length !== size) {
      throw new BuildError(
        'BAD_EMBEDDING',
        `The embedder returned ${vectors?.length} vectors for ${size} texts.`,
        {
          expected: size,
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

/** A value that settles later, from outside (a summary the embedder waits for). */
function deferred<T>(): { promise: Promise<T>; resolve(value: T): void; reject(error: unknown): void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Waited for only by the embedding calls: a rejection nobody waits for is not an error.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/**
 * Summarises each cluster (`concurrency` at once) and embeds the summaries while the rest are still being
 * written: calls of EMBED_BATCH summaries in cluster order, each sent once its summaries exist, so the embedder
 * works during an LLM's latency instead of after it (the calls, hence the vectors, never depend on timing).
 * Progress reports summarising until every summary exists, then the embedding, counting what is already done.
 * A failure of either stops the other: no LLM call is made after the embedder failed. Exported for its tests.
 */
export async function summarizeAndEmbed(
  models: BuildModels,
  clusterTexts: string[][],
  layer: number,
  dim: number,
  options: { maxTokens: number; concurrency: number; signal?: AbortSignalLike },
  onProgress?: (progress: BuildProgress) => void,
): Promise<{ summaries: string[]; vectors: Float32Array[]; summaryTokens: number[] }> {
  const { signal } = options;
  const total = clusterTexts.length;
  const ready = clusterTexts.map(() => deferred<string>());
  let summarized = 0;
  let writing = true;
  let embedded = 0;
  let stopped: unknown;
  onProgress?.({ stage: 'summarize', layer, done: 0, total });
  const summarizing = mapWithConcurrency(
    total,
    options.concurrency,
    async (c) => {
      if (stopped !== undefined) throw stopped;
      const text = await models.summarize(clusterTexts[c], { maxTokens: options.maxTokens, signal });
      if (typeof text !== 'string' || !hasVisibleText(text)) {
        throw new BuildError(
          'EMPTY_SUMMARY',
          `The summariser returned an empty summary for a cluster of ${clusterTexts[c].length} nodes.`,
          {
            layer,
            cluster: c,
          },
        );
      }
      onProgress?.({ stage: 'summarize', layer, done: ++summarized, total });
      ready[c].resolve(text.trim());
      return text.trim();
    },
    signal,
  ).then(
    (summaries) => {
      writing = false;
      // The embedding shows from here, with what it has done meanwhile.
      onProgress?.({ stage: 'embed-summaries', layer, done: embedded, total });
      return summaries;
    },
    (error: unknown) => {
      stopped ??= error;
      for (const d of ready) d.reject(error);
      throw error;
    },
  );
  const embedding = embedAll(
    models.embed,
    clusterTexts.map((_, c) => c),
    (ids) => Promise.all(ids.map((c) => ready[c].promise)),
    dim,
    signal,
    (done) => {
      embedded = done;
      if (!writing) onProgress?.({ stage: 'embed-summaries', layer, done, total });
    },
  ).catch((error: unknown) => {
    stopped ??= error;
    throw error;
  });
  const [summaries, vectors] = await Promise.all([summarizing, embedding]);
  return { summaries, vectors, summaryTokens: summaries.map((text) => countTokens(text)) };
}

/** `options` with the paper's defaults filled in, checked. */
function resolveParams(options: BuildOptions): { params: BuildParams; concurrency: number } {
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
  return { params, concurrency };
}

/**
 * The leaves: every document chunked to `chunkTokens`, chunks without visible text left out, each leaf's
 * embedding still empty.
 */
async function chunkDocuments(
  docs: readonly NormalizedDocument[],
  chunkTokens: number,
  options: BuildOptions,
  onProgress: ((progress: BuildProgress) => void) | undefined,
): Promise<TreeNode[]> {
  const { signal, chunker = chunkTextAsync } = options;
  const nodes: TreeNode[] = [];
  // Chunking a long text takes a while (a minute for 15 MB of unbroken text): report it in characters, every
  // CHUNK_PROGRESS_STEP of the whole, and let a cancel through.
  const totalChars = docs.reduce((sum, d) => sum + d.text.length, 0);
  const step = Math.max(1, Math.floor(totalChars * CHUNK_PROGRESS_STEP));
  let before = 0;
  let reported = 0;
  onProgress?.({ stage: 'chunk', done: 0, total: totalChars });
  for (const doc of docs) {
    const chunks = await chunker(doc.text, {
      maxTokens: chunkTokens,
      signal,
      onProgress: (done) => {
        if (before + done - reported < step) return;
        reported = before + done;
        onProgress?.({ stage: 'chunk', done: reported, total: totalChars });
      },
    });
    for (const chunk of chunks) {
      // A chunk a reader cannot see (zero-width or format characters only) is neither embedded nor summarised.
      if (!hasVisibleText(chunk.text)) continue;
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
    before += doc.text.length;
    if (reported !== before) onProgress?.({ stage: 'chunk', done: before, total: totalChars });
    reported = before;
  }
  if (nodes.length === 0) {
    throw new BuildError('EMPTY_INPUT', 'The documents contain no visible text to build a tree from.', {
      documents: docs.length,
    });
  }
  return nodes;
}

/** Embeds the leaves in place, longest first (`embeddingOrder`); returns the embedding's dimension. */
async function embedLeaves(
  leaves: TreeNode[],
  models: BuildModels,
  signal: AbortSignalLike | undefined,
  onProgress: ((progress: BuildProgress) => void) | undefined,
): Promise<number> {
  // Embedding starts now (the progress shows it at 0 rather than chunking until the first batch is done).
  onProgress?.({ stage: 'embed-leaves', done: 0, total: leaves.length });
  const leafTexts = leaves.map((n) => n.text);
  const leafLengths = await embedLengths(
    models,
    leafTexts,
    leaves.map((n) => n.tokens),
  );
  const leafVectors = await embedAll(
    models.embed,
    embeddingOrder(leafLengths),
    (ids) => ids.map((i) => leafTexts[i]),
    undefined,
    signal,
    (done) => onProgress?.({ stage: 'embed-leaves', done, total: leaves.length }),
  );
  leafVectors.forEach((v, i) => (leaves[i].embedding = v));
  return leafVectors[0].length;
}

/** What the layer loop reads: the run's parameters and settings, and where it reports. */
interface LayerRun {
  models: BuildModels;
  params: BuildParams;
  concurrency: number;
  options: BuildOptions;
  onProgress?: (progress: BuildProgress) => void;
}

/** The clusters of the next layer up, or none; `stop` says why the build stops (after them, if any). */
interface NextLayer {
  clusters?: number[][];
  stop?: StopReason;
}

/**
 * The clusters of the layer above `current` (layer `layer`), or why no layer is added: too few nodes to
 * cluster (paper's stop rule), or as many clusters as nodes.
 */
async function clustersAbove(current: readonly TreeNode[], layer: number, run: LayerRun): Promise<NextLayer> {
  const { params, options, onProgress } = run;
  if (current.length <= params.reductionDim + 1) {
    // Too few nodes to cluster. A document too short to cluster still gets one root summary over its leaves,
    // so every tree has a top that covers the whole text.
    if (layer > 0 || current.length < 2) return { stop: 'small-layer' };
    return { clusters: [current.map((_, i) => i)], stop: 'small-layer' };
  }
  const clusterLayer = layer + 1;
  onProgress?.({ stage: 'cluster', layer: clusterLayer, done: 0, total: 1 });
  const clusters = await clusterNodesAsync(
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
      signal: options.signal,
      onProgress: (detail) =>
        onProgress?.({ stage: 'cluster', layer: clusterLayer, done: 0, total: 1, detail }),
    },
  );
  onProgress?.({ stage: 'cluster', layer: clusterLayer, done: 1, total: 1 });
  if (clusters.length >= current.length) return { stop: 'no-reduction' };
  return { clusters };
}

/**
 * Adds the summary layers above the leaves to `nodes` (cluster, summarise, embed), until the layer is small,
 * stops shrinking, or `maxLayers` is reached.
 */
async function addSummaryLayers(
  nodes: TreeNode[],
  dim: number,
  run: LayerRun,
): Promise<{ layers: number; stopReason: StopReason }> {
  const { params, concurrency, options } = run;
  let current = nodes.slice();
  let layer = 0;
  let stopReason: StopReason = 'max-layers';
  while (layer < params.maxLayers) {
    const { clusters, stop } = await clustersAbove(current, layer, run);
    if (stop) stopReason = stop;
    if (!clusters) break;
    layer++;
    const { summaries, vectors, summaryTokens } = await summarizeAndEmbed(
      run.models,
      clusters.map((members) => members.map((i) => current[i].text)),
      layer,
      dim,
      { maxTokens: params.summaryTokens, concurrency, signal: options.signal },
      run.onProgress,
    );
    const parents = current;
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
  return { layers: layer, stopReason };
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
  const { params, concurrency } = resolveParams(options);
  throwIfAborted(signal);

  const docs = normalizeInput(input);
  const documents: TreeDocument[] = docs.map((d) => ({ id: d.id, name: d.name, chars: d.text.length }));
  const nodes = await chunkDocuments(docs, params.chunkTokens, options, onProgress);
  const dim = await embedLeaves(nodes, models, signal, onProgress);
  const { layers, stopReason } = await addSummaryLayers(nodes, dim, {
    models,
    params,
    concurrency,
    options,
    onProgress,
  });
  // Topic labels need every layer's nodes (each summary is scored against the others of its layer).
  const labels = computeLabels(nodes);
  for (const node of nodes) if (node.layer > 0) node.label = labels[node.id];
  onProgress?.({ stage: 'done', layers, nodes: nodes.length, stopReason });
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

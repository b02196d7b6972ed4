/**
 * The build pipeline a worker exposes: runs `buildTree` with the models the user chose — SBERT in the
 * embedding worker (reached over a MessagePort) or a remote /v1/embeddings endpoint, and the user's LLM or
 * the extractive summariser — with progress, token usage and cancellation. Clustering and all numeric work
 * run here, off the main thread.
 *
 * Every build is persisted as it goes (src/storage): the tree record first, then each embedding and summary
 * the moment it exists (content-hash cache), then the nodes. Because a build is deterministic for a seed,
 * resuming re-runs it and every finished embedding or LLM call is a cache hit.
 */
import { proxy, wrap, type Remote } from 'comlink';
import { AbortError } from '../core/abort';
import { buildTree } from '../core/build';
import { AerieError } from '../core/errors';
import { createExtractiveSummarizer, EXTRACTIVE_SUMMARIZER } from '../core/extractive';
import type { EmbedFn, SummarizeFn, SummarizerInfo } from '../core/types';
import { createLlmSummarizer, createOpenAiEmbedder, UsageAccumulator } from '../llm';
import type { ModelLoadProgress } from '../models/embedder';
import { splitRows } from '../models/rows';
import type { EmbedApi } from '../models/embed-service';
import {
  cachedEmbedder,
  cachedSummarizer,
  completeTree,
  createTree,
  embeddingCacheKeyFor,
  markBuildStopped,
  openAerieDb,
  recordProgress,
  resumeRequest,
  summaryCacheKeyFor,
  type AerieDb,
  type FileInfo,
} from '../storage';
import { buildLockName } from './locks';
import { embeddingModelId, type BuildRequest, type PipelineProgress } from './types';

/** The build could not start. */
export class PipelineError extends AerieError<'NO_EMBEDDER' | 'BUSY'> {}

/** Progress is written to storage at most this often (the UI gets every event). */
export const PROGRESS_WRITE_INTERVAL_MS = 1000;

export { buildLockName } from './locks';

/** What a finished build reports; the tree itself is in storage. */
export interface BuildOutcome {
  treeId: string;
  nodes: number;
  layers: number;
  /** Embeddings and summaries found in the cache (resume, rebuild) vs computed. */
  cache: { embedHits: number; embedMisses: number; summaryHits: number; summaryMisses: number };
}

/** Embedding service as seen from this worker: a comlink remote, or the service itself in tests. */
type EmbedServiceLike =
  Pick<Remote<EmbedApi>, 'embed' | 'load' | 'cancel'> | Pick<EmbedApi, 'embed' | 'load' | 'cancel'>;

interface LockManagerLike {
  request<T>(
    name: string,
    options: { ifAvailable: boolean },
    callback: (lock: unknown) => Promise<T>,
  ): Promise<T>;
}

/** Dependencies, injectable for tests. */
export interface BuildServiceDeps {
  embedService?: EmbedServiceLike;
  openDb?: () => Promise<AerieDb>;
  /** Web Locks (navigator.locks); absent in Node. */
  locks?: LockManagerLike;
}

/** Makes the service. In a worker, call with no arguments and connect the embedder over a port. */
export function createBuildService(deps: BuildServiceDeps = {}) {
  let embedder = deps.embedService;
  let db: Promise<AerieDb> | undefined;
  const running = new Map<string, AbortController>();
  const locks =
    deps.locks ?? (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks ?? undefined;

  function database(): Promise<AerieDb> {
    if (!db) {
      db = (deps.openDb ?? (() => openAerieDb()))();
      db.catch(() => (db = undefined));
    }
    return db;
  }

  function rawEmbedder(
    request: BuildRequest,
    usage: UsageAccumulator,
    report: (e: PipelineProgress['event']) => void,
  ): EmbedFn {
    const choice = request.embedding;
    if (choice.kind === 'endpoint') return createOpenAiEmbedder(choice.endpoint, { usage });
    const service = embedder;
    if (!service) throw new PipelineError('NO_EMBEDDER', 'The embedding worker is not connected.');
    let loaded: Promise<unknown> | undefined;
    return async (texts, options) => {
      // proxy(): the callback crosses into the embedding worker (a no-op marker when the service is local).
      loaded ??= service.load(
        choice,
        proxy((p: ModelLoadProgress) => report({ stage: 'model-load', ...p })),
      );
      await loaded;
      if (options?.signal?.aborted) throw new AbortError();
      return splitRows(await service.embed(texts, choice, { requestId: request.buildId }));
    };
  }

  function rawSummarizer(
    request: BuildRequest,
    embed: EmbedFn,
    usage: UsageAccumulator,
  ): { fn: SummarizeFn; info: SummarizerInfo } {
    const choice = request.summarizer;
    if (choice.kind === 'extractive')
      return { fn: createExtractiveSummarizer(embed), info: { ...EXTRACTIVE_SUMMARIZER } };
    const summarizer = createLlmSummarizer(choice.endpoint, {
      usage,
      systemPrompt: choice.systemPrompt,
      userTemplate: choice.userTemplate,
    });
    return { fn: summarizer, info: summarizer.info };
  }

  async function run(
    request: BuildRequest,
    onProgress: ((p: PipelineProgress) => void) | undefined,
  ): Promise<BuildOutcome> {
    const treeId = request.buildId;
    const store = await database();
    const controller = running.get(treeId)!;
    const usage = new UsageAccumulator();
    let lastWrite = 0;
    let lastStage = '';
    const report = (event: PipelineProgress['event']) => {
      const progress: PipelineProgress = { event, usage: usage.snapshot(), at: Date.now() };
      onProgress?.(progress);
      // Throttled, except at stage changes, so the library shows where a build stopped.
      if (progress.at - lastWrite >= PROGRESS_WRITE_INTERVAL_MS || event.stage !== lastStage) {
        lastWrite = progress.at;
        lastStage = event.stage;
        void recordProgress(store, treeId, progress).catch(() => undefined);
      }
    };
    const raw = rawEmbedder(request, usage, report);
    const embed = cachedEmbedder(store, raw, embeddingCacheKeyFor(request.embedding), treeId);
    const summarizer = rawSummarizer(request, raw, usage);
    const summarize = cachedSummarizer(
      store,
      summarizer.fn,
      summaryCacheKeyFor(request.summarizer, request.embedding),
      treeId,
    );
    try {
      const { concurrency, ...params } = request.params;
      const tree = await buildTree(
        request.documents,
        { embed, summarize },
        {
          ...params,
          concurrency,
          title: request.title,
          embeddingModel: embeddingModelId(request.embedding),
          summarizer: summarizer.info,
          signal: controller.signal,
        },
        report,
      );
      await completeTree(store, treeId, tree);
      return {
        treeId,
        nodes: tree.nodes.length,
        layers: Math.max(...tree.nodes.map((n) => n.layer)),
        cache: {
          embedHits: embed.stats.hits,
          embedMisses: embed.stats.misses,
          summaryHits: summarize.stats.hits,
          summaryMisses: summarize.stats.misses,
        },
      };
    } catch (error) {
      await summarize.flush().catch(() => undefined);
      await markBuildStopped(store, treeId, error).catch(() => undefined);
      throw error;
    }
  }

  async function guarded(
    treeId: string,
    start: () => Promise<BuildRequest>,
    onProgress: ((p: PipelineProgress) => void) | undefined,
  ): Promise<BuildOutcome> {
    if (running.has(treeId)) throw new PipelineError('BUSY', 'This tree is already being built.', { treeId });
    running.set(treeId, new AbortController());
    try {
      const go = async () => run(await start(), onProgress);
      if (!locks) return await go();
      return await locks.request(buildLockName(treeId), { ifAvailable: true }, async (lock) => {
        if (!lock)
          throw new PipelineError('BUSY', 'This tree is being built in another Aerie tab.', { treeId });
        return go();
      });
    } finally {
      running.delete(treeId);
    }
  }

  const api = {
    /** Uses the embedding service served on `port` (see EmbedApi.connect). */
    connectEmbedder(port: MessagePort): void {
      embedder = wrap<EmbedApi>(port);
    },

    /**
     * Builds and stores a new tree with id `request.buildId`. Rejects with an AbortError after
     * `cancel(id)` (the tree is then `paused`), or with the typed error of what failed (the tree is `failed`
     * and can be resumed once the cause is fixed).
     */
    build(
      request: BuildRequest,
      files?: FileInfo[],
      onProgress?: (p: PipelineProgress) => void,
    ): Promise<BuildOutcome> {
      return guarded(
        request.buildId,
        async () => {
          await createTree(await database(), request, { files });
          return request;
        },
        onProgress,
      );
    },

    /** Resumes a stopped build from its stored request; finished embeddings and summaries are not redone. */
    resume(treeId: string, onProgress?: (p: PipelineProgress) => void): Promise<BuildOutcome> {
      return guarded(treeId, async () => resumeRequest(await database(), treeId), onProgress);
    },

    /** Cancels a running build (no-op when it is not running). */
    cancel(treeId: string): void {
      const controller = running.get(treeId);
      if (!controller) return;
      controller.abort(new AbortError('The build was cancelled.'));
      void embedder?.cancel(treeId);
    },
  };
  return api;
}

/** The API type, derived from the implementation. */
export type BuildApi = ReturnType<typeof createBuildService>;

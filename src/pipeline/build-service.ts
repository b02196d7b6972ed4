/**
 * The build pipeline a worker exposes: runs `buildTree` with the models the user chose — SBERT in the
 * embedding worker (reached over a MessagePort) or a remote /v1/embeddings endpoint, and the user's LLM or
 * the extractive summariser — with progress, token usage and cancellation. Clustering and all numeric work
 * run here, off the main thread.
 *
 * Every build is persisted as it goes (src/storage): the tree record first (the page records it before it
 * asks for the build; `build` records it only when that was not done), then where it is (each stage is recorded
 * before it starts), each embedding and summary the moment it exists (content-hash cache), then the nodes.
 * Loading the embedding model is the build's first stage, so a reload while a model downloads leaves a
 * resumable build. Because a build is deterministic for a seed, resuming re-runs it and every finished
 * embedding or LLM call is a cache hit.
 */
import { wrap } from 'comlink';
import { AbortError } from '../core/abort';
import { buildTree } from '../core/build';
import type { ClosableClusterPool } from '../core/cluster';
import { DEFAULT_BUILD_PARAMS, type RaptorTree } from '../core/types';
import { UsageAccumulator } from '../llm';
import type { EmbedApi } from '../models/embed';
import type { GenerateApi } from '../models/generate';
import {
  completeTree,
  createTree,
  deleteTree,
  getTree,
  markBuildStopped,
  openAerieDb,
  recordSummarizerFallback,
  resumeRequest,
  StorageError,
  type AerieDb,
  type FileInfo,
} from '../storage';
import { cachedEmbedder, cachedSummarizer, embeddingCacheKeyFor, summaryCacheKeyFor } from './cached-results';
import { forgetSentenceCounts } from '../core/text';
import { startChunking } from './early-chunks';
import {
  builtinConcurrency,
  prepareBuiltin,
  type BuiltinSummaries,
  type GenerateServiceLike,
} from './builtin-summaries';
import { asStopMessage, openBuildChannel, type ChannelLike, type StopReason } from './build-stop';
import { buildLockName } from './locks';
import {
  embeddingModelId,
  type BuildRequest,
  type PipelineProgress,
  type SummaryCutNotice,
} from '../protocol/build';
import { DeviceTally } from './device-tally';
import { createBuildReporter } from './build-progress';
import {
  loadEmbeddingModel,
  PipelineError,
  rawEmbedder,
  rawSummarizer,
  type EmbedServiceLike,
} from './build-models';

export { PipelineError } from './build-models';

export { PROGRESS_WRITE_INTERVAL_MS } from './build-progress';

export { buildLockName } from './locks';

/** The error of a build whose tree was deleted before it began. */
function treeGone(treeId: string): StorageError {
  return new StorageError('NOT_FOUND', 'This tree was deleted, so its build did not start.', { treeId });
}

/** Leaves of a tree (its nodes of layer 0). */
function leafCount(tree: RaptorTree): number {
  return tree.nodes.filter((n) => n.layer === 0).length;
}

/** What a finished build reports; the tree itself is in storage. */
export interface BuildOutcome {
  treeId: string;
  nodes: number;
  layers: number;
  /** Embeddings and summaries found in the cache (resume, rebuild) vs computed. */
  cache: { embedHits: number; embedMisses: number; summaryHits: number; summaryMisses: number };
}

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
  /** The built-in language model's service (the generate worker over a port, or the service in tests). */
  generateService?: GenerateServiceLike;
  openDb?: () => Promise<AerieDb>;
  /** Web Locks (navigator.locks); absent in Node. */
  locks?: LockManagerLike;
  /**
   * Makes the pool each build runs its local clusterings in (closed when the build ends). Default: none, the
   * clusterings run one after another in this worker.
   */
  clusterPool?: () => ClosableClusterPool;
  /**
   * Where "stop" messages arrive from any page of the origin (a tree deleted in another tab). Default the
   * BroadcastChannel of build-stop.ts (none in Node); null for none.
   */
  channel?: ChannelLike | null;
}

/** Why a build was cancelled, as its AbortError says. */
const CANCEL_MESSAGES: Record<StopReason | 'cancel', string> = {
  cancel: 'The build was cancelled.',
  deleted: 'The tree was deleted, so its build stopped.',
};

/** True when `error` says the tree `treeId` is gone (deleted while its build ran or before it started). */
function isTreeGone(error: unknown, treeId: string): boolean {
  const e = error as { code?: unknown; details?: { treeId?: unknown } } | null;
  return e?.code === 'NOT_FOUND' && e.details?.treeId === treeId;
}

/**
 * Makes the service. In a worker, call with no arguments and connect the embedder over a port.
 *
 * Long by design: the body is the service's closure (its state, a few short helpers, and the API object that
 * comlink exposes as a plain object, whose type the page derives with `ReturnType`); the longest, `run`, is 130 lines.
 */
// eslint-disable-next-line max-lines-per-function -- the service's closure: its state, short helpers and the API object comlink exposes (the page derives its type); each method is short
export function createBuildService(deps: BuildServiceDeps = {}) {
  let embedder = deps.embedService;
  let generator = deps.generateService;
  let db: Promise<AerieDb> | undefined;
  const running = new Map<string, AbortController>();
  const locks =
    deps.locks ?? (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks ?? undefined;
  const channel = deps.channel === undefined ? openBuildChannel() : (deps.channel ?? undefined);
  if (channel) {
    // A tree deleted anywhere (this tab or another) stops its build here at once.
    channel.onmessage = (event) => {
      const stop = asStopMessage(event.data);
      if (stop) api.cancel(stop.treeId, stop.reason);
    };
  }

  function database(): Promise<AerieDb> {
    if (!db) {
      db = (deps.openDb ?? (() => openAerieDb()))();
      db.catch(() => (db = undefined));
    }
    return db;
  }

  function embedService(): EmbedServiceLike {
    if (!embedder) throw new PipelineError('NO_EMBEDDER', 'The embedding worker is not connected.');
    return embedder;
  }

  function generateService(): GenerateServiceLike {
    if (!generator) throw new PipelineError('NO_GENERATOR', 'The built-in model’s worker is not connected.');
    return generator;
  }

  async function run(
    requested: BuildRequest,
    onProgress: ((p: PipelineProgress) => void) | undefined,
  ): Promise<BuildOutcome> {
    const treeId = requested.buildId;
    const store = await database();
    const controller = running.get(treeId)!;
    const usage = new UsageAccumulator();
    let builtin: BuiltinSummaries | undefined;
    // Where models ran: a resumed build goes on from what its earlier runs reported.
    const devices = new DeviceTally((await getTree(store, treeId))?.progress?.devices);
    const reporter = createBuildReporter({
      store,
      treeId,
      usage,
      devices,
      onProgress,
      builtin: () => builtin,
      params: requested.params,
      documents: requested.documents,
    });
    const { report, enter } = reporter;

    let embed: ReturnType<typeof cachedEmbedder> | undefined;
    let summarize: ReturnType<typeof cachedSummarizer> | undefined;
    let ended = false;
    const clusterPool = deps.clusterPool?.();
    try {
      devices.onFallback = (notice) => report(notice);
      // Chunked while the model loads (in the embedding workers); stopped when the build ends or is cancelled.
      const chunker = startChunking(
        requested.documents.map((d) => d.text),
        requested.params.chunkTokens ?? DEFAULT_BUILD_PARAMS.chunkTokens,
        {
          get aborted() {
            return ended || controller.signal.aborted;
          },
        },
      );
      await enter({ stage: 'model-load', file: '', loaded: 0, total: 0, status: 'initiate' });
      let request = await loadEmbeddingModel(embedService, requested, store, report, devices);
      if (controller.signal.aborted) throw new AbortError('The build was cancelled.');
      if (request.summarizer.kind === 'builtin') {
        await enter({ stage: 'llm-load', file: '', loaded: 0, total: 0, status: 'initiate' });
        const prepared = await prepareBuiltin(generateService(), request.summarizer, request.documents, {
          signal: controller.signal,
          report,
          usage,
          requestId: treeId,
          onReply: (reply) => devices.add('summaries', reply.ranOn),
        });
        if (prepared.kind === 'fallback') {
          await recordSummarizerFallback(store, treeId, prepared.from);
          report({
            stage: 'summarizer-fallback',
            from: prepared.from,
            to: 'extractive',
            reason: prepared.reason,
          });
          request = { ...request, summarizer: { kind: 'extractive' } };
        } else {
          builtin = prepared;
          const { placement, fallback } = prepared.info;
          devices.add('summaries', [{ placement, count: 0, fallback }]);
        }
      }
      if (controller.signal.aborted) throw new AbortError('The build was cancelled.');
      const raw = rawEmbedder(embedService, request, usage, devices);
      embed = cachedEmbedder(store, raw.nodes, embeddingCacheKeyFor(request.embedding), treeId);
      const summarizer = rawSummarizer(request, raw, usage, builtin);
      const budget = request.params.summaryTokens ?? DEFAULT_BUILD_PARAMS.summaryTokens;
      const cutNotice = (cut: number): SummaryCutNotice => {
        const notice: SummaryCutNotice = {
          cut,
          of: summarize ? summarize.stats.hits + summarize.stats.misses : cut,
          budget,
          model: summarizer.info.model ?? 'the model',
        };
        if (summarizer.endpoint) notice.endpoint = summarizer.endpoint;
        return notice;
      };
      summarize = cachedSummarizer(
        store,
        summarizer.fn,
        summaryCacheKeyFor(request.summarizer, request.embedding, builtin?.info.tag),
        treeId,
        { isCut: summarizer.isCut, onCut: (cut) => report({ stage: 'summary-cut', ...cutNotice(cut) }) },
      );
      await enter({
        stage: 'chunk',
        done: 0,
        total: request.documents.reduce((sum, d) => sum + d.text.length, 0),
      });
      const { concurrency, ...params } = request.params;
      const tree = await buildTree(
        request.documents,
        { embed, summarize, embedLengths: raw.lengths },
        {
          ...params,
          concurrency: builtin ? builtinConcurrency(builtin.batchRows, concurrency) : concurrency,
          title: request.title,
          embeddingModel: embeddingModelId(request.embedding),
          summarizer: summarizer.info,
          signal: controller.signal,
          clusterPool,
          chunker,
        },
        report,
      );
      await reporter.settled();
      const cuts = summarize.stats.cut;
      await completeTree(store, treeId, tree, {
        summaryCuts: cuts > 0 ? { ...cutNotice(cuts), of: tree.nodes.length - leafCount(tree) } : undefined,
        ...(devices.empty ? {} : { devices: devices.snapshot() }),
      });
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
      await summarize?.flush().catch(() => undefined);
      await embed?.flush().catch(() => undefined);
      await reporter.settled();
      if (isTreeGone(error, treeId)) {
        // Deleted under a build that did not hold its lock (a page without Web Locks, an older Aerie): sweep
        // what this build wrote since, so nothing of the tree is left behind.
        await deleteTree(store, treeId).catch(() => undefined);
      } else {
        await markBuildStopped(store, treeId, error).catch(() => undefined);
      }
      throw error;
    } finally {
      ended = true;
      forgetSentenceCounts();
      // The embedding workers forget the texts they tokenised, unless another build here still embeds; not
      // awaited (the build's outcome does not wait on another worker).
      if (running.size <= 1) void embedder?.forget?.()?.catch(() => undefined);
      clusterPool?.close();
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

    /** Uses the built-in model's service served on `port` (see GenerateApi.connect). */
    connectGenerator(port: MessagePort): void {
      generator = wrap<GenerateApi>(port);
    },

    /** True once a generate service is connected (the page connects one before a built-in model's build). */
    hasGenerator(): boolean {
      return generator !== undefined;
    },

    /**
     * Builds and stores the tree with id `request.buildId`. The page records the build first (`createTree`), so
     * nothing is lost if the tab closes before this worker starts, and says so (`options.recorded`): the tree
     * missing then means it was deleted, and the build fails with NOT_FOUND instead of recording it again. A
     * recorded request may leave `documents` empty: the texts are then read from storage (the page sends them
     * there, not here too). A request not recorded yet (no `recorded`) is recorded here.
     * Rejects with an AbortError after `cancel(id)` (the tree is then `paused`), or with the typed error of
     * what failed (the tree is `failed` and can be resumed once the cause is fixed).
     */
    build(
      request: BuildRequest,
      files?: FileInfo[],
      onProgress?: (p: PipelineProgress) => void,
      options: { recorded?: boolean } = {},
    ): Promise<BuildOutcome> {
      return guarded(
        request.buildId,
        async () => {
          const store = await database();
          if (await getTree(store, request.buildId)) {
            if (!options.recorded || request.documents.length > 0) return request;
            // Recorded by the page, texts left out of the message: they cross the page once, into storage.
            const { documents } = await resumeRequest(store, request.buildId);
            return { ...request, documents };
          }
          // The page recorded it: gone now means deleted before the build began, never to be recorded again.
          if (options.recorded) throw treeGone(request.buildId);
          await createTree(store, request, { files });
          return request;
        },
        onProgress,
      );
    },

    /** Resumes a stopped build from its stored request; finished embeddings and summaries are not redone. */
    resume(treeId: string, onProgress?: (p: PipelineProgress) => void): Promise<BuildOutcome> {
      return guarded(treeId, async () => resumeRequest(await database(), treeId), onProgress);
    },

    /**
     * Cancels a running build (no-op when it is not running); `reason` 'deleted' when its tree is being deleted
     * (the build's AbortError says so).
     */
    cancel(treeId: string, reason: StopReason | 'cancel' = 'cancel'): void {
      const controller = running.get(treeId);
      if (!controller || controller.signal.aborted) return;
      controller.abort(new AbortError(CANCEL_MESSAGES[reason]));
      void embedder?.cancel(treeId);
      void generator?.cancel(treeId);
    },
  };
  return api;
}

/** The API type, derived from the implementation. */
export type BuildApi = ReturnType<typeof createBuildService>;

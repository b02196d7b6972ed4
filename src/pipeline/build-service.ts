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
import { proxy, wrap, type Remote } from 'comlink';
import { AbortError } from '../core/abort';
import { buildTree } from '../core/build';
import type { ClosableClusterPool } from '../core/cluster';
import { AerieError } from '../core/errors';
import { createExtractiveSummarizer, EXTRACTIVE_SUMMARIZER } from '../core/extractive';
import { createSentenceMemory, type SentenceVectorSource } from '../core/sentence-vectors';
import {
  DEFAULT_BUILD_PARAMS,
  type EmbedFn,
  type RaptorTree,
  type SummarizeFn,
  type SummarizerInfo,
} from '../core/types';
import { createLlmSummarizer, createOpenAiEmbedder, UsageAccumulator } from '../llm';
import type { ModelLoadProgress } from '../models/embedder';
import { OFFLINE_MODEL_ID } from '../models/embedding-presets';
import { splitRows, splitSentenceRows } from '../models/rows';
import type { EmbedApi } from '../models/embed-service';
import type { GenerateApi } from '../models/generate-service';
import {
  cachedEmbedder,
  cachedSummarizer,
  completeTree,
  createTree,
  deleteTree,
  embeddingCacheKeyFor,
  getTree,
  markBuildStopped,
  openAerieDb,
  recordModelFallback,
  recordProgress,
  recordEmbeddingDtype,
  recordSummarizerFallback,
  resumeRequest,
  StorageError,
  summaryCacheKeyFor,
  type AerieDb,
  type FileInfo,
} from '../storage';
import {
  builtinConcurrency,
  estimateSummaries,
  prepareBuiltin,
  type BuiltinSummaries,
  type GenerateServiceLike,
} from './builtin-summaries';
import { asStopMessage, openBuildChannel, type ChannelLike, type StopReason } from './build-stop';
import { buildLockName } from './locks';
import {
  embeddingModelId,
  isNotice,
  type BuildRequest,
  type EmbeddingChoice,
  type PipelineEvent,
  type PipelineProgress,
  type SummaryCutNotice,
} from './types';
import { DeviceTally } from './device-tally';

/** The build could not start. */
export class PipelineError extends AerieError<'NO_EMBEDDER' | 'NO_GENERATOR' | 'BUSY'> {}

/** Progress is written to storage at most this often (the UI gets every event). */
export const PROGRESS_WRITE_INTERVAL_MS = 1000;

export { buildLockName } from './locks';

/** The origin of an endpoint's base URL (no path, credentials or query), for messages. */
function endpointOrigin(baseUrl: string): string | undefined {
  try {
    return new URL(baseUrl).origin;
  } catch {
    return undefined;
  }
}

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

/** Embedding service as seen from this worker: a comlink remote, or the service itself in tests. */
type EmbedServiceLike =
  | Pick<Remote<EmbedApi>, 'embed' | 'load' | 'cancel' | 'lengths'>
  | Pick<EmbedApi, 'embed' | 'load' | 'cancel' | 'lengths'>;

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

/** Makes the service. In a worker, call with no arguments and connect the embedder over a port. */
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

  /**
   * Loads the browser model the request names (the build's first stage). When the model hub cannot be reached
   * for a hub model, the build falls back to the built-in offline model, records that in the tree (model and
   * stored request, so a resume keeps it) and says so with a `model-fallback` event.
   * @returns the request the build runs with.
   */
  async function loadModel(
    request: BuildRequest,
    store: AerieDb,
    report: (e: PipelineEvent) => void,
    devices: DeviceTally,
  ): Promise<BuildRequest> {
    const choice = request.embedding;
    if (choice.kind !== 'browser') return request;
    const service = embedService();
    // proxy(): the callback crosses into the embedding worker (a no-op marker when the service is local).
    const onFile = proxy((p: ModelLoadProgress) => report({ stage: 'model-load', ...p }));
    try {
      // The helpers join the leaves' embedding when they have loaded: the build need not wait for them.
      const info = await service.load(choice, onFile, { helpers: 'background' });
      devices.add('embedding', [{ placement: info.placement, count: 0, fallback: info.fallback }]);
      if (choice.dtype === info.dtype) return request;
      // 'auto' (or no) precision settled on this device: the build, its cache keys, the tree and a resume use it.
      await recordEmbeddingDtype(store, request.buildId, info.dtype);
      return { ...request, embedding: { ...choice, dtype: info.dtype } };
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      if (code !== 'HUB_UNREACHABLE' || choice.model === OFFLINE_MODEL_ID) throw error;
      const offline: EmbeddingChoice & { kind: 'browser' } = {
        ...choice,
        model: OFFLINE_MODEL_ID,
        dtype: 'q8',
      };
      await recordModelFallback(store, request.buildId, { from: choice.model, to: offline });
      report({ stage: 'model-fallback', from: choice.model, to: OFFLINE_MODEL_ID });
      const info = await service.load(offline, onFile, { helpers: 'background' });
      devices.add('embedding', [{ placement: info.placement, count: 0, fallback: info.fallback }]);
      return { ...request, embedding: offline };
    }
  }

  function generateService(): GenerateServiceLike {
    if (!generator) throw new PipelineError('NO_GENERATOR', 'The built-in model’s worker is not connected.');
    return generator;
  }

  /**
   * The build's embedder. `plain` embeds texts as they are; `nodes` embeds the tree's nodes and, when the
   * summaries are extractive and the model runs here, keeps each node's sentence vectors from the same pass
   * (`sentences`), which the summariser ranks instead of embedding every sentence again. `lengths` counts a
   * model's own tokens (a model that runs here), so texts of similar length are embedded together.
   */
  function rawEmbedder(
    request: BuildRequest,
    usage: UsageAccumulator,
    devices: DeviceTally,
  ): {
    plain: EmbedFn;
    nodes: EmbedFn;
    sentences?: SentenceVectorSource;
    lengths?: (texts: string[]) => Promise<number[]>;
  } {
    const choice = request.embedding;
    if (choice.kind === 'endpoint') {
      const embed = createOpenAiEmbedder(choice.endpoint, { usage });
      return { plain: embed, nodes: embed };
    }
    const service = embedService();
    const plain: EmbedFn = async (texts, options) => {
      if (options?.signal?.aborted) throw new AbortError();
      const batch = await service.embed(texts, choice, { requestId: request.buildId });
      devices.add('embedding', batch.ranOn);
      return splitRows(batch);
    };
    const lengths = (texts: string[]) => service.lengths(texts, choice);
    if (request.summarizer.kind !== 'extractive') return { plain, nodes: plain, lengths };
    const memory = createSentenceMemory(async (texts, options) => {
      if (options?.signal?.aborted) throw new AbortError();
      const batch = await service.embed(texts, choice, { requestId: request.buildId, sentences: true });
      devices.add('embedding', batch.ranOn);
      return {
        vectors: splitRows(batch),
        sentences: batch.sentences ? splitSentenceRows(batch.sentences) : texts.map(() => undefined),
      };
    });
    return { plain, nodes: memory.embed, sentences: memory.source, lengths };
  }

  function rawSummarizer(
    request: BuildRequest,
    embedder: ReturnType<typeof rawEmbedder>,
    usage: UsageAccumulator,
    builtin: BuiltinSummaries | undefined,
  ): {
    fn: SummarizeFn;
    info: SummarizerInfo;
    /** Whether a summary was cut to its budget (a model's summaries; the extractive ones fit by construction). */
    isCut?: (summary: string) => boolean;
    /** The endpoint's origin, for messages about its summaries. */
    endpoint?: string;
  } {
    const choice = request.summarizer;
    if (choice.kind === 'extractive') {
      const fn = createExtractiveSummarizer(embedder.plain, embedder.sentences);
      return { fn, info: { ...EXTRACTIVE_SUMMARIZER } };
    }
    if (choice.kind === 'builtin') {
      if (!builtin) throw new PipelineError('NO_GENERATOR', 'The built-in model was not loaded.');
      const fn = builtin.summarizer;
      return { fn, info: fn.info, isCut: fn.isCut };
    }
    const summarizer = createLlmSummarizer(choice.endpoint, {
      usage,
      systemPrompt: choice.systemPrompt,
      userTemplate: choice.userTemplate,
    });
    return {
      fn: summarizer,
      info: summarizer.info,
      isCut: summarizer.isCut,
      endpoint: endpointOrigin(choice.endpoint.baseUrl),
    };
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
    let lastWrite = 0;
    let lastStage = '';
    let recorded: Promise<void> = Promise.resolve();
    const snapshot = (event: PipelineEvent): PipelineProgress => {
      const progress: PipelineProgress = { event, usage: usage.snapshot(), at: Date.now() };
      if (builtin && builtin.meter.completionTokens > 0) progress.generation = builtin.meter.speed;
      if (!devices.empty) progress.devices = devices.snapshot();
      return progress;
    };
    /** Records where the build is; the page hears `recorded` once storage has it (the library reads it). */
    const record = (progress: PipelineProgress): Promise<void> => {
      lastWrite = progress.at;
      lastStage = progress.event.stage;
      recorded = recordProgress(store, treeId, progress).then(
        () => onProgress?.({ ...progress, recorded: true }),
        () => undefined,
      );
      return recorded;
    };
    let estimated = false;
    const report = (event: PipelineEvent) => {
      // Once the leaves are counted, and before any summary, the expected time of the built-in model's work.
      if (event.stage === 'embed-leaves' && !estimated && builtin?.sample) {
        estimated = true;
        const { summaryTokens, reductionDim, maxLayers } = requested.params;
        report({
          stage: 'llm-estimate',
          ...estimateSummaries(builtin.info.tag, builtin.sample, event.total, requested.documents, {
            summaryTokens,
            reductionDim,
            maxLayers,
          }),
        });
      }
      const progress = snapshot(event);
      onProgress?.(progress);
      if (isNotice(event)) return;
      // Throttled, except at stage changes, so the library shows where a build stopped.
      if (progress.at - lastWrite >= PROGRESS_WRITE_INTERVAL_MS || event.stage !== lastStage)
        void record(progress);
    };
    /** A stage that holds the worker (model loading, chunking) is recorded before it starts, then shown. */
    const enter = async (event: PipelineEvent) => {
      const progress = snapshot(event);
      await record(progress);
      onProgress?.(progress);
    };

    let embed: ReturnType<typeof cachedEmbedder> | undefined;
    let summarize: ReturnType<typeof cachedSummarizer> | undefined;
    const clusterPool = deps.clusterPool?.();
    try {
      devices.onFallback = (notice) => report(notice);
      await enter({ stage: 'model-load', file: '', loaded: 0, total: 0, status: 'initiate' });
      let request = await loadModel(requested, store, report, devices);
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
      const raw = rawEmbedder(request, usage, devices);
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
        },
        report,
      );
      await recorded;
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
      await recorded;
      if (isTreeGone(error, treeId)) {
        // Deleted under a build that did not hold its lock (a page without Web Locks, an older Aerie): sweep
        // what this build wrote since, so nothing of the tree is left behind.
        await deleteTree(store, treeId).catch(() => undefined);
      } else {
        await markBuildStopped(store, treeId, error).catch(() => undefined);
      }
      throw error;
    } finally {
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
     * request not recorded yet (no `recorded`) is recorded here.
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
          if (await getTree(store, request.buildId)) return request;
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

/**
 * The models of one build, as the build service runs them: the embedding model loaded (with its fallback to the
 * offline model when the hub cannot be reached), the embedder (the embed worker's service or an endpoint, with
 * the sentence vectors an extractive summariser reuses) and the summariser (extractive, an endpoint, or the
 * built-in model). Each takes the embed service by a getter, which throws NO_EMBEDDER when none is connected.
 */
import { proxy, type Remote } from 'comlink';
import { AbortError } from '../core/abort';
import { AerieError } from '../core/errors';
import { createExtractiveSummarizer, EXTRACTIVE_SUMMARIZER } from '../core/extractive';
import { createSentenceMemory, type SentenceVectorSource } from '../core/sentence-vectors';
import type { EmbedFn, SummarizeFn, SummarizerInfo } from '../core/types';
import { createLlmSummarizer, createOpenAiEmbedder, type UsageAccumulator } from '../llm';
import type { ModelLoadProgress } from '../models/files';
import type { EmbedApi } from '../models/embed';
import { OFFLINE_MODEL_ID } from '../models/embed/embedding-presets';
import { splitRows, splitSentenceRows } from '../models/embed/rows';
import type { BuildRequest, EmbeddingChoice, PipelineEvent } from '../protocol/build';
import { recordEmbeddingDtype, recordModelFallback, type AerieDb } from '../storage';
import type { BuiltinSummaries } from './builtin-summaries';
import type { DeviceTally } from './device-tally';

/** The build could not start. */
export class PipelineError extends AerieError<'NO_EMBEDDER' | 'NO_GENERATOR' | 'BUSY'> {}

/** Embedding service as seen from this worker: a comlink remote, or the service itself in tests. */
export type EmbedServiceLike =
  | (Pick<Remote<EmbedApi>, EmbedCalls> & Partial<Pick<Remote<EmbedApi>, 'forget'>>)
  | (Pick<EmbedApi, EmbedCalls> & Partial<Pick<EmbedApi, 'forget'>>);
/** What a build calls on the embedding service (`forget`, when it has one, as the build ends). */
type EmbedCalls = 'embed' | 'load' | 'cancel' | 'lengths';

/** The origin of an endpoint's base URL (no path, credentials or query), for messages. */
function endpointOrigin(baseUrl: string): string | undefined {
  try {
    return new URL(baseUrl).origin;
  } catch {
    return undefined;
  }
}

/**
 * Loads the browser model the request names (the build's first stage). When the model hub cannot be reached
 * for a hub model, the build falls back to the built-in offline model, records that in the tree (model and
 * stored request, so a resume keeps it) and says so with a `model-fallback` event.
 * @returns the request the build runs with.
 */
export async function loadEmbeddingModel(
  embedService: () => EmbedServiceLike,
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

/**
 * The build's embedder. `plain` embeds texts as they are; `nodes` embeds the tree's nodes and, when the
 * summaries are extractive and the model runs here, keeps each node's sentence vectors from the same pass
 * (`sentences`), which the summariser ranks instead of embedding every sentence again. `lengths` counts a
 * model's own tokens (a model that runs here), so texts of similar length are embedded together.
 */
export function rawEmbedder(
  embedService: () => EmbedServiceLike,
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

export function rawSummarizer(
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

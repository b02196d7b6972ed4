/**
 * The built-in model's part of a build: load it in the generate worker (download progress as the `llm-load`
 * stage), measure this device with a short warm-up, plan the summaries once the leaves are known and say how
 * long they should take (`llm-estimate`), and count tokens/s over the summaries it writes. When the model hub
 * cannot be reached the build goes on with the extractive summariser, as it does for embeddings.
 */
import type { Remote } from 'comlink';
import { onAbort, type AbortSignalLike } from '../core/abort';
import { countTokens, truncateToTokens } from '../core/text';
import type { BuildParams } from '../core/types';
import { createBuiltinSummarizer } from '../llm';
import type { GeneratedReply } from '../models/generate';
import type { LlmSummarizer, UsageAccumulator } from '../llm';
import type { ModelLoadProgress } from '../models/files';
import { connectGenerator } from '../models/generate/generate-client';
import type { GenerateApi, GeneratorInfo } from '../models/generate';
import { estimateSummarySeconds, planSummaryRange, SpeedMeter } from '../models/generate/generation-speed';
import type { GenerationSpeed, SpeedSample } from '../models/generate';
import type { BuiltinModelChoice, PipelineEvent, SummarizerChoice, SummaryEstimate } from '../protocol/build';

/** The generate service as the build worker sees it: a comlink remote, or the service itself in tests. */
export type GenerateServiceLike =
  | Pick<Remote<GenerateApi>, 'load' | 'generate' | 'cancel' | 'measureSpeed'>
  | Pick<GenerateApi, 'load' | 'generate' | 'cancel' | 'measureSpeed'>;

/** cl100k tokens of document text the warm-up summarises: about one cluster's worth (six 100-token leaves). */
export const WARMUP_SAMPLE_TOKENS = 600;

/** The built-in model, loaded and measured, ready to summarise a build. */
export interface BuiltinSummaries {
  kind: 'ready';
  summarizer: LlmSummarizer;
  info: GeneratorInfo;
  /** Tokens/s over the summaries written so far. */
  meter: SpeedMeter;
  /** The warm-up's measurement (undefined when it could not run, e.g. an empty document). */
  sample?: SpeedSample;
  /** Summaries the model writes together (the warm-up's finding; the load's batch size without one). */
  batchRows: number;
}

/** The model could not be loaded because the hub was unreachable: summaries are extractive instead. */
export interface BuiltinFallback {
  kind: 'fallback';
  from: string;
  /** The load error's sentence. */
  reason: string;
}

/** What `prepareBuiltin` needs from the build. */
export interface PrepareOptions {
  signal: AbortSignalLike;
  /** Download progress goes here as `llm-load` events. */
  report: (event: PipelineEvent) => void;
  usage: UsageAccumulator;
  /** Cancels the warm-up with the build (`cancel(requestId)`). */
  requestId: string;
  /** Sees every summary's reply (where its tokens were written). */
  onReply?: (reply: GeneratedReply) => void;
}

function choiceOf(summarizer: SummarizerChoice & { kind: 'builtin' }): BuiltinModelChoice {
  return { ...summarizer.generator };
}

/**
 * Loads the built-in model and measures it on the documents' first WARMUP_SAMPLE_TOKENS tokens.
 * @returns the summariser, or a fallback when the model hub could not be reached.
 * @throws GeneratorError for every other load failure (no such model, out of memory, …), AbortError.
 */
export async function prepareBuiltin(
  service: GenerateServiceLike,
  choice: SummarizerChoice & { kind: 'builtin' },
  documents: readonly { text: string }[],
  options: PrepareOptions,
): Promise<BuiltinSummaries | BuiltinFallback> {
  const wanted = choiceOf(choice);
  const onFile = (p: ModelLoadProgress) => options.report({ stage: 'llm-load', ...p });
  let generator: Awaited<ReturnType<typeof connectGenerator>>;
  try {
    generator = await connectGenerator(service, wanted, onFile, { signal: options.signal });
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code !== 'HUB_UNREACHABLE') throw error;
    return { kind: 'fallback', from: wanted.model, reason: (error as Error).message };
  }
  const meter = new SpeedMeter();
  const summarizer = createBuiltinSummarizer(generator, {
    usage: options.usage,
    systemPrompt: choice.systemPrompt,
    userTemplate: choice.userTemplate,
    onReply: (reply) => {
      meter.add(reply);
      options.onReply?.(reply);
    },
  });
  const sampleText = truncateToTokens(documents.map((d) => d.text).join('\n\n'), WARMUP_SAMPLE_TOKENS);
  let sample: SpeedSample | undefined;
  if (sampleText.trim()) {
    const settled = {
      model: generator.info.model,
      device: generator.info.device,
      dtype: generator.info.dtype,
    };
    const stop = onAbort(options.signal, () => void service.cancel(options.requestId));
    try {
      sample = await service.measureSpeed(settled, { sampleText, requestId: options.requestId });
    } finally {
      stop();
    }
  }
  return {
    kind: 'ready',
    summarizer,
    info: generator.info,
    meter,
    sample,
    batchRows: sample?.batch.rows ?? generator.info.batchSize,
  };
}

/**
 * The expected time of the summaries of a build of `leaves` leaves over `documents`, at the warm-up's rates:
 * the fewest, likely and most summaries its clustering may ask for (`planSummaryRange`).
 */
export function estimateSummaries(
  tag: string,
  sample: SpeedSample,
  leaves: number,
  documents: readonly { text: string }[],
  params: Partial<Pick<BuildParams, 'reductionDim' | 'maxLayers' | 'summaryTokens'>>,
): SummaryEstimate {
  const leafTokens = documents.reduce((sum, d) => sum + countTokens(d.text), 0);
  const range = planSummaryRange(leaves, leafTokens, params);
  const speed: GenerationSpeed = {
    prefillTokensPerSecond: sample.prefillTokensPerSecond,
    decodeTokensPerSecond: sample.batch.decodeTokensPerSecond,
  };
  return {
    model: tag,
    summaries: {
      fewest: range.fewest.summaries,
      likely: range.likely.summaries,
      most: range.most.summaries,
    },
    seconds: {
      fewest: estimateSummarySeconds(range.fewest, sample),
      likely: estimateSummarySeconds(range.likely, sample),
      most: estimateSummarySeconds(range.most, sample),
    },
    speed,
    batchRows: sample.batch.rows,
    placement: sample.placement,
  };
}

/**
 * Summaries a build asks for at once with the built-in model: twice its batch, so a free row always finds a
 * summary waiting (one at a time, the build's own `concurrency`).
 */
export function builtinConcurrency(batchRows: number, concurrency: number | undefined): number | undefined {
  return batchRows > 1 ? Math.max(concurrency ?? 0, 2 * batchRows) : concurrency;
}

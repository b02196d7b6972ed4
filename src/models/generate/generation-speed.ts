/**
 * What the built-in model's work costs: its measured speed (prompt processing and generation, tokens per
 * second), a running meter for the rate shown during a build, and the expected time of the summaries of a tree
 * before it is built. Plain arithmetic: no model code, so the page can use it.
 */
import { DEFAULT_BUILD_PARAMS, type BuildParams } from '../../core/types';
import type { ModelPlacement } from '../device';

/** The two rates that decide a generation's time, in the model's tokens per second. */
export interface GenerationSpeed {
  /** Prompt processing (prefill): prompt tokens per second. */
  prefillTokensPerSecond: number;
  /** Generation (decoding with the KV cache): new tokens per second after the first. */
  decodeTokensPerSecond: number;
}

/** What an estimate reads of a warm-up: its rates and token ratio, wherever it ran. */
export type SampleRates = Omit<SpeedSample, 'placement'>;

/** A measured warm-up: the rates, and what they were measured on. */
export interface SpeedSample extends GenerationSpeed {
  /**
   * Summaries the model writes together (1: one at a time), and the tokens per second they write together, all
   * rows counted (`decodeTokensPerSecond` is one reply's rate, as a person's question is written).
   */
  batch: { rows: number; decodeTokensPerSecond: number };
  promptTokens: number;
  completionTokens: number;
  /** The model's tokens per cl100k token of the sample text (to turn the paper's token counts into the model's). */
  modelTokensPerToken: number;
  /** Wall time of the timed generation, in seconds. */
  seconds: number;
  /** Where the warm-up ran (where the summaries will be written): its rates hold there only. */
  placement: ModelPlacement;
}

/** The timing fields of one finished generation (GenerationResult). */
export interface TimedReply {
  promptTokens: number;
  completionTokens: number;
  /** `decodeShareMs`: the reply's share of batched decoding steps (GenerationTiming). */
  timing: { prefillMs: number; decodeMs: number; decodeShareMs?: number };
}

const MS_PER_S = 1000;

/** The rates of one generation; a rate with nothing to measure (no decoding step) is NaN. */
export function speedOf(reply: TimedReply): GenerationSpeed {
  const steps = reply.completionTokens - 1;
  return {
    prefillTokensPerSecond:
      reply.timing.prefillMs > 0 ? (reply.promptTokens * MS_PER_S) / reply.timing.prefillMs : NaN,
    decodeTokensPerSecond:
      steps > 0 && reply.timing.decodeMs > 0 ? (steps * MS_PER_S) / reply.timing.decodeMs : NaN,
  };
}

/**
 * Sums generations (e.g. every summary of a build) into overall rates. Batched replies count their share of
 * each decoding step, so the rate is the tokens written per second of decoding, whatever the batch.
 */
export class SpeedMeter {
  promptTokens = 0;
  completionTokens = 0;
  prefillMs = 0;
  decodeMs = 0;
  private decodeSteps = 0;

  /** Counts one finished generation. */
  add(reply: TimedReply): void {
    this.promptTokens += reply.promptTokens;
    this.completionTokens += reply.completionTokens;
    this.prefillMs += reply.timing.prefillMs;
    this.decodeMs += reply.timing.decodeShareMs ?? reply.timing.decodeMs;
    this.decodeSteps += Math.max(0, reply.completionTokens - 1);
  }

  /** Overall rates so far (NaN until something was measured). */
  get speed(): GenerationSpeed {
    return {
      prefillTokensPerSecond: this.prefillMs > 0 ? (this.promptTokens * MS_PER_S) / this.prefillMs : NaN,
      decodeTokensPerSecond: this.decodeMs > 0 ? (this.decodeSteps * MS_PER_S) / this.decodeMs : NaN,
    };
  }
}

/**
 * Children per summary assumed when planning: likely the paper's (its trees average 5.7–6.8, Appendix C,
 * Table 10); the clustering of one short, uniform text can choose far fewer, larger clusters (the sample:
 * about 15 leaves each) or smaller ones (the official tree of the sample: 4.7). The plan's range spans both.
 */
export const PLANNED_CHILDREN_PER_SUMMARY = { fewest: 16, likely: 6, most: 4 } as const;
/** How often a node's text appears in its layer's clusters (soft membership puts some nodes in two). */
export const PLANNED_MEMBERSHIP = 1.1;
/** Tokens the chat template and the prompt's instructions add to each summary request (cl100k). */
export const PROMPT_OVERHEAD_TOKENS = 40;

/** The summaries a build will ask for. */
export interface SummaryWork {
  summaries: number;
  /** Prompt tokens of all summary requests together (cl100k, like the tree's counts). */
  promptTokens: number;
  /**
   * Generated tokens of all summaries together, each at its budget (the model's tokens: the budget limits what
   * it generates; small models tend to use all of it).
   */
  outputTokens: number;
  /** Summary layers expected. */
  layers: number;
  /** Summaries of each layer, bottom up (their sum is `summaries`). */
  perLayer: number[];
}

/**
 * Plans the summaries of a tree over `leaves` leaf chunks holding `leafTokens` tokens in all, following
 * buildTree's rules: a layer of at most reductionDim + 1 nodes is not clustered (but a document of such a
 * layer 0 gets one root summary), at most maxLayers layers, `childrenPerSummary` children each (default: the
 * likely number).
 */
export function planSummaryWork(
  leaves: number,
  leafTokens: number,
  params: Partial<Pick<BuildParams, 'reductionDim' | 'maxLayers' | 'summaryTokens'>> = {},
  childrenPerSummary: number = PLANNED_CHILDREN_PER_SUMMARY.likely,
): SummaryWork {
  const reductionDim = params.reductionDim ?? DEFAULT_BUILD_PARAMS.reductionDim;
  const maxLayers = params.maxLayers ?? DEFAULT_BUILD_PARAMS.maxLayers;
  const summaryTokens = params.summaryTokens ?? DEFAULT_BUILD_PARAMS.summaryTokens;
  const work: SummaryWork = { summaries: 0, promptTokens: 0, outputTokens: 0, layers: 0, perLayer: [] };
  let nodes = leaves;
  let tokens = leafTokens;
  while (work.layers < maxLayers && nodes >= 2) {
    const small = nodes <= reductionDim + 1;
    if (small && work.layers > 0) break;
    const clusters = small ? 1 : Math.max(1, Math.round(nodes / childrenPerSummary));
    if (clusters >= nodes) break;
    work.summaries += clusters;
    work.perLayer.push(clusters);
    work.promptTokens += (small ? tokens : tokens * PLANNED_MEMBERSHIP) + clusters * PROMPT_OVERHEAD_TOKENS;
    work.outputTokens += clusters * summaryTokens;
    work.layers++;
    nodes = clusters;
    tokens = clusters * summaryTokens;
  }
  work.promptTokens = Math.round(work.promptTokens);
  return work;
}

/** The plan with the fewest, the likely and the most summaries (PLANNED_CHILDREN_PER_SUMMARY). */
export function planSummaryRange(
  leaves: number,
  leafTokens: number,
  params: Partial<Pick<BuildParams, 'reductionDim' | 'maxLayers' | 'summaryTokens'>> = {},
): { fewest: SummaryWork; likely: SummaryWork; most: SummaryWork } {
  const plan = (children: number) => planSummaryWork(leaves, leafTokens, params, children);
  return {
    fewest: plan(PLANNED_CHILDREN_PER_SUMMARY.fewest),
    likely: plan(PLANNED_CHILDREN_PER_SUMMARY.likely),
    most: plan(PLANNED_CHILDREN_PER_SUMMARY.most),
  };
}

/**
 * Seconds of decoding `work`'s summaries at the warm-up's rates: a layer of n summaries is written min(n, rows)
 * at a time (the build asks for a layer's summaries together), each step's time between the lone reply's
 * (1 / decodeTokensPerSecond) and the full batch's (rows / batch.decodeTokensPerSecond), linear in the rows.
 */
export function decodeSeconds(
  work: SummaryWork,
  sample: Pick<SpeedSample, 'decodeTokensPerSecond' | 'batch'>,
): number {
  if (work.summaries === 0) return 0;
  const perSummary = work.outputTokens / work.summaries;
  const lone = 1 / sample.decodeTokensPerSecond;
  const rows = Math.max(1, sample.batch.rows);
  const full = rows > 1 ? rows / sample.batch.decodeTokensPerSecond : lone;
  const layers = work.perLayer.length > 0 ? work.perLayer : [work.summaries];
  return layers.reduce((seconds, n) => {
    const together = Math.min(n, rows);
    const step = rows > 1 ? lone + ((full - lone) * (together - 1)) / (rows - 1) : lone;
    return seconds + ((n * perSummary) / together) * step;
  }, 0);
}

/**
 * Expected seconds of `work` at the measured rates: its prompts (cl100k counts turned into the model's tokens
 * by `sample.modelTokensPerToken`) at the prefill rate, one at a time, plus its summaries' decoding
 * (`decodeSeconds`: batched where the model batches).
 */
export function estimateSummarySeconds(work: SummaryWork, sample: SampleRates): number {
  const ratio = sample.modelTokensPerToken > 0 ? sample.modelTokensPerToken : 1;
  return (work.promptTokens * ratio) / sample.prefillTokensPerSecond + decodeSeconds(work, sample);
}

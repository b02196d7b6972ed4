/**
 * Questions written by the LLM from the tree itself: N detail questions from sampled leaves and N theme
 * questions from sampled summaries, each keeping its source node (and that node's text) as its gold. The
 * sample is seeded, so the same tree, count and seed plan the same nodes; the plan is made first, so the number
 * of LLM calls is known (and shown) before any is made.
 */
import { throwIfAborted, type AbortSignalLike } from '../abort';
import { mapWithConcurrency } from '../pool';
import { deriveSeed, randomInt, seededRandom } from '../random';
import type { RaptorTree } from '../types';
import type { EvalChat } from './chat';
import { parseGeneratedQuestion, questionMessages, QUESTION_MAX_TOKENS } from './prompts';
import type { EvalQuestion } from './questions';

/** Seed of the sample when none is given (the build's default seed). */
export const DEFAULT_GENERATION_SEED = 224;
/** Label of the sampling stream (`deriveSeed`), so it never shares draws with a build's. */
const SAMPLE_LABEL = 0x6576616c; // "eval"
/** LLM calls in flight at once while writing questions. */
export const GENERATION_CONCURRENCY = 4;

/** The nodes questions will be written from. */
export interface GenerationPlan {
  /** Leaves, for detail questions. */
  detail: number[];
  /** Summaries (any layer above the leaves), for theme questions. */
  theme: number[];
}

/** `count` distinct ids drawn from `ids` (all of them, in their order, when there are not more). */
function sample(ids: readonly number[], count: number, random: () => number): number[] {
  if (ids.length <= count) return [...ids];
  const pool = [...ids];
  // A partial Fisher–Yates shuffle: the first `count` places are a uniform sample.
  for (let i = 0; i < count; i++) {
    const j = i + randomInt(random, pool.length - i);
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, count).sort((a, b) => a - b);
}

/**
 * Picks `count` leaves and `count` summaries (fewer when the tree has fewer), seeded.
 * @throws RangeError when `count` is not a whole number ≥ 1.
 */
export function planQuestionGeneration(
  tree: RaptorTree,
  count: number,
  seed = DEFAULT_GENERATION_SEED,
): GenerationPlan {
  if (!Number.isInteger(count) || count < 1)
    throw new RangeError(`count must be a whole number ≥ 1, got ${count}.`);
  const leaves = tree.nodes.filter((n) => n.layer === 0).map((n) => n.id);
  const summaries = tree.nodes.filter((n) => n.layer > 0).map((n) => n.id);
  return {
    detail: sample(leaves, count, seededRandom(deriveSeed(seed, SAMPLE_LABEL, 0))),
    theme: sample(summaries, count, seededRandom(deriveSeed(seed, SAMPLE_LABEL, 1))),
  };
}

/** LLM calls a plan makes: one per node. */
export function generationCallCount(plan: GenerationPlan): number {
  return plan.detail.length + plan.theme.length;
}

/** A node whose question could not be written: its reply held none, or its request failed, twice. */
export interface GenerationFailure {
  node: number;
  kind: 'detail' | 'theme';
  /** The last reply (empty when the request failed). */
  reply: string;
  /** Why the last request failed, when it did (the model's error message). */
  error?: string;
}

/** What a generation did, in exact counts (shown and stored with the set). */
export interface GenerationCounts {
  /** Questions planned (one per node): the requests without retries. */
  planned: number;
  /** Questions written. */
  written: number;
  /** Nodes skipped after a retry that failed too. */
  skipped: number;
  /** Replies asked for again (a bad first reply, or a first request that failed). */
  retried: number;
}

/** Options of `generateQuestions`. */
export interface GenerateOptions {
  signal?: AbortSignalLike;
  /** Nodes done (written or skipped) so far of `total`. */
  onProgress?: (done: number, total: number) => void;
  /**
   * A good question, the moment it arrives (in the order replies come back): the page stores it at once, so a
   * cancel, a failure or a closed tab never costs a question already paid for.
   */
  onQuestion?: (question: EvalQuestion) => void;
  /** LLM calls at once. Default 4. */
  concurrency?: number;
}

/**
 * Errors of one request that say nothing about the next (the model's reply was empty, garbled or cut, or this
 * node's prompt was too long for it): retried once, then the node is skipped. Any other failure (the endpoint
 * refuses the key, the model is unknown, the server is down) would fail every request alike, so it stops the
 * generation; what was written stays.
 */
export const REPLY_FAILURES: ReadonlySet<string> = new Set([
  'EMPTY_RESPONSE',
  'BAD_RESPONSE',
  'CLOSED_MID_REPLY',
  'CONTEXT_TOO_LONG',
]);

/** What the core needs of an error to tell a bad reply from a broken endpoint. */
const replyFailure = (error: unknown): error is Error =>
  error instanceof Error && REPLY_FAILURES.has(String((error as { code?: unknown }).code));

/** Attempts per node: the first, and one retry. */
const ATTEMPTS = 2;

/**
 * Writes one question per planned node through `chat`: detail questions (kind "detail") from leaves, theme
 * questions (kind "theme") from summaries, each with the model's short answer as its reference, `goldNode` and
 * `goldText` its node. A reply without a question, or a request whose reply was bad (REPLY_FAILURES), is asked
 * for once more (`accept` tells a cache not to keep the bad one); if that fails too the node is skipped and
 * reported in `failures`. Each good question reaches `onQuestion` as it arrives.
 * @throws AbortError when `signal` fires; the first failure that is not a bad reply (a broken endpoint). In both
 *   cases the questions already written have reached `onQuestion`.
 */
export async function generateQuestions(
  tree: RaptorTree,
  plan: GenerationPlan,
  chat: EvalChat,
  options: GenerateOptions = {},
): Promise<{ questions: EvalQuestion[]; failures: GenerationFailure[]; counts: GenerationCounts }> {
  const jobs = [
    ...plan.detail.map((node) => ({ node, kind: 'detail' as const })),
    ...plan.theme.map((node) => ({ node, kind: 'theme' as const })),
  ];
  const counts: GenerationCounts = { planned: jobs.length, written: 0, skipped: 0, retried: 0 };
  const written: (EvalQuestion | undefined)[] = new Array(jobs.length);
  const failures: (GenerationFailure | undefined)[] = new Array(jobs.length);
  let done = 0;
  options.onProgress?.(0, jobs.length);
  const accept = (reply: string) => parseGeneratedQuestion(reply) !== undefined;
  await mapWithConcurrency(
    jobs.length,
    options.concurrency ?? GENERATION_CONCURRENCY,
    async (i) => {
      const { node, kind } = jobs[i];
      let failure: GenerationFailure = { node, kind, reply: '' };
      for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
        if (attempt > 1) counts.retried++;
        let reply: string;
        try {
          reply = await chat(questionMessages(tree.nodes[node].text, kind), {
            maxTokens: QUESTION_MAX_TOKENS,
            signal: options.signal,
            accept,
          });
        } catch (error) {
          if (!replyFailure(error)) throw error;
          failure = { node, kind, reply: '', error: error.message };
          continue;
        }
        const parsed = parseGeneratedQuestion(reply);
        if (!parsed) {
          failure = { node, kind, reply };
          continue;
        }
        const question: EvalQuestion = {
          id: `${kind}-${node}`,
          question: parsed.question,
          kind,
          goldNode: node,
          goldText: tree.nodes[node].text,
        };
        if (parsed.answer) question.answer = parsed.answer;
        written[i] = question;
        counts.written++;
        options.onQuestion?.(question);
        options.onProgress?.(++done, jobs.length);
        return;
      }
      failures[i] = failure;
      counts.skipped++;
      options.onProgress?.(++done, jobs.length);
    },
    options.signal,
  );
  throwIfAborted(options.signal);
  return {
    questions: written.filter((q): q is EvalQuestion => q !== undefined),
    failures: failures.filter((f): f is GenerationFailure => f !== undefined),
    counts,
  };
}

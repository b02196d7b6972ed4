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

/** A node whose reply held no question. */
export interface GenerationFailure {
  node: number;
  kind: 'detail' | 'theme';
  reply: string;
}

/** Options of `generateQuestions`. */
export interface GenerateOptions {
  signal?: AbortSignalLike;
  /** Calls done so far of `total`. */
  onProgress?: (done: number, total: number) => void;
  /** LLM calls at once. Default 4. */
  concurrency?: number;
}

/**
 * Writes one question per planned node through `chat`: detail questions (kind "detail") from leaves, theme
 * questions (kind "theme") from summaries, each with the model's short answer as its reference, `goldNode` and
 * `goldText` its node. A reply without a question is reported in `failures`, not retried.
 * @throws what `chat` throws (the first failure; calls already made are the chat's to keep, e.g. in a cache);
 *   AbortError when `signal` fires.
 */
export async function generateQuestions(
  tree: RaptorTree,
  plan: GenerationPlan,
  chat: EvalChat,
  options: GenerateOptions = {},
): Promise<{ questions: EvalQuestion[]; failures: GenerationFailure[] }> {
  const jobs = [
    ...plan.detail.map((node) => ({ node, kind: 'detail' as const })),
    ...plan.theme.map((node) => ({ node, kind: 'theme' as const })),
  ];
  let done = 0;
  options.onProgress?.(0, jobs.length);
  const replies = await mapWithConcurrency(
    jobs.length,
    options.concurrency ?? GENERATION_CONCURRENCY,
    async (i) => {
      const { node, kind } = jobs[i];
      const reply = await chat(questionMessages(tree.nodes[node].text, kind), {
        maxTokens: QUESTION_MAX_TOKENS,
        signal: options.signal,
      });
      options.onProgress?.(++done, jobs.length);
      return reply;
    },
    options.signal,
  );
  throwIfAborted(options.signal);
  const questions: EvalQuestion[] = [];
  const failures: GenerationFailure[] = [];
  jobs.forEach(({ node, kind }, i) => {
    const parsed = parseGeneratedQuestion(replies[i]);
    if (!parsed) {
      failures.push({ node, kind, reply: replies[i] });
      return;
    }
    const question: EvalQuestion = {
      id: `${kind}-${node}`,
      question: parsed.question,
      kind,
      goldNode: node,
      goldText: tree.nodes[node].text,
    };
    if (parsed.answer) question.answer = parsed.answer;
    questions.push(question);
  });
  return { questions, failures };
}

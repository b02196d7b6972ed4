/**
 * Answer quality on top of a retrieval report: for each chosen variant and each question with something to
 * compare with, the answering model reads what that variant retrieved and answers. Multiple-choice questions
 * are scored by accuracy (the option letter it names), questions with a reference answer by token F1 and
 * ROUGE-L, and optionally by an LLM judge. Every call goes through the injected `EvalChat`, which the page
 * backs with its answer cache, so a cancelled run resumed later pays for no answer twice.
 */
import { throwIfAborted, type AbortSignalLike } from '../abort';
import { mapWithConcurrency } from '../pool';
import { DEFAULT_SEARCH } from '../search';
import type { RaptorTree } from '../types';
import { chosenOption, rougeL, tokenF1 } from './answer-metrics';
import { contextPassages } from './context-passages';
import type { EvalChat } from './chat';
import {
  answerMessages,
  EVAL_ANSWER_MAX_TOKENS,
  judgeMessages,
  JUDGE_MAX_TOKENS,
  parseVerdict,
} from './prompts';
import type { EvalQuestion } from './questions';
import type { ModeReport, QuestionModeResult, RetrievalReport } from './report';
import type { AnswerFigures, AnswerRecord, AnswerSettings } from './answer-types';

export type { AnswerFigures, AnswerRecord, AnswerSettings } from './answer-types';

/** Answering calls in flight at once. */
export const ANSWER_CONCURRENCY = 4;

/** Options of `evaluateAnswers`. */
export interface AnswerEvalOptions {
  chat: EvalChat;
  /** Report keys of the variants to answer with. Default: every variant with the default search and no rerank. */
  keys?: readonly string[];
  /** Ask the judge about every answer to a question with a reference answer. Default false. */
  judge?: boolean;
  /** The answering model's name, recorded in the report. */
  model?: string;
  signal?: AbortSignalLike;
  /** Calls done of `total`. */
  onProgress?: (done: number, total: number) => void;
  /** Calls at once. Default 4. */
  concurrency?: number;
}

/** A question the answering stage scores: it has choices or a reference answer. */
const answerable = (q: EvalQuestion) => (q.choices && q.gold !== undefined) || q.answer !== undefined;

/** The variants answered by default: the default search's, without a rerank hook. */
export function defaultAnswerKeys(report: RetrievalReport): string[] {
  return Object.values(report.modes)
    .filter((m) => m.search === DEFAULT_SEARCH && m.rerank === undefined)
    .map((m) => m.key);
}

/**
 * The LLM calls `evaluateAnswers` will make (answers, and verdicts when judging), before any is made; calls a
 * cache already holds are not made again.
 */
export function answerCallCount(questions: readonly EvalQuestion[], keys: number, judge: boolean): number {
  let perKey = 0;
  for (const q of questions) {
    if (!answerable(q)) continue;
    perKey += 1;
    if (judge && !(q.choices && q.gold !== undefined)) perKey += 1;
  }
  return perKey * keys;
}

const mean = (values: readonly number[]) =>
  values.length === 0 ? null : values.reduce((s, v) => s + v, 0) / values.length;

/** The answer figures of one variant from its per-question answers. */
export function answerFigures(results: readonly (QuestionModeResult | undefined)[]): AnswerFigures {
  const answers = results.flatMap((r) => (r?.answer ? [r.answer] : []));
  const choices = answers.filter((a) => a.correct !== undefined);
  const references = answers.filter((a) => a.f1 !== undefined);
  const judged = answers.filter((a) => a.judge !== undefined && a.judge !== null);
  return {
    answered: answers.length,
    choiceQuestions: choices.length,
    accuracy: mean(choices.map((a) => (a.correct ? 1 : 0))),
    referenceQuestions: references.length,
    f1: mean(references.map((a) => a.f1!)),
    rougeL: mean(references.map((a) => a.rougeL!)),
    judged: judged.length,
    judge: mean(judged.map((a) => a.judge!)),
  };
}

/**
 * Answers every answerable question (choices with a gold option, or a reference answer) from what each chosen
 * variant retrieved, scores the answers and returns a new report with `answer` on those per-question results,
 * `answers` on their mode entries and `answering` settings. `report` and `tree` are not changed.
 * @throws what `chat` throws (the first failure); AbortError when `signal` fires.
 */
export async function evaluateAnswers(
  tree: RaptorTree,
  questions: readonly EvalQuestion[],
  report: RetrievalReport,
  options: AnswerEvalOptions,
): Promise<RetrievalReport> {
  const keys = [...(options.keys ?? defaultAnswerKeys(report))].filter((k) => report.modes[k]);
  const judge = options.judge ?? false;
  const jobs: { qi: number; key: string }[] = [];
  for (const key of keys) {
    questions.forEach((q, qi) => {
      if (answerable(q) && report.perQuestion[qi]?.modes[key]) jobs.push({ qi, key });
    });
  }
  const total = answerCallCount(questions, 1, judge) * keys.length;
  let done = 0;
  const tick = () => options.onProgress?.(++done, total);
  options.onProgress?.(0, total);

  const answers = await mapWithConcurrency(
    jobs.length,
    options.concurrency ?? ANSWER_CONCURRENCY,
    async (j): Promise<AnswerRecord> => {
      const { qi, key } = jobs[j];
      const q = questions[qi];
      const passages = contextPassages(tree, report.perQuestion[qi].modes[key]);
      const multipleChoice = q.choices !== undefined && q.gold !== undefined;
      const text = await options.chat(
        answerMessages(q.question, passages, multipleChoice ? q.choices : undefined),
        {
          maxTokens: EVAL_ANSWER_MAX_TOKENS,
          signal: options.signal,
        },
      );
      tick();
      const record: AnswerRecord = { text };
      if (multipleChoice) {
        const picked = chosenOption(text, q.choices!);
        record.picked = picked ?? null;
        record.correct = picked === q.gold;
        return record;
      }
      record.f1 = tokenF1(text, q.answer!);
      record.rougeL = rougeL(text, q.answer!);
      if (judge) {
        const reply = await options.chat(judgeMessages(q.question, q.answer!, text), {
          maxTokens: JUDGE_MAX_TOKENS,
          signal: options.signal,
        });
        tick();
        record.judge = parseVerdict(reply) ?? null;
        record.judgeReply = reply;
      }
      return record;
    },
    options.signal,
  );
  throwIfAborted(options.signal);

  const perQuestion = report.perQuestion.map((q) => ({ ...q, modes: { ...q.modes } }));
  jobs.forEach(({ qi, key }, j) => {
    perQuestion[qi].modes[key] = { ...perQuestion[qi].modes[key], answer: answers[j] };
  });
  const modes: Record<string, ModeReport> = {};
  for (const [key, entry] of Object.entries(report.modes)) {
    modes[key] = keys.includes(key)
      ? { ...entry, answers: answerFigures(perQuestion.map((q) => q.modes[key])) }
      : entry;
  }
  const answering: AnswerSettings = { keys, judge };
  if (options.model !== undefined) answering.model = options.model;
  return { ...report, modes, perQuestion, answering };
}

/** Answers a question from retrieved passages, streamed, with the passages it cites. */
import { chat, streamChat } from './chat';
import {
  ANSWER_SYSTEM_PROMPT,
  ANSWER_USER_TEMPLATE,
  answerMessages,
  checkTemplate,
  DEFAULT_ANSWER_MAX_TOKENS,
} from './prompts';
import type { ChatMessage } from '../core/chat';
import type { ChatFn, LlmEndpoint, StreamOptions } from './types';
import { UsageAccumulator, type UsageTotals } from './usage';

/** Options of `answerQuestion`. */
export interface AnswerOptions extends StreamOptions {
  question: string;
  /** The retrieved texts, most relevant first; shown to the model as [1] … [n]. */
  passages: readonly string[];
  /** Answer length limit in tokens. Default 512. */
  maxTokens?: number;
  /** Stream the answer through `onDelta` (SSE). Default true; false sends one plain request. */
  stream?: boolean;
  /** System prompt. Default `ANSWER_SYSTEM_PROMPT`. */
  systemPrompt?: string;
  /** User prompt with `{passages}` and `{question}`. Default `ANSWER_USER_TEMPLATE`. */
  userTemplate?: string;
  /** Sampling temperature; the endpoint's (or the server's default) when unset. */
  temperature?: number;
  /**
   * Earlier turns of the conversation (user questions and assistant answers, oldest first), sent between the
   * instructions and this question; see `historyMessages` for the token budget.
   */
  history?: readonly ChatMessage[];
}

/** A finished answer. */
export interface AnswerResult {
  /** The whole answer as the model wrote it. */
  text: string;
  /** 0-based indices into `passages` the answer cites, in order of first citation, without repeats. */
  citations: number[];
  /** Tokens of this answer (also added to `options.usage` when given). */
  usage: UsageTotals;
  model: string;
  finishReason?: string;
  /**
   * Set when the server wrote past `maxTokens` (ignoring the limit): Aerie stopped reading at `maxChars`
   * characters, and `text` ends there.
   */
  overLimit?: { maxTokens: number; maxChars: number };
}

/** A bracket holding citation numbers: [2], [1, 3], [2-4], [Passage 2], [1; 5]. */
const CITATION_GROUP = /\[\s*(?:(?:passages?|sources?)\s*)?(\d+(?:\s*(?:[,;–-]|and)\s*\d+)*)\s*\]/gi;
const CITATION_PART = /(\d+)(?:\s*[–-]\s*(\d+))?/g;

/**
 * The passages cited in `text` as 0-based indices, in order of first citation, without repeats. Numbers
 * outside 1 … `passageCount` are ignored (models invent some); a range [2-4] cites 2, 3 and 4.
 */
export function parseCitations(text: string, passageCount: number): number[] {
  const seen = new Set<number>();
  const cite = (n: number) => {
    if (Number.isInteger(n) && n >= 1 && n <= passageCount) seen.add(n - 1);
  };
  for (const group of text.matchAll(CITATION_GROUP)) {
    for (const part of group[1].matchAll(CITATION_PART)) {
      const first = Number(part[1]);
      const last = part[2] === undefined ? first : Number(part[2]);
      // Clamped, so a range like [1-999999] costs at most passageCount steps.
      for (let n = Math.max(first, 1); n <= Math.min(last, passageCount); n++) cite(n);
    }
  }
  return [...seen];
}

/**
 * Asks `chat` to answer `question` from ONLY the numbered passages, citing them as [n]: the one answering path
 * of every backend (endpoints and the built-in model). Streams the text through `onDelta` and resolves with
 * the whole text, the cited passage indices and the token usage.
 * @throws what `chat` throws (LlmError, GeneratorError), or an AbortError when `signal` fires (also mid-stream).
 */
export async function answerWith(chat: ChatFn, options: AnswerOptions): Promise<AnswerResult> {
  const userTemplate = options.userTemplate ?? ANSWER_USER_TEMPLATE;
  checkTemplate(userTemplate, ['passages', 'question']);
  const usage = new UsageAccumulator();
  const request = {
    messages: answerMessages(
      options.question,
      options.passages,
      options.systemPrompt ?? ANSWER_SYSTEM_PROMPT,
      userTemplate,
      options.history,
    ),
    maxTokens: options.maxTokens ?? DEFAULT_ANSWER_MAX_TOKENS,
    temperature: options.temperature,
  };
  const result = await chat(request, { ...options, usage });
  options.usage?.merge(usage);
  const answer: AnswerResult = {
    text: result.text,
    citations: parseCitations(result.text, options.passages.length),
    usage: usage.snapshot(),
    model: result.model,
  };
  if (result.finishReason !== undefined) answer.finishReason = result.finishReason;
  if (result.overLimit)
    answer.overLimit = { maxTokens: request.maxTokens, maxChars: result.overLimit.maxChars };
  return answer;
}

/** An endpoint as a `ChatFn`: streamed (SSE) by default, or one plain request when `stream` is false. */
export function endpointChat(endpoint: LlmEndpoint, stream = true): ChatFn {
  return async (request, options) => {
    if (stream) return streamChat(endpoint, request, options);
    const result = await chat(endpoint, request, options);
    options.onDelta?.(result.text);
    return result;
  };
}

/**
 * Asks the endpoint to answer `question` from ONLY the numbered passages, citing them as [n] (`answerWith`
 * over `endpointChat`).
 * @throws LlmError, or an AbortError when `signal` fires (also mid-stream).
 */
export function answerQuestion(endpoint: LlmEndpoint, options: AnswerOptions): Promise<AnswerResult> {
  return answerWith(endpointChat(endpoint, options.stream !== false), options);
}

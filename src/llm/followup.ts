/**
 * Conversations with a tree: a follow-up ("and what did her father say?") is made into a standalone search
 * before retrieval, and earlier turns go to the answering model within a token budget.
 *
 * - With an answering model, `rewriteFollowUp` asks it to rewrite the follow-up as one self-contained question
 *   (the app shows the rewrite, editable, before it runs).
 * - Without one, `joinFollowUp` joins the follow-up to the questions before it (the last JOINED_QUESTIONS), so
 *   keyword and meaning search both see the names the follow-up leaves out.
 * - `historyMessages` turns earlier questions and answers into chat messages, newest kept first, within
 *   `HISTORY_TOKENS` (cl100k) so a long conversation never crowds the passages out of the model's context.
 */
import { countTokens } from '../core/text';
import { LlmError } from './errors';
import type { ChatMessage } from '../core/chat';
import type { ChatFn, StreamOptions } from './types';

/** Earlier turns' text the answering model is given, at most (cl100k tokens). */
export const HISTORY_TOKENS = 1000;
/** Earlier questions a joined search keeps (besides the follow-up itself). */
export const JOINED_QUESTIONS = 2;
/** Length limit of a rewritten search (tokens the model may write). */
export const REWRITE_MAX_TOKENS = 96;
/** Earlier turns the rewriting model sees (the newest). */
export const REWRITE_TURNS = 3;
/** Characters of an earlier answer the rewriting model sees. */
const REWRITE_ANSWER_CHARS = 600;

/** Instructions of the rewriting model. */
export const REWRITE_SYSTEM_PROMPT =
  'You turn the last question of a conversation about some documents into one standalone search question. ' +
  'Replace pronouns and references ("she", "that", "the other one") with the names and things they refer to in ' +
  'the conversation. Keep the question’s language. Reply with the question only: no answer, no quotes, no ' +
  'preamble.';

/** One earlier turn as the follow-up helpers read it. */
export interface EarlierTurn {
  question: string;
  /** What was searched for it (its standalone form); the question when absent. */
  search?: string;
  /** The answer's text, when one was written. */
  answer?: string;
}

/** The follow-up joined to the earlier turns' questions (standalone forms), oldest first, one space apart. */
export function joinFollowUp(earlier: readonly EarlierTurn[], question: string): string {
  const previous = earlier.slice(-JOINED_QUESTIONS).map((t) => t.question.trim());
  return [...previous, question.trim()].filter((q) => q !== '').join(' ');
}

/** The rewriting request's messages. */
export function rewriteMessages(earlier: readonly EarlierTurn[], question: string): ChatMessage[] {
  const lines = earlier.slice(-REWRITE_TURNS).flatMap((t) => {
    const out = [`Question: ${t.question.trim()}`];
    if (t.answer) out.push(`Answer: ${t.answer.trim().slice(0, REWRITE_ANSWER_CHARS)}`);
    return out;
  });
  return [
    { role: 'system', content: REWRITE_SYSTEM_PROMPT },
    {
      role: 'user',
      content: `Conversation so far:\n${lines.join('\n')}\n\nLast question: ${question.trim()}\n\nStandalone question:`,
    },
  ];
}

/** Quotes, a "Standalone question:" label or a trailing explanation a model may wrap its rewrite in. */
function cleanRewrite(text: string): string {
  const firstLine =
    text
      .trim()
      .split(/\r?\n/)
      .find((line) => line.trim() !== '') ?? '';
  return firstLine
    .replace(/^(?:standalone question|question|search)\s*:\s*/i, '')
    .replace(/^["“'‘]+|["”'’]+$/g, '')
    .trim();
}

/**
 * Asks `chat` for the standalone form of `question` given the earlier turns.
 * @throws LlmError EMPTY_RESPONSE when the model replies with nothing usable; what `chat` throws (an AbortError
 *   when `signal` fires).
 */
export async function rewriteFollowUp(
  chat: ChatFn,
  earlier: readonly EarlierTurn[],
  question: string,
  options: StreamOptions = {},
): Promise<string> {
  const result = await chat(
    { messages: rewriteMessages(earlier, question), maxTokens: REWRITE_MAX_TOKENS, temperature: 0 },
    options,
  );
  const rewrite = cleanRewrite(result.text);
  if (rewrite === '') {
    throw new LlmError('EMPTY_RESPONSE', 'The model returned no rewritten question.', { text: result.text });
  }
  return rewrite;
}

/**
 * Earlier turns as chat messages (user: question, assistant: answer), oldest first, keeping the newest turns
 * whose text fits in `maxTokens` (cl100k) together; a turn without an answer is left out, and so is every
 * turn before the first that does not fit.
 */
export function historyMessages(
  earlier: readonly EarlierTurn[],
  maxTokens: number = HISTORY_TOKENS,
): ChatMessage[] {
  const kept: ChatMessage[][] = [];
  let used = 0;
  for (let i = earlier.length - 1; i >= 0; i--) {
    const { question, answer } = earlier[i];
    if (!answer) continue;
    const cost = countTokens(question) + countTokens(answer);
    if (used + cost > maxTokens) break;
    used += cost;
    kept.unshift([
      { role: 'user', content: question.trim() },
      { role: 'assistant', content: answer.trim() },
    ]);
  }
  return kept.flat();
}

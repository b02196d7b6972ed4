/**
 * The prompts of the endpoints: the summary length and the cited-answer prompt. The paper's summarisation prompt
 * itself is in src/core/chat.ts, below this room and the built-in model's, which both send it.
 */
import { LlmError } from './errors';
import { fillTemplate, joinLines, type ChatMessage } from '../core/chat';

/** Default summary length in tokens (the paper's and the reference's `summarization_length`). */
export const DEFAULT_SUMMARY_MAX_TOKENS = 100;

/** Instructions of the answerer: only the passages, cite them as [n]. */
export const ANSWER_SYSTEM_PROMPT =
  'You answer questions using ONLY the numbered context passages you are given, never outside knowledge. ' +
  'After each statement, cite the passages that support it by their numbers in square brackets, such as [2] or ' +
  '[1][3]. If the passages do not contain the answer, say that they do not.';
/** The answerer's user prompt; `{passages}` becomes "[1] …\n\n[2] …", `{question}` the question. */
export const ANSWER_USER_TEMPLATE =
  'Context passages:\n\n{passages}\n\nQuestion: {question}\n\n' +
  'Answer from ONLY the passages above, citing them as [n].';
/** Default length limit of an answer in tokens. */
export const DEFAULT_ANSWER_MAX_TOKENS = 512;

/** Throws INVALID_CONFIG unless `template` contains every `{placeholder}` named. */
export function checkTemplate(template: string, placeholders: readonly string[]): void {
  for (const name of placeholders) {
    if (!template.includes(`{${name}}`)) {
      throw new LlmError(
        'INVALID_CONFIG',
        `The prompt template must contain {${name}} where the text goes.`,
        {
          placeholder: name,
        },
      );
    }
  }
}

/** "[1] first passage\n\n[2] second passage", line breaks inside passages flattened. */
export function numberedPassages(passages: readonly string[]): string {
  return passages.map((p, i) => `[${i + 1}] ${joinLines(p.trim())}`).join('\n\n');
}

/**
 * The messages of an answer request: the instructions, the conversation's earlier turns (`history`, oldest
 * first; none by default) and the question with its passages.
 */
export function answerMessages(
  question: string,
  passages: readonly string[],
  systemPrompt: string = ANSWER_SYSTEM_PROMPT,
  userTemplate: string = ANSWER_USER_TEMPLATE,
  history: readonly ChatMessage[] = [],
): ChatMessage[] {
  return [
    { role: 'system', content: systemPrompt },
    ...history,
    {
      role: 'user',
      content: fillTemplate(userTemplate, {
        passages: numberedPassages(passages),
        question: question.trim(),
      }),
    },
  ];
}

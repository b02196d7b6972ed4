/**
 * The prompts: the paper's summarisation prompt (Table 11 of Sarthi et al., 2024) with the reference
 * implementation's way of joining a cluster's texts, and the cited-answer prompt.
 */
import { LlmError } from './errors';
import type { ChatMessage } from './types';

/** System prompt of the summariser, exactly as in the paper's Table 11. */
export const SUMMARY_SYSTEM_PROMPT = 'You are a Summarizing Text Portal';
/** User prompt of the summariser, exactly as in the paper's Table 11; `{context}` is the cluster's text. */
export const SUMMARY_USER_TEMPLATE =
  'Write a summary of the following, including as many key details as possible: {context}:';
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

/** Every line break Python's `str.splitlines()` recognises (the reference joins lines with it). */
// eslint-disable-next-line no-control-regex -- splitlines() also breaks at the file, group and record separators.
const PYTHON_LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;

/** Python's `' '.join(text.splitlines())`: line breaks become spaces, a final line break disappears. */
function joinLines(text: string): string {
  const lines = text.split(PYTHON_LINE_BREAK);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.join(' ');
}

/**
 * The summariser's `{context}`, built like the reference's `get_text`: each text with its line breaks
 * replaced by spaces, each followed by a blank line ("\n\n").
 */
export function summaryContext(texts: readonly string[]): string {
  let context = '';
  for (const text of texts) context += `${joinLines(text)}\n\n`;
  return context;
}

/** Replaces `{name}` placeholders in one pass, so inserted text is never scanned for placeholders again. */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(values, name) ? values[name] : whole,
  );
}

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

/** The two messages of a summarisation request. */
export function summaryMessages(
  texts: readonly string[],
  systemPrompt: string = SUMMARY_SYSTEM_PROMPT,
  userTemplate: string = SUMMARY_USER_TEMPLATE,
): ChatMessage[] {
  return [
    { role: 'system', content: systemPrompt },
    { role: 'user', content: fillTemplate(userTemplate, { context: summaryContext(texts) }) },
  ];
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

/**
 * A chat message and the paper's summarisation prompt (Table 11 of Sarthi et al., 2024) with the reference
 * implementation's way of joining a cluster's texts. Here, below both, because the user's endpoints (src/llm) and
 * the built-in model (src/models/generate, which times its warm-up on a summary request) send the same prompt.
 */

/** One message of a chat. System messages become Anthropic's top-level `system` (src/llm/anthropic.ts). */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** System prompt of the summariser, exactly as in the paper's Table 11. */
export const SUMMARY_SYSTEM_PROMPT = 'You are a Summarizing Text Portal';
/** User prompt of the summariser, exactly as in the paper's Table 11; `{context}` is the cluster's text. */
export const SUMMARY_USER_TEMPLATE =
  'Write a summary of the following, including as many key details as possible: {context}:';

/** Every line break Python's `str.splitlines()` recognises (the reference joins lines with it). */
// eslint-disable-next-line no-control-regex -- splitlines() also breaks at the file, group and record separators.
const PYTHON_LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;

/** Python's `' '.join(text.splitlines())`: line breaks become spaces, a final line break disappears. */
export function joinLines(text: string): string {
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

/**
 * The evaluation's prompts: writing questions from a node (detail questions from leaves, theme questions from
 * summaries), answering from retrieved passages (a short answer, or an option letter for multiple choice) and
 * the optional judge. They are shown to the user before a run; the chat function that sends them is injected
 * (src/llm for endpoints and the built-in model, the fake server in tests).
 */
import { optionLetter } from './answer-metrics';

/** A chat message as the evaluation sends it. */
export interface EvalChatMessage {
  role: 'system' | 'user';
  content: string;
}

/** Fills `{name}` placeholders in one pass (inserted text is never scanned again). */
function fill(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(values, name) ? values[name] : whole,
  );
}

/** System prompt of question writing. */
export const QUESTION_SYSTEM_PROMPT =
  'You write questions for testing a search system over a document. Each question must be answerable from the ' +
  'passage you are given, without seeing it, and must not quote it at length.';

/** Detail questions, from a leaf: one fact the passage states. `{passage}` is the leaf's text. */
export const DETAIL_QUESTION_TEMPLATE =
  'Passage:\n{passage}\n\nWrite one question about a specific fact this passage states (a name, a place, an ' +
  'event, a number), and its short answer. Reply in exactly two lines:\nQuestion: …\nAnswer: …';

/** Theme questions, from a summary: what a whole stretch of the text is about. `{passage}` is the summary. */
export const THEME_QUESTION_TEMPLATE =
  'Summary of part of a document:\n{passage}\n\nWrite one question about the overall theme, development or ' +
  'arc this summary describes — a question that needs the whole of it to answer, not one detail — and its ' +
  'short answer. Reply in exactly two lines:\nQuestion: …\nAnswer: …';

/** System prompt of the answering model in an evaluation. */
export const EVAL_ANSWER_SYSTEM_PROMPT =
  'You answer questions using ONLY the numbered context passages you are given, never outside knowledge. If ' +
  'they do not contain the answer, say that they do not.';

/** Free answers: short, so token F1 and ROUGE-L measure content rather than style. */
export const EVAL_ANSWER_TEMPLATE =
  'Context passages:\n\n{passages}\n\nQuestion: {question}\n\nAnswer in one short sentence or phrase.';

/** Multiple choice: the option letter first. */
export const CHOICE_ANSWER_TEMPLATE =
  'Context passages:\n\n{passages}\n\nQuestion: {question}\n\nOptions:\n{options}\n\n' +
  'Reply with the letter of the correct option first (for example "B"), then at most one sentence why.';

/** System prompt of the judge. */
export const JUDGE_SYSTEM_PROMPT =
  'You grade answers to questions about a document. You compare a candidate answer with a reference answer ' +
  'and decide whether the candidate is correct: it must agree with the reference in substance; wording, ' +
  'length and extra correct detail do not matter.';

/** The judge's request; its reply starts with CORRECT or INCORRECT. */
export const JUDGE_TEMPLATE =
  'Question: {question}\n\nReference answer: {reference}\n\nCandidate answer: {answer}\n\n' +
  'Reply with CORRECT or INCORRECT on the first line, then one sentence why.';

/** Tokens a question-writing reply may use. */
export const QUESTION_MAX_TOKENS = 120;
/** Tokens an answer may use. */
export const EVAL_ANSWER_MAX_TOKENS = 96;
/** Tokens a verdict may use. */
export const JUDGE_MAX_TOKENS = 48;

/** The messages that ask for a question about `passage`: a detail (leaf) or a theme (summary) question. */
export function questionMessages(passage: string, kind: 'detail' | 'theme'): EvalChatMessage[] {
  const template = kind === 'detail' ? DETAIL_QUESTION_TEMPLATE : THEME_QUESTION_TEMPLATE;
  return [
    { role: 'system', content: QUESTION_SYSTEM_PROMPT },
    { role: 'user', content: fill(template, { passage: passage.trim() }) },
  ];
}

/** "[1] first\n\n[2] second", each passage on one line. */
function numbered(passages: readonly string[]): string {
  return passages.map((p, i) => `[${i + 1}] ${p.trim().replace(/\s+/g, ' ')}`).join('\n\n');
}

/** The messages that ask for an answer from the passages; with `choices`, for an option letter. */
export function answerMessages(
  question: string,
  passages: readonly string[],
  choices?: readonly string[],
): EvalChatMessage[] {
  const values = { passages: numbered(passages), question: question.trim() };
  const content = choices
    ? fill(CHOICE_ANSWER_TEMPLATE, {
        ...values,
        options: choices.map((c, i) => `${optionLetter(i)}. ${c}`).join('\n'),
      })
    : fill(EVAL_ANSWER_TEMPLATE, values);
  return [
    { role: 'system', content: EVAL_ANSWER_SYSTEM_PROMPT },
    { role: 'user', content },
  ];
}

/** The messages that ask the judge about one answer. */
export function judgeMessages(question: string, reference: string, answer: string): EvalChatMessage[] {
  return [
    { role: 'system', content: JUDGE_SYSTEM_PROMPT },
    {
      role: 'user',
      content: fill(JUDGE_TEMPLATE, {
        question: question.trim(),
        reference: reference.trim(),
        answer: answer.trim(),
      }),
    },
  ];
}

/**
 * The judge's verdict from the first line of its reply, as the prompt asks: 1 for CORRECT, 0 for INCORRECT,
 * undefined when that line names neither or both (a reply that repeats the instructions is not a verdict).
 */
export function parseVerdict(reply: string): number | undefined {
  const first = reply.trim().split(/\r\n|\n|\r/)[0] ?? '';
  const correct = /\bCORRECT\b/i.test(first);
  const incorrect = /\bINCORRECT\b/i.test(first);
  if (correct === incorrect) return undefined;
  return correct ? 1 : 0;
}

/**
 * A written question and answer from a reply: the "Question:" and "Answer:" lines when present; otherwise the
 * first line that ends in a question mark (no answer); undefined when the reply holds no question.
 */
export function parseGeneratedQuestion(reply: string): { question: string; answer?: string } | undefined {
  const lines = reply
    .split(/\r\n|\n|\r/)
    .map((l) =>
      l
        .trim()
        .replace(/^[*#>\s-]+/, '')
        .replace(/\*+/g, ''),
    )
    .filter(Boolean);
  const labelled = (label: string) => {
    const pattern = new RegExp(`^${label}\\s*[:：]\\s*(.+)$`, 'i');
    for (const line of lines) {
      const m = pattern.exec(line);
      if (m && m[1].trim()) return m[1].trim();
    }
    return undefined;
  };
  const question = labelled('question') ?? lines.find((l) => l.endsWith('?'));
  if (!question) return undefined;
  const answer = labelled('answer');
  return answer ? { question, answer } : { question };
}

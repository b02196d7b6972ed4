/** What a question must be before it is asked. Pure. */

/** The longest question accepted; a longer one is refused with a sentence and stays in the box. */
export const MAX_QUESTION_CHARS = 2000;

/** Why `question` cannot be asked as it is, or undefined. */
export function questionProblem(question: string): string | undefined {
  const text = question.trim();
  if (text === '') return 'Type a question first.';
  if (text.length > MAX_QUESTION_CHARS) {
    return (
      `Questions can be up to ${MAX_QUESTION_CHARS.toLocaleString('en')} characters; this one has ` +
      `${text.length.toLocaleString('en')}. Shorten it to what you want to find (it stays in the box).`
    );
  }
  return undefined;
}

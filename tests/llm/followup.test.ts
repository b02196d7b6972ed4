/** Follow-up questions made standalone, and earlier turns within the answering model's budget (src/llm/followup.ts). */
import { describe, expect, it } from 'vitest';
import { countTokens } from '../../src/core/text';
import {
  answerMessages,
  historyMessages,
  joinFollowUp,
  rewriteFollowUp,
  rewriteMessages,
  type ChatFn,
  type EarlierTurn,
} from '../../src/llm';

const earlier: EarlierTurn[] = [
  { question: 'Who is Mr. Bennet?', answer: 'The father of five daughters [1].' },
  { question: 'Where does he live?', search: 'Where does Mr. Bennet live?', answer: 'At Longbourn [2].' },
  { question: 'And his wife?' },
];

/** A FAKE chat function that records its requests and replies with `reply`. */
function fakeChat(reply: string): { chat: ChatFn; requests: Parameters<ChatFn>[0][] } {
  const requests: Parameters<ChatFn>[0][] = [];
  const chat: ChatFn = (request) => {
    requests.push(request);
    return Promise.resolve({ text: reply, model: 'fake' });
  };
  return { chat, requests };
}

describe('joinFollowUp', () => {
  it('joins the follow-up to the last two questions, oldest first', () => {
    expect(joinFollowUp(earlier, ' What did she say? ')).toBe(
      'Where does he live? And his wife? What did she say?',
    );
    expect(joinFollowUp([], 'First?')).toBe('First?');
  });
});

describe('rewriteFollowUp (a fake chat function)', () => {
  it('sends the last three turns and the follow-up, and returns the model’s question without wrapping', async () => {
    const { chat, requests } = fakeChat('Standalone question: "What did Mrs. Bennet say?"\nBecause…');
    expect(await rewriteFollowUp(chat, earlier, 'What did she say?')).toBe('What did Mrs. Bennet say?');
    const user = requests[0].messages[1].content;
    expect(user).toContain('Question: Who is Mr. Bennet?\nAnswer: The father of five daughters [1].');
    expect(user).toContain('Last question: What did she say?');
    expect(requests[0].temperature).toBe(0);
    expect(rewriteMessages(earlier, 'x')[0].role).toBe('system');
  });

  it('fails with EMPTY_RESPONSE when the model writes nothing usable', async () => {
    await expect(rewriteFollowUp(fakeChat('  ""  ').chat, earlier, 'Why?')).rejects.toMatchObject({
      code: 'EMPTY_RESPONSE',
    });
  });
});

describe('historyMessages', () => {
  it('keeps answered turns as user/assistant pairs, oldest first', () => {
    expect(historyMessages(earlier).map((m) => `${m.role}: ${m.content}`)).toEqual([
      'user: Who is Mr. Bennet?',
      'assistant: The father of five daughters [1].',
      'user: Where does he live?',
      'assistant: At Longbourn [2].',
    ]);
  });

  it('keeps the newest turns that fit the budget, and none before the first that does not', () => {
    const long = { question: 'Q0?', answer: 'word '.repeat(1000) };
    const turns = [long, ...earlier];
    const newest = countTokens('Where does he live?') + countTokens('At Longbourn [2].');
    expect(historyMessages(turns, newest).map((m) => m.content)).toEqual([
      'Where does he live?',
      'At Longbourn [2].',
    ]);
    expect(historyMessages(turns, newest - 1)).toEqual([]);
    expect(historyMessages(turns).some((m) => m.content === 'Q0?')).toBe(false);
  });

  it('goes between the instructions and the question with its passages', () => {
    const messages = answerMessages(
      'What now?',
      ['A passage.'],
      'SYSTEM',
      '{passages}|{question}',
      historyMessages(earlier),
    );
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant', 'user']);
    expect(messages[5].content).toBe('[1] A passage.|What now?');
  });
});

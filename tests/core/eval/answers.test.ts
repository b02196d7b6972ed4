import { DEFAULT_SEARCH } from '../../../src/core/search';
import { describe, expect, it } from 'vitest';
import type { EvalChatMessage } from '../../../src/core/eval/prompts';
import {
  answerMessages,
  judgeMessages,
  parseGeneratedQuestion,
  parseVerdict,
  questionMessages,
} from '../../../src/core/eval/prompts';
import { answerCallCount, evaluateAnswers } from '../../../src/core/eval/run-answers';
import { evaluateRetrieval } from '../../../src/core/eval/run-retrieval';
import { reportTable } from '../../../src/core/eval/table';
import { variantKey, type EvalVariant } from '../../../src/core/eval/variants';
import type { RaptorTree } from '../../../src/core/types';
import { handTree } from './hand-tree';

describe('evaluation prompts', () => {
  it('reads a written question and answer, labelled or not', () => {
    expect(parseGeneratedQuestion('Question: Who lost a slipper?\nAnswer: Cinderella')).toEqual({
      question: 'Who lost a slipper?',
      answer: 'Cinderella',
    });
    expect(parseGeneratedQuestion('**Question:** Where?\n**Answer:** At the ball.')).toEqual({
      question: 'Where?',
      answer: 'At the ball.',
    });
    expect(parseGeneratedQuestion('Sure! Here it is.\nWhy did the clock matter?\n')).toEqual({
      question: 'Why did the clock matter?',
    });
    expect(parseGeneratedQuestion('I cannot write a question about this.')).toBeUndefined();
  });

  it('reads CORRECT or INCORRECT on the first line, and nothing else', () => {
    expect(parseVerdict('CORRECT\nIt names the same person.')).toBe(1);
    expect(parseVerdict('  Incorrect — wrong year.')).toBe(0);
    expect(parseVerdict('**CORRECT**')).toBe(1);
    expect(parseVerdict('The answer is mostly right')).toBeUndefined();
    // An echo of the instructions is not a verdict, nor is a verdict after the first line.
    expect(parseVerdict('Reply with CORRECT or INCORRECT on the first line')).toBeUndefined();
    expect(parseVerdict('Let me think.\nCORRECT')).toBeUndefined();
  });

  it('puts the passage, the numbered passages, the options and the answers where the templates say', () => {
    expect(questionMessages('  The prince  ', 'detail')[1].content).toMatch(
      /^Passage:\nThe prince\n\nWrite one question about a specific fact/,
    );
    expect(questionMessages('A summary', 'theme')[1].content).toContain('overall theme');
    const mc = answerMessages('Who?', ['one\nline', 'two'], ['Anna', 'Ben'])[1].content;
    expect(mc).toContain('[1] one line\n\n[2] two');
    expect(mc).toContain('Options:\nA. Anna\nB. Ben');
    expect(answerMessages('Who?', ['p'])[1].content).toContain('Answer in one short sentence');
    expect(judgeMessages('Q', 'Ref', 'Cand')[1].content).toBe(
      'Question: Q\n\nReference answer: Ref\n\nCandidate answer: Cand\n\n' +
        'Reply with CORRECT or INCORRECT on the first line, then one sentence why.',
    );
  });
});

function tree(): RaptorTree {
  return handTree(
    [
      [0, 'Anna lives in Paris.', [1, 0]],
      [0, 'Ben lives in Rome.', [0, 1]],
      [1, 'Two friends in two cities.', [0.7, 0.7], [0, 1]],
    ],
    't',
  );
}

const QUESTIONS = [
  { question: 'Where does Anna live?', answer: 'in Paris' },
  { question: 'Who lives in Rome?', choices: ['Anna', 'Ben'], gold: 1 },
  { question: 'Unanswerable here', evidence: ['Paris'] },
];

/** FAKE chat for unit tests: answers from the first passage, picks option B, judges answers that say "Paris". */
function fakeChat(log: EvalChatMessage[][]) {
  return async (messages: EvalChatMessage[]) => {
    log.push(messages);
    const user = messages[1].content;
    if (user.startsWith('Question:')) return /Candidate answer: .*Paris/.test(user) ? 'CORRECT' : 'INCORRECT';
    if (user.includes('Options:')) return 'B, because [2] says so.';
    return /^\[1\] (.*)$/m.exec(user)![1];
  };
}

describe('evaluateAnswers', () => {
  const variants: EvalVariant[] = [
    // The default search's variants: the ones `evaluateAnswers` answers when given no keys.
    { mode: 'leaves', search: DEFAULT_SEARCH },
    { mode: 'collapsed', search: DEFAULT_SEARCH },
  ];
  const leaves = variantKey(variants[0]);
  const collapsed = variantKey(variants[1]);

  it('answers from each context, scores accuracy, F1, ROUGE-L and the judge, and counts its calls first', async () => {
    const t = tree();
    const vectors: Record<string, number[]> = {
      'Where does Anna live?': [1, 0],
      'Who lives in Rome?': [0, 1],
      'Unanswerable here': [1, 0],
    };
    const retrieval = await evaluateRetrieval(t, QUESTIONS, {
      embedQuery: async (texts) => texts.map((x) => Float32Array.from(vectors[x])),
      variants,
      maxTokens: 7,
    });
    const before = JSON.stringify(retrieval);
    const log: EvalChatMessage[][] = [];
    const progress: string[] = [];
    const report = await evaluateAnswers(t, QUESTIONS, retrieval, {
      chat: fakeChat(log),
      keys: [leaves, collapsed],
      judge: true,
      model: 'fake',
      onProgress: (done, total) => progress.push(`${done}/${total}`),
    });
    // Two variants × (one free answer + its verdict + one multiple-choice answer); the evidence-only question is
    // not answered.
    expect(answerCallCount(QUESTIONS, 2, true)).toBe(6);
    expect(log).toHaveLength(6);
    expect(progress.at(-1)).toBe('6/6');
    expect(JSON.stringify(retrieval)).toBe(before);
    // Leaves, budget 7: "Anna lives in Paris." (6 tokens) → answer "Anna lives in Paris." against "in Paris":
    // F1 tokens {anna, lives, in, paris} vs {in, paris}: P 2/4, R 1 → 2/3; ROUGE-L LCS 2: the same.
    const anna = report.perQuestion[0].modes[leaves].answer!;
    expect(anna.text).toBe('Anna lives in Paris.');
    expect(anna.f1).toBeCloseTo(2 / 3, 12);
    expect(anna.rougeL).toBeCloseTo(2 / 3, 12);
    expect(anna).toMatchObject({ judge: 1, judgeReply: 'CORRECT' });
    expect(report.perQuestion[1].modes[leaves].answer).toMatchObject({ picked: 1, correct: true });
    expect(report.perQuestion[2].modes[leaves].answer).toBeUndefined();
    expect(report.modes[leaves].answers).toEqual({
      answered: 2,
      choiceQuestions: 1,
      accuracy: 1,
      referenceQuestions: 1,
      f1: anna.f1,
      rougeL: anna.rougeL,
      judged: 1,
      judge: 1,
    });
    expect(report.answering).toEqual({ keys: [leaves, collapsed], judge: true, model: 'fake' });
    const table = reportTable(report).split('\n');
    expect(table[0]).toMatch(/\| MC accuracy \| token F1 \| ROUGE-L \| judge \|$/);
    expect(table[2]).toMatch(/\| 1\.00 \| 0\.67 \| 0\.67 \| 1\.00 \|$/);
  });

  it('stops at the first failed call', async () => {
    const t = tree();
    const retrieval = await evaluateRetrieval(t, QUESTIONS, {
      embedQuery: async (texts) => texts.map(() => Float32Array.from([1, 0])),
      variants,
    });
    const failing = async () => {
      throw new Error('endpoint down');
    };
    await expect(evaluateAnswers(t, QUESTIONS, retrieval, { chat: failing })).rejects.toThrow(
      'endpoint down',
    );
  });
});

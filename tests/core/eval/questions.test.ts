import { describe, expect, it } from 'vitest';
import { parseCsv, detectDelimiter } from '../../../src/core/eval/csv';
import {
  MAX_ERRORS,
  MAX_QUESTIONS,
  questionSetSummary,
  parseQuestionSet,
  questionSetFormatOf,
  serializeQuestionSet,
} from '../../../src/core/eval/questions';

describe('parseCsv', () => {
  it('reads quoted cells with delimiters, doubled quotes and line breaks, naming the line each record starts on', () => {
    const text = 'question,evidence\r\n"Who, then?","He said ""no""\nand left"\r\n\r\nplain,cell\n';
    expect(parseCsv(text)).toEqual([
      { line: 1, cells: ['question', 'evidence'] },
      { line: 2, cells: ['Who, then?', 'He said "no"\nand left'] },
      { line: 5, cells: ['plain', 'cell'] },
    ]);
  });

  it('reads a quote inside an unquoted cell as a character, and ends an unterminated quote at the end', () => {
    expect(parseCsv('a,b\nsay "hi",x\n"open,y')).toEqual([
      { line: 1, cells: ['a', 'b'] },
      { line: 2, cells: ['say "hi"', 'x'] },
      { line: 3, cells: ['open,y'] },
    ]);
  });

  it('detects semicolons and tabs from the header line, ignoring delimiters inside quotes', () => {
    expect(detectDelimiter('question;answer\nx,y,z;w')).toBe(';');
    expect(detectDelimiter('question\tanswer\n')).toBe('\t');
    expect(detectDelimiter('"a;b;c",d\n')).toBe(',');
    expect(parseCsv('\uFEFFquestion;answer\nWho?;Me')).toEqual([
      { line: 1, cells: ['question', 'answer'] },
      { line: 2, cells: ['Who?', 'Me'] },
    ]);
  });
});

describe('parseQuestionSet (JSONL)', () => {
  it('keeps good rows and names each bad row by its line and field', () => {
    const text = [
      '{"question": "Who is Elizabeth\'s father?", "answer": "Mr. Bennet", "evidence": ["Mr. Bennet was"], "kind": "fact"}',
      '',
      '{"answer": "no question"}',
      'not json',
      '{"question": "Pick one", "choices": ["a", "b", "c"], "gold": 3}',
      '{"question": "Quotes?", "evidence": ["ok", "", 5]}',
      '{"question": "Good MC", "choices": ["a", "b"], "gold": 1, "id": "q7", "goldNode": 12}',
      '["an", "array"]',
    ].join('\n');
    const { questions, errors } = parseQuestionSet(text, 'jsonl');
    expect(questions).toEqual([
      {
        question: "Who is Elizabeth's father?",
        answer: 'Mr. Bennet',
        evidence: ['Mr. Bennet was'],
        kind: 'fact',
      },
      { question: 'Good MC', choices: ['a', 'b'], gold: 1, id: 'q7', goldNode: 12 },
    ]);
    expect(errors.map(({ row, field }) => ({ row, field }))).toEqual([
      { row: 3, field: 'question' },
      { row: 4, field: '' },
      { row: 5, field: 'gold' },
      { row: 6, field: 'evidence[1]' },
      { row: 8, field: '' },
    ]);
    expect(errors[2].message).toContain('past the last of 3 choices');
    expect(errors[1].message).toMatch(/^Not valid JSON/);
  });

  it('reads a number in a text field as its text, and one evidence string as a list of one', () => {
    const { questions, errors } = parseQuestionSet(
      '{"question": "Year?", "answer": 1813, "evidence": "1813"}',
      'jsonl',
    );
    expect(errors).toEqual([]);
    expect(questions).toEqual([{ question: 'Year?', answer: '1813', evidence: ['1813'] }]);
  });

  it('refuses a gold index without choices, a one-choice question and a negative goldNode', () => {
    const text = [
      '{"question": "a", "gold": 0}',
      '{"question": "b", "choices": ["only"]}',
      '{"question": "c", "goldNode": -1}',
    ].join('\n');
    const { questions, errors } = parseQuestionSet(text, 'jsonl');
    expect(questions).toEqual([]);
    expect(errors.map((e) => [e.row, e.field])).toEqual([
      [1, 'gold'],
      [2, 'choices'],
      [3, 'goldNode'],
    ]);
  });

  it("maps QuALITY's article rows (1-based gold_label, options, difficult) onto questions", () => {
    const article = {
      article_id: '51201',
      set_unique_id: '51201_X',
      article: 'SPACEMAN ON A SPREE…',
      questions: [
        {
          question: 'Why is Si retiring?',
          question_unique_id: '51201_X_1',
          options: ['He is old', 'He is rich', 'He is hurt', 'He is bored'],
          gold_label: 2,
          writer_label: 2,
          difficult: 0,
        },
        {
          question: 'What does Si drink?',
          question_unique_id: '51201_X_2',
          options: ['Tea', 'Rum', 'Milk', 'Water'],
          gold_label: 4,
          difficult: 1,
        },
        { question: 'Broken', options: ['a', 'b'], gold_label: 0 },
      ],
    };
    const { questions, errors } = parseQuestionSet(JSON.stringify(article), 'jsonl');
    expect(questions).toEqual([
      {
        id: '51201_X_1',
        question: 'Why is Si retiring?',
        choices: ['He is old', 'He is rich', 'He is hurt', 'He is bored'],
        gold: 1,
      },
      {
        id: '51201_X_2',
        question: 'What does Si drink?',
        choices: ['Tea', 'Rum', 'Milk', 'Water'],
        gold: 3,
        kind: 'hard',
      },
    ]);
    expect(errors).toEqual([
      { row: 1, field: 'questions[2].gold_label', message: 'gold_label counts from 1.' },
    ]);
    // A flattened QuALITY row reads the same way.
    const flat = parseQuestionSet('{"question": "Q?", "options": ["x", "y"], "gold_label": 1}', 'jsonl');
    expect(flat.questions).toEqual([{ question: 'Q?', choices: ['x', 'y'], gold: 0 }]);
  });

  it('reads a whole JSON array item by item, naming bad items by position', () => {
    const text =
      '[\n  {"question": "One?"},\n  {"answer": "x"},\n  {"question": "Three?", "kind": "arc"}\n]\n';
    const { questions, errors } = parseQuestionSet(text, 'jsonl');
    expect(questions).toEqual([{ question: 'One?' }, { question: 'Three?', kind: 'arc' }]);
    expect(errors.map((e) => [e.row, e.field])).toEqual([[2, 'question']]);
    // A line that merely starts with "[" is still JSONL, its bad lines named.
    expect(parseQuestionSet('["not", "an object"]\n{"question": "q"}', 'jsonl')).toMatchObject({
      questions: [{ question: 'q' }],
      errors: [{ row: 1, field: '' }],
    });
  });

  it(`keeps at most ${MAX_QUESTIONS} questions and counts exactly what it read, skipped and left out`, () => {
    // The file: 100,000 rows, of which the old reader kept 10,000 and said "1 row skipped".
    const rows = Array.from({ length: 100_000 }, (_, i) => `{"question": "q${i}"}`);
    const { questions, errors, counts } = parseQuestionSet(rows.join('\n'), 'jsonl');
    expect(questions).toHaveLength(MAX_QUESTIONS);
    expect(errors).toEqual([]);
    expect(counts).toEqual({ read: 100_000, skipped: 0, overLimit: 90_000 });
    expect(questionSetSummary(counts)).toBe(
      '100,000 questions read, the first 10,000 kept, 90,000 over the 10,000-question limit left out, ' +
        '0 rows skipped',
    );
  });

  it('counts a bad row once however many fields are wrong, and every bad row past the errors it lists', () => {
    const bad = '{"question": "", "gold": -1}'; // two issues, one row
    const lines = [
      bad,
      '{"question": "ok"}',
      'not json',
      ...Array.from({ length: MAX_ERRORS + 5 }, () => bad),
    ];
    const { questions, errors, counts } = parseQuestionSet(lines.join('\n'), 'jsonl');
    expect(questions).toEqual([{ question: 'ok' }]);
    expect(counts).toEqual({ read: 1, skipped: MAX_ERRORS + 7, overLimit: 0 });
    expect(errors).toHaveLength(MAX_ERRORS);
    expect(questionSetSummary(counts)).toBe('1 question read, 1,007 rows skipped');
  });
});

describe('parseQuestionSet (CSV)', () => {
  it('reads the same columns, lists as JSON arrays or one item per line, and names bad rows', () => {
    const text = [
      'Question,Answer,Evidence,Choices,Gold,Kind',
      'Who wrote it?,Austen,"[""It is a truth"", ""universally acknowledged""]",,,fact',
      '"Which one?",,"first quote',
      'second quote","red',
      'green',
      'blue",2,',
      ',orphan answer,,,,',
      'Bad gold,,,"[""a"",""b""]",x,',
    ].join('\n');
    const { questions, errors } = parseQuestionSet(text, 'csv');
    expect(questions).toEqual([
      {
        question: 'Who wrote it?',
        answer: 'Austen',
        evidence: ['It is a truth', 'universally acknowledged'],
        kind: 'fact',
      },
      {
        question: 'Which one?',
        evidence: ['first quote', 'second quote'],
        choices: ['red', 'green', 'blue'],
        gold: 2,
      },
    ]);
    expect(errors.map((e) => [e.row, e.field])).toEqual([
      [7, 'question'],
      [8, 'gold'],
    ]);
  });

  it('names the header when it has no question column', () => {
    const { questions, errors } = parseQuestionSet('q,a\nWho?,Me\n', 'csv');
    expect(questions).toEqual([]);
    expect(errors).toEqual([
      { row: 1, field: 'question', message: expect.stringContaining('no “question” column') },
    ]);
  });

  it('reads a goldNode column and an empty file', () => {
    expect(parseQuestionSet('question,goldnode\nWhat?,4\n', 'csv').questions).toEqual([
      { question: 'What?', goldNode: 4 },
    ]);
    expect(parseQuestionSet('', 'csv')).toEqual({
      questions: [],
      errors: [],
      counts: { read: 0, skipped: 0, overLimit: 0 },
    });
    expect(parseQuestionSet('\n\n', 'jsonl')).toEqual({
      questions: [],
      errors: [],
      counts: { read: 0, skipped: 0, overLimit: 0 },
    });
  });
});

describe('question set files', () => {
  it('picks the format by extension and writes JSONL that reads back the same', () => {
    expect(questionSetFormatOf('gold.CSV')).toBe('csv');
    expect(questionSetFormatOf('set.tsv')).toBe('csv');
    expect(questionSetFormatOf('gold.jsonl')).toBe('jsonl');
    const set = [
      { question: 'a?', evidence: ['x "y"'], kind: 'fact' },
      { question: 'b?', choices: ['1', '2'], gold: 0, goldNode: 3 },
    ];
    expect(parseQuestionSet(serializeQuestionSet(set), 'jsonl')).toEqual({
      questions: set,
      errors: [],
      counts: { read: set.length, skipped: 0, overLimit: 0 },
    });
  });
});

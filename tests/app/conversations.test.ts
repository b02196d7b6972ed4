/** A question's results as a stored turn, the turns as history, the Markdown export, and question limits. */
import { describe, expect, it } from 'vitest';
import { conversationFileName, conversationMarkdown } from '../../src/app/conversations/markdown';
import { MAX_QUESTION_CHARS, questionProblem } from '../../src/app/conversations/question';
import { earlierTurns, treeStampOf, turnFromResults, turnsBefore } from '../../src/app/conversations/turns';
import { defaultRetrievalSettings } from '../../src/app/state/retrieval-options';
import type { AskResults } from '../../src/app/state/types';
import type { ConversationRecord } from '../../src/storage';

const results: AskResults = {
  question: 'And her father?',
  search: 'Who is Elizabeth? And her father?',
  results: {
    collapsed: {
      mode: 'collapsed',
      tokens: 30,
      passages: [
        { id: 7, layer: 1, score: 0.5, tokens: 20, text: 'Mr. Bennet is her father. He reads.' },
        {
          id: 2,
          layer: 0,
          score: 0.4,
          tokens: 10,
          text: 'Mr. Bennet is her father. He laughs.',
          excerpt: { text: 'He laughs.', omitted: 1 },
        },
      ],
    },
    leaves: {
      mode: 'leaves',
      tokens: 10,
      passages: [{ id: 2, layer: 0, score: 0.4, tokens: 10, text: 'x' }],
    },
  },
  answer: {
    mode: 'collapsed',
    text: 'Mr. Bennet [1], who laughs [2].',
    streaming: false,
    citations: [
      { n: 1, nodeId: 7 },
      { n: 2, nodeId: 2 },
    ],
    writer: 'gpt-test',
  },
};

const settings = { ...defaultRetrievalSettings(2), search: 'both' as const, rerank: true };
const turn = turnFromResults({ id: 't1', results, settings, rewrite: 'joined', treeStamp: 's1', askedAt: 0 });

describe('turnFromResults', () => {
  it('keeps the question, what was searched, the ids per mode, the context as it was sent and the answer', () => {
    expect(turn).toMatchObject({
      id: 't1',
      question: 'And her father?',
      search: 'Who is Elizabeth? And her father?',
      rewrite: 'joined',
      settings: { mode: 'collapsed', search: 'both', rerank: true, distinct: true, maxTokens: 2000 },
      retrieved: { collapsed: [7, 2], leaves: [2] },
      treeStamp: 's1',
      answer: { text: 'Mr. Bennet [1], who laughs [2].', writer: 'gpt-test' },
    });
    expect(turn.passages).toEqual([
      { id: 7, layer: 1, text: 'Mr. Bennet is her father. He reads.' },
      { id: 2, layer: 0, text: 'He laughs.' },
    ]);
  });

  it('records traversal’s top-k and the budget of the passages it read by keywords', () => {
    const t = turnFromResults({
      id: 't',
      results: { question: 'Q', results: {} },
      settings: { ...settings, mode: 'traversal' },
      rewrite: 'none',
      treeStamp: 's',
      askedAt: 0,
    });
    expect(t.settings).toEqual({
      mode: 'traversal',
      search: 'both',
      rerank: true,
      distinct: true,
      topK: 5,
      maxTokens: 2000,
    });
    expect(t.search).toBe('Q');
    expect(t.answer).toBeUndefined();
  });
});

describe('earlierTurns and turnsBefore', () => {
  it('gives answered turns their answer, not a failed one’s partial text', () => {
    const failed = { ...turn, id: 't2', answer: { text: 'Half', citations: [], error: 'Stopped.' } };
    expect(earlierTurns([turn, failed])).toEqual([
      {
        question: 'And her father?',
        search: 'Who is Elizabeth? And her father?',
        answer: 'Mr. Bennet [1], who laughs [2].',
      },
      { question: 'And her father?', search: 'Who is Elizabeth? And her father?' },
    ]);
  });

  it('lists every turn but the one whose results are on screen', () => {
    const first = { ...turn, id: 't0', question: 'Who is Elizabeth?' };
    expect(turnsBefore([first, turn], results).map((t) => t.id)).toEqual(['t0']);
    expect(turnsBefore([first, turn], undefined).map((t) => t.id)).toEqual(['t0', 't1']);
  });

  it('stamps a build by its creation time and node count', () => {
    expect(treeStampOf({ createdAt: '2026-01-01T00:00:00Z', nodes: [{}, {}] as never })).toBe(
      '2026-01-01T00:00:00Z#2',
    );
  });
});

describe('conversationMarkdown', () => {
  const record: ConversationRecord = {
    id: 'c',
    treeId: 'tree',
    kind: 'conversation',
    title: 'Who is Elizabeth?',
    createdAt: Date.UTC(2026, 0, 2, 3, 4),
    updatedAt: 0,
    turnCount: 2,
  };
  const turns = [
    turn,
    {
      ...turn,
      id: 't2',
      treeStamp: 's2',
      answer: undefined,
      rewrite: 'none' as const,
      search: 'And her father?',
    },
  ];

  it('gives each source its place in the documents (a PDF page) and whether the answer cites it', () => {
    const placed = [
      {
        ...turn,
        passages: [
          { ...turn.passages[0], where: 'report.pdf, pages 3–4' },
          { ...turn.passages[1], where: 'report <b>1</b>.pdf, page 7' },
          { id: 9, layer: 0, text: 'Not used.', where: 'report.pdf, page 9' },
        ],
      },
    ];
    const md = conversationMarkdown({ ...record, turnCount: 1 }, placed, 'Report');
    expect(md).toContain('\\[1\\] Node 7 (layer 1 summary) · report.pdf, pages 3–4 · cited\n\n> Mr. Bennet');
    // A file's name is text too: its HTML is escaped.
    expect(md).toContain(
      '\\[2\\] Node 2 (leaf) · report &lt;b&gt;1&lt;/b&gt;.pdf, page 7 · cited\n\n> He laughs.',
    );
    expect(md).toContain('\\[3\\] Node 9 (leaf) · report.pdf, page 9 · not cited\n\n> Not used.');
  });

  it('writes every question with its search, settings, answer and numbered sources', () => {
    const md = conversationMarkdown(record, turns, 'Pride and Prejudice', 's2');
    expect(md).toContain('# Who is Elizabeth?');
    expect(md).toContain(
      'Questions to “Pride and Prejudice” in Aerie · started 2026-01-02 03:04 UTC · 2 questions',
    );
    expect(md).toContain('## 1. And her father?');
    expect(md).toContain(
      '*Searched for (joined with the questions before):* Who is Elizabeth? And her father?',
    );
    expect(md).toContain('*Retrieval:* collapsed tree, search by both, 2000 tokens, reranked');
    // Citations are text: escaped so no viewer reads them as links.
    expect(md).toContain('Mr. Bennet \\[1\\], who laughs \\[2\\].\n\n*Written by gpt-test.*');
    expect(md).toContain(
      '**Sources**\n\n\\[1\\] Node 7 (layer 1 summary) · cited\n\n> Mr. Bennet is her father. He reads.',
    );
    expect(md).toContain('\\[2\\] Node 2 (leaf) · cited\n\n> He laughs.');
    // The first turn was asked of the earlier build; the second has no answer, so its passages are listed.
    expect(md.indexOf('node numbers refer to the earlier build')).toBeLessThan(md.indexOf('## 2.'));
    expect(md).toContain('## 2. And her father?\n\n*Retrieval:*');
    expect(md).toContain('**Retrieved passages**');
    expect(md.endsWith('\n')).toBe(true);
  });

  it('quotes every line of a passage, so document text cannot open its own headings', () => {
    const tricky = { ...turn, passages: [{ id: 1, layer: 0, text: 'line one\n# not a heading' }] };
    const md = conversationMarkdown(record, [tricky], 'T');
    expect(md).toContain('> line one\n> \\# not a heading');
  });

  it('names the file after the title', () => {
    expect(conversationFileName(record)).toBe('who-is-elizabeth.md');
    expect(conversationFileName({ ...record, title: '???' })).toBe('conversation.md');
  });
});

describe('questionProblem', () => {
  it('refuses an empty question and one over the limit, with the numbers', () => {
    expect(questionProblem('  ')).toBe('Type a question first.');
    expect(questionProblem('x'.repeat(10_000))).toBe(
      `Questions can be up to ${MAX_QUESTION_CHARS.toLocaleString('en')} characters; this one has 10,000. ` +
        'Shorten it to what you want to find (it stays in the box).',
    );
    expect(questionProblem('起初神创造天地。谁创造了天地？')).toBeUndefined();
  });
});

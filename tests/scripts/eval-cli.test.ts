/**
 * `npm run eval` on the same core in Node: a document built with the offline GloVe model and extractive
 * summaries (or an LLM's, here the FAKE LLM server over real HTTP), a saved tree evaluated again, the report's
 * modes, and the command line's mistakes.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEvalArgs, UsageError, type EvalArgs } from '../../scripts/eval/args';
import { progressReporter, runEval, variantsOf, type EvalOutput } from '../../scripts/eval/run';
import { MAX_QUESTIONS, MAX_SET_FILE_BYTES } from '../../src/core/eval';
import { DEFAULT_SEARCH, SEARCH_MODES } from '../../src/core/search';
import { startFakeLlmServer, type FakeLlmServer } from '../support/llm-server';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');
const DOCUMENT = join(FIXTURES, 'cinderella.txt');
const QUESTIONS = join(FIXTURES, 'eval', 'cinderella.jsonl');
const dir = mkdtempSync(join(tmpdir(), 'aerie-eval-'));

const args = (argv: string[]) => parseEvalArgs(argv) as EvalArgs;

describe('the command line', () => {
  it('reads the documented options', () => {
    expect(
      args([
        'book.txt',
        '--questions',
        'set.csv',
        '--out=r.json',
        '--llm',
        'http://127.0.0.1:1/v1',
        '--model',
        'm',
        '--judge',
        '--search',
        'meaning,both',
        '--max-tokens',
        '500',
      ]),
    ).toMatchObject({
      input: 'book.txt',
      questions: 'set.csv',
      out: 'r.json',
      llm: { url: 'http://127.0.0.1:1/v1', model: 'm', protocol: 'openai' },
      judge: true,
      search: ['meaning', 'both'],
      modes: ['collapsed', 'traversal', 'leaves'],
      maxTokens: 500,
      answers: 'default',
    });
    expect(parseEvalArgs(['--help'])).toBeUndefined();
  });

  it.each([
    [['book.txt'], '--questions'],
    [['--questions', 'q.jsonl'], 'Name a document'],
    [['a', 'b', '--questions', 'q'], 'One input only'],
    [['a', '--questions', 'q', '--llm', 'http://x'], 'go together'],
    [['a', '--questions', 'q', '--judge'], '--judge needs --llm'],
    [['a', '--questions', 'q', '--search', 'fuzzy'], 'meaning, keywords, both'],
    [['a', '--questions', 'q', '--max-tokens', '0'], 'whole number'],
    [['a', '--questions', 'q', '--embeddings', 'file:///etc'], 'http(s) URL'],
    [['a', '--questions', 'q', '--bogus', '1'], 'Unknown option --bogus'],
  ])('refuses %j, saying %s', (argv, message) => {
    expect(() => parseEvalArgs(argv)).toThrow(UsageError);
    expect(() => parseEvalArgs(argv)).toThrow(message);
  });

  it('runs the default search first', () => {
    const keys = variantsOf({ modes: ['collapsed', 'leaves'], search: [...SEARCH_MODES].reverse() });
    expect(keys[0]).toEqual({ mode: 'collapsed', search: DEFAULT_SEARCH });
    expect(keys).toHaveLength(6);
  });
});

describe('npm run eval on a document and on its saved tree', () => {
  let built: EvalOutput;
  let table: string;
  const log: string[] = [];

  beforeAll(async () => {
    const result = await runEval(
      args([
        DOCUMENT,
        '--questions',
        QUESTIONS,
        '--out',
        join(dir, 'a.json'),
        '--save-tree',
        join(dir, 'c.raptor.json'),
      ]),
      (line) => log.push(line),
    );
    built = result.report;
    table = result.table;
  });

  it('builds the document with the offline model and extractive summaries, and reports every mode × search', () => {
    expect(built.run).toMatchObject({
      input: 'cinderella.txt',
      questions: 'cinderella.jsonl',
      built: true,
      skippedRows: 0,
    });
    expect(built.tree).toMatchObject({ embedding: 'local:aerie-glove-100d', summarizer: 'extractive' });
    expect(built.questions).toBe(8);
    expect(built.scored).toBe(7);
    const keys = Object.keys(built.modes);
    expect(keys.slice(0, 3)).toEqual(['collapsed', 'traversal', 'leaves']);
    expect(keys).toHaveLength(9);
    for (const mode of Object.values(built.modes)) {
      expect(mode.questions).toBe(7);
      for (const field of ['evidenceRecall', 'mrr', 'contextTokens', 'timeMs'] as const) {
        expect(mode[field]).toEqual(expect.any(Number));
      }
      expect(mode.layers.reduce((s, x) => s + x, 0)).toBeCloseTo(1, 12);
    }
    // Leaves never return a summary; collapsed keeps within the budget.
    expect(built.modes.leaves.layers.slice(1).every((s) => s === 0)).toBe(true);
    expect(built.perQuestion.every((q) => q.modes.collapsed.tokens <= 2000)).toBe(true);
    // The written file is the returned report.
    expect(JSON.parse(readFileSync(join(dir, 'a.json'), 'utf8'))).toEqual(JSON.parse(JSON.stringify(built)));
    expect(table.split('\n')[0]).toMatch(
      /^\| mode \| questions \| evidence recall \| recall: arc \| recall: fact \| MRR/,
    );
    expect(table.split('\n')).toHaveLength(2 + 9);
    expect(
      log.some((l) => l.startsWith('Building cinderella.txt (local:aerie-glove-100d, extractive summaries)')),
    ).toBe(true);
  });

  it('gives the same retrieval when evaluating the saved tree', async () => {
    const { report } = await runEval(
      args([join(dir, 'c.raptor.json'), '--questions', QUESTIONS, '--quiet']),
      () => {},
    );
    expect(report.run.built).toBe(false);
    for (const [i, q] of report.perQuestion.entries()) {
      for (const key of Object.keys(q.modes)) {
        expect(q.modes[key].nodes).toEqual(built.perQuestion[i].modes[key].nodes);
        expect(q.modes[key].recall).toEqual(built.perQuestion[i].modes[key].recall);
      }
    }
  });

  it('reports the bad rows of a question set and runs the good ones', async () => {
    const { writeFileSync } = await import('node:fs');
    const set = join(dir, 'mixed.csv');
    writeFileSync(set, "question,evidence\nWho planted the branch?,her mother's grave\n,orphan\n");
    const lines: string[] = [];
    const { report } = await runEval(
      args([join(dir, 'c.raptor.json'), '--questions', set, '--modes', 'leaves', '--search', 'meaning']),
      (l) => lines.push(l),
    );
    expect(lines).toContain('mixed.csv: row 3, question: The question is missing or empty.');
    expect(report.questions).toBe(1);
    expect(report.run.skippedRows).toBe(1);
    expect(Object.keys(report.modes)).toHaveLength(1);
  });

  it('says which model a tree needs when it is not on this machine', async () => {
    const { writeFileSync } = await import('node:fs');
    const tree = JSON.parse(readFileSync(join(dir, 'c.raptor.json'), 'utf8')) as {
      embedding: { model: string };
    };
    tree.embedding.model = 'Xenova/not-here';
    writeFileSync(join(dir, 'hub.raptor.json'), JSON.stringify(tree));
    await expect(
      runEval(args([join(dir, 'hub.raptor.json'), '--questions', QUESTIONS]), () => {}),
    ).rejects.toThrow(/must be embedded with Xenova\/not-here, which is not in .*--models-dir/);
    tree.embedding.model = 'openai:text-embedding-3-small';
    writeFileSync(join(dir, 'api.raptor.json'), JSON.stringify(tree));
    await expect(
      runEval(args([join(dir, 'api.raptor.json'), '--questions', QUESTIONS]), () => {}),
    ).rejects.toThrow(/--embeddings <url>/);
  });
});

describe('npm run eval with an LLM (the fake server, over HTTP)', () => {
  let server: FakeLlmServer;
  beforeAll(async () => {
    server = await startFakeLlmServer();
  });
  afterAll(() => server.close());

  it('builds with LLM summaries, then answers and judges with the default search modes', async () => {
    const { report, table } = await runEval(
      args([
        DOCUMENT,
        '--questions',
        QUESTIONS,
        '--llm',
        server.openaiBaseUrl,
        '--model',
        'fake-model',
        '--judge',
        '--modes',
        'collapsed,leaves',
        '--search',
        'meaning',
      ]),
      () => {},
    );
    const requests = server.modelRequests;
    const summaries = requests.filter((r) => JSON.stringify(r.body).includes('Summarizing Text Portal'));
    expect(report.tree.summarizer).toBe('llm:fake-model');
    expect(summaries.length).toBe(report.tree.nodesPerLayer.slice(1).reduce((s, n) => s + n, 0));
    // 8 answerable questions (7 with a reference, 1 multiple choice) × 2 modes, and a verdict per free answer.
    const evaluation = requests.length - summaries.length;
    expect(evaluation).toBe(2 * (8 + 7));
    const key = DEFAULT_SEARCH === 'meaning' ? 'collapsed' : 'collapsed:meaning';
    expect(report.answering).toEqual({
      keys: [key, key.replace('collapsed', 'leaves')],
      judge: true,
      model: 'fake-model',
    });
    expect(report.modes[key].answers).toMatchObject({
      answered: 8,
      choiceQuestions: 1,
      referenceQuestions: 7,
    });
    expect(report.modes[key].answers!.f1).toEqual(expect.any(Number));
    expect(table.split('\n')[0]).toContain('| MC accuracy | token F1 | ROUGE-L |');
    // Nothing else was contacted: every request went to the one endpoint given.
    expect(requests.every((r) => r.path === '/v1/chat/completions')).toBe(true);
  });
});

describe('npm run eval checks every argument before any work (issue 34)', () => {
  const OWN_SET = join(dir, 'own-set.jsonl');
  beforeAll(() => copyFileSync(QUESTIONS, OWN_SET));
  const log: string[] = [];
  const run = (argv: string[]) => runEval(args(argv), (line) => log.push(line));
  const built = () => log.some((l) => l.startsWith('Building'));

  it.each([
    [
      '--out names a folder',
      () => [DOCUMENT, '--questions', QUESTIONS, '--out', dir],
      /--out\) .* is a folder; name a file in it/,
    ],
    [
      '--out is in a folder that does not exist',
      () => [DOCUMENT, '--questions', QUESTIONS, '--out', join(dir, 'nowhere', 'r.json')],
      /The report \(--out\) .*nowhere\/r\.json cannot be written: .*nowhere does not exist\. Nothing was built\./,
    ],
    [
      '--out would overwrite the question set',
      // A copy: code that did not check would write its report over it.
      () => [DOCUMENT, '--questions', OWN_SET, '--out', OWN_SET],
      /is the question set .*own-set\.jsonl; writing it would destroy it\. Name another file\./,
    ],
    [
      '--save-tree names a folder',
      () => [DOCUMENT, '--questions', QUESTIONS, '--save-tree', dir],
      /--save-tree\) .* is a folder/,
    ],
    [
      'the question set is missing',
      () => [DOCUMENT, '--questions', join(dir, 'missing.jsonl')],
      /^The question set .*missing\.jsonl does not exist\.$/,
    ],
    [
      'the document is missing',
      () => [join(dir, 'missing.txt'), '--questions', QUESTIONS],
      /^The document .*missing\.txt does not exist\.$/,
    ],
    [
      'the question set is a folder',
      () => [DOCUMENT, '--questions', dir],
      /^The question set .* is a folder, not a file\.$/,
    ],
    [
      'the models folder does not exist',
      () => [DOCUMENT, '--questions', QUESTIONS, '--models-dir', join(dir, 'no-models')],
      /The models folder \(--models-dir\) .*no-models does not exist/,
    ],
  ])('refuses at once when %s, with a sentence', async (_, argv, message) => {
    log.length = 0;
    const error = await run(argv()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toMatch(/\bE[A-Z]{3,}\b/);
    expect(built()).toBe(false);
  });

  it('refuses a question set over the app’s 20 MB limit before reading it', async () => {
    const { truncateSync, writeFileSync } = await import('node:fs');
    const big = join(dir, 'big.jsonl');
    writeFileSync(big, '');
    truncateSync(big, MAX_SET_FILE_BYTES + 1); // sparse: nothing is written
    log.length = 0;
    await expect(run([DOCUMENT, '--questions', big])).rejects.toThrow(
      /big\.jsonl is 20 MB; a question set can be up to 20 MB \(10,000 questions\)/,
    );
    expect(built()).toBe(false);
  });

  it('reports a question set over the question limit in exact counts', async () => {
    const { writeFileSync } = await import('node:fs');
    const many = join(dir, 'many.jsonl');
    writeFileSync(
      many,
      Array.from({ length: MAX_QUESTIONS + 5 }, (_, i) => `{"question": "Who is number ${i}?"}`).join('\n'),
    );
    // A tree whose model is not here stops the run right after the set is read: the counts are said first.
    const tree = JSON.parse(readFileSync(join(dir, 'c.raptor.json'), 'utf8')) as {
      embedding: { model: string };
    };
    tree.embedding.model = 'Xenova/not-here';
    writeFileSync(join(dir, 'elsewhere.raptor.json'), JSON.stringify(tree));
    log.length = 0;
    await expect(run([join(dir, 'elsewhere.raptor.json'), '--questions', many])).rejects.toThrow(/not-here/);
    expect(log).toContain(
      'many.jsonl: 10,005 questions read, the first 10,000 kept, 5 over the 10,000-question limit left out, ' +
        '0 rows skipped.',
    );
  });

  it('speaks in sentences from the command line too, never a raw errno', () => {
    const result = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        join(import.meta.dirname, '..', '..', 'scripts', 'eval', 'cli.ts'),
        join(dir, 'nope.txt'),
        '--questions',
        QUESTIONS,
      ],
      { encoding: 'utf8' },
    );
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toMatch(/^The document .*nope\.txt does not exist\.$/);
    expect(result.stderr).not.toMatch(/ENOENT|errno|at .*\.ts:\d+/);
  });
});

describe('progressReporter', () => {
  it('says the first step, then at most one line every 5 s, and the last', () => {
    const lines: string[] = [];
    let t = 0;
    const report = progressReporter(
      (l) => lines.push(l),
      () => t,
    );
    for (let done = 0; done <= 1000; done++) {
      t = done * 20; // 20 ms a question: 20 s in all
      report('answering', done, 1000);
    }
    expect(lines).toEqual([
      '  answering 0 / 1,000 (0%)',
      '  answering 250 / 1,000 (25%)',
      '  answering 500 / 1,000 (50%)',
      '  answering 750 / 1,000 (75%)',
      '  answering 1,000 / 1,000 (100%)',
    ]);
  });
});

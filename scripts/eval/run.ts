/**
 * `npm run eval` as a function (the command, the bench and tests share it): read the question set, open or
 * build the tree, run every variant on every question on the core's `evaluateRetrieval`, answer with the LLM
 * when one is given (`evaluateAnswers`), write the JSON report and return the Markdown table.
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import {
  defaultAnswerKeys,
  evaluateAnswers,
  evaluateRetrieval,
  parseQuestionSet,
  questionSetFormatOf,
  questionSetSummary,
  reportTable,
  type EvalVariant,
  type RetrievalReport,
} from '../../src/core/eval';
import { DEFAULT_SEARCH } from '../../src/core/search';
import { serializeTree } from '../../src/core/tree-format';
import { endpointEvalChat } from '../../src/llm';
import type { EvalArgs } from './args';
import { closeOutput, writeOutput } from './output-files';
import { checkEvalArgs, type PreparedOutputs } from './preflight';
import { DEFAULT_MODELS_DIR, EvalInputError, llmEndpoint, openTreeSource } from './tree-source';

/** What the command wrote besides the core's report: where its inputs came from. */
export interface EvalRunInfo {
  input: string;
  questions: string;
  /** The tree was built from the document in this run, in `buildMs`. */
  built: boolean;
  buildMs?: number;
  /** Rows of the question set that could not be read. */
  skippedRows: number;
  /** Good questions of the set past the most one set holds (`MAX_QUESTIONS`), left out. */
  overLimit: number;
}

/** How often a long stage reports its progress on stderr, ms. */
export const PROGRESS_LOG_MS = 5_000;

/**
 * A stage's progress as lines on stderr: its first step, then at most one line every PROGRESS_LOG_MS, and its
 * last ("  retrieving 1,200 / 3,000 (40%)").
 */
export function progressReporter(
  log: (line: string) => void,
  now: () => number = Date.now,
): (what: string, done: number, total: number) => void {
  let last = -Infinity;
  let lastWhat = '';
  return (what, done, total) => {
    const t = now();
    const edge = what !== lastWhat || done === total;
    if (!edge && t - last < PROGRESS_LOG_MS) return;
    last = t;
    lastWhat = what;
    const share = total > 0 ? ` (${Math.floor((100 * done) / total)}%)` : '';
    log(`  ${what} ${done.toLocaleString('en')} / ${total.toLocaleString('en')}${share}`);
  };
}

/** The JSON file `--out` writes. */
export type EvalOutput = RetrievalReport & { run: EvalRunInfo };

/** What a run gives back. */
export interface EvalResult {
  report: EvalOutput;
  /** The Markdown table printed on stdout. */
  table: string;
}

/** The variants of the command line: every mode for each search setting, the default search first. */
export function variantsOf(args: Pick<EvalArgs, 'modes' | 'search'>): EvalVariant[] {
  const searches = [...args.search].sort(
    (a, b) => Number(b === DEFAULT_SEARCH) - Number(a === DEFAULT_SEARCH),
  );
  return searches.flatMap((search) => args.modes.map((mode) => ({ mode, search })));
}

/**
 * Runs the evaluation the arguments describe. Progress and the question set's bad rows go to `log`.
 * @throws EvalInputError for a question set with no good row or a tree whose model is not here; what the core,
 *   the build and the endpoints throw; AbortError when `signal` fires.
 */
export async function runEval(
  args: EvalArgs,
  log: (line: string) => void,
  signal?: AbortSignal,
): Promise<EvalResult> {
  // Every argument is checked before the build: a mistake found after it would cost the whole build.
  const outputs = await checkEvalArgs(args, args.modelsDir ?? DEFAULT_MODELS_DIR);
  try {
    return await evaluate(args, outputs, log, signal);
  } finally {
    await closeOutput(outputs.out);
    await closeOutput(outputs.saveTree);
  }
}

/** `runEval` once its arguments are checked and its outputs prepared. */
async function evaluate(
  args: EvalArgs,
  outputs: PreparedOutputs,
  log: (line: string) => void,
  signal?: AbortSignal,
): Promise<EvalResult> {
  const setText = await readFile(args.questions, 'utf8');
  const { questions, errors, counts } = parseQuestionSet(setText, questionSetFormatOf(args.questions));
  const setName = basename(args.questions);
  for (const e of errors) log(`${setName}: row ${e.row}${e.field ? `, ${e.field}` : ''}: ${e.message}`);
  if (counts.skipped > errors.length)
    log(`${setName}: … and ${counts.skipped - errors.length} more bad rows.`);
  log(`${setName}: ${questionSetSummary(counts)}.`);
  if (questions.length === 0)
    throw new EvalInputError(`${args.questions} holds no question that could be read.`);

  const source = await openTreeSource(args, log);
  try {
    if (outputs.saveTree) await writeOutput(outputs.saveTree, serializeTree(source.tree), outputs.inputs);
    const variants = variantsOf(args);
    log(
      `Evaluating ${questions.length} questions × ${variants.length} settings on ${source.tree.nodes.length} nodes…`,
    );
    const retrieving = progressReporter(log);
    let report = await evaluateRetrieval(source.tree, questions, {
      embedQuery: source.embedQuery,
      variants,
      maxTokens: args.maxTokens,
      traversalTopK: args.topK,
      signal,
      onProgress: (p) =>
        retrieving(p.stage === 'embed' ? 'embedding questions' : 'retrieving', p.done, p.total),
    });
    const llm = llmEndpoint(args);
    if (llm && args.answers !== 'none') {
      const keys = args.answers === 'all' ? Object.keys(report.modes) : answerKeys(report);
      log(`Answering with ${llm.model} (${keys.join(', ')}${args.judge ? ', judged' : ''})…`);
      const answering = progressReporter(log);
      report = await evaluateAnswers(source.tree, questions, report, {
        chat: endpointEvalChat(llm),
        keys,
        judge: args.judge,
        model: llm.model,
        signal,
        onProgress: (done, total) => answering('answering', done, total),
      });
    }
    for (const warning of report.warnings) log(warning);
    const run: EvalRunInfo = {
      input: basename(args.input),
      questions: basename(args.questions),
      built: source.built,
      skippedRows: counts.skipped,
      overLimit: counts.overLimit,
    };
    if (source.buildMs !== undefined) run.buildMs = source.buildMs;
    const output: EvalOutput = { ...report, run };
    if (outputs.out) await writeOutput(outputs.out, JSON.stringify(output, null, 2) + '\n', outputs.inputs);
    return { report: output, table: reportTable(report) };
  } finally {
    await source.dispose();
  }
}

/** The default answer keys, or the first search setting's modes when the default search was not run. */
function answerKeys(report: RetrievalReport): string[] {
  const keys = defaultAnswerKeys(report);
  if (keys.length > 0) return keys;
  const first = Object.values(report.modes)[0]?.search;
  return Object.values(report.modes)
    .filter((m) => m.search === first && m.rerank === undefined)
    .map((m) => m.key);
}

/**
 * `npm run eval` as a function (the command, the bench and tests share it): read the question set, open or
 * build the tree, run every variant on every question on the core's `evaluateRetrieval`, answer with the LLM
 * when one is given (`evaluateAnswers`), write the JSON report and return the Markdown table.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import {
  defaultAnswerKeys,
  evaluateAnswers,
  evaluateRetrieval,
  parseQuestionSet,
  questionSetFormatOf,
  reportTable,
  type EvalVariant,
  type RetrievalReport,
} from '../../src/core/eval';
import { DEFAULT_SEARCH } from '../../src/core/retrieve';
import { serializeTree } from '../../src/core/tree-format';
import { endpointEvalChat } from '../../src/llm';
import type { EvalArgs } from './args';
import { EvalInputError, llmEndpoint, openTreeSource } from './tree-source';

/** What the command wrote besides the core's report: where its inputs came from. */
export interface EvalRunInfo {
  input: string;
  questions: string;
  /** The tree was built from the document in this run, in `buildMs`. */
  built: boolean;
  buildMs?: number;
  /** Rows of the question set that could not be read. */
  skippedRows: number;
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
  const setText = await readFile(args.questions, 'utf8');
  const { questions, errors } = parseQuestionSet(setText, questionSetFormatOf(args.questions));
  for (const e of errors)
    log(`${basename(args.questions)}: row ${e.row}${e.field ? `, ${e.field}` : ''}: ${e.message}`);
  if (questions.length === 0)
    throw new EvalInputError(`${args.questions} holds no question that could be read.`);

  const source = await openTreeSource(args, log);
  try {
    if (args.saveTree) await writeFile(args.saveTree, serializeTree(source.tree));
    const variants = variantsOf(args);
    log(
      `Evaluating ${questions.length} questions × ${variants.length} settings on ${source.tree.nodes.length} nodes…`,
    );
    let report = await evaluateRetrieval(source.tree, questions, {
      embedQuery: source.embedQuery,
      variants,
      maxTokens: args.maxTokens,
      traversalTopK: args.topK,
      signal,
    });
    const llm = llmEndpoint(args);
    if (llm && args.answers !== 'none') {
      const keys = args.answers === 'all' ? Object.keys(report.modes) : answerKeys(report);
      log(`Answering with ${llm.model} (${keys.join(', ')}${args.judge ? ', judged' : ''})…`);
      report = await evaluateAnswers(source.tree, questions, report, {
        chat: endpointEvalChat(llm),
        keys,
        judge: args.judge,
        model: llm.model,
        signal,
      });
    }
    for (const warning of report.warnings) log(warning);
    const run: EvalRunInfo = {
      input: basename(args.input),
      questions: basename(args.questions),
      built: source.built,
      skippedRows: errors.length,
    };
    if (source.buildMs !== undefined) run.buildMs = source.buildMs;
    const output: EvalOutput = { ...report, run };
    if (args.out) await writeFile(args.out, JSON.stringify(output, null, 2) + '\n');
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

/**
 * `npm run eval -- <document | tree.raptor.json> --questions <set.jsonl | set.csv> [options]`: evaluates
 * retrieval (and answers, with an LLM) on the same core as the app's Evaluate view, writes the JSON report and
 * prints a Markdown table. See scripts/eval/args.ts (or --help) for the options, docs/evaluation.md for the
 * metrics.
 */
import { parseEvalArgs, USAGE, UsageError } from './args';
import { fileErrorSentence } from './preflight';
import { runEval } from './run';

const EXIT_FAILED = 1;
const EXIT_USAGE = 2;
const EXIT_INTERRUPTED = 130;

async function main(): Promise<number> {
  let args;
  try {
    args = parseEvalArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${error.message}\n\n${USAGE}`);
    return EXIT_USAGE;
  }
  if (!args) {
    console.log(USAGE);
    return 0;
  }
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  const log = args.quiet ? () => {} : (line: string) => console.error(line);
  try {
    const { table } = await runEval(args, log, controller.signal);
    console.log(table);
    if (args.out) log(`Report written to ${args.out}.`);
    return 0;
  } catch (error) {
    if (error instanceof Error && error.name === 'AbortError') {
      console.error('Stopped.');
      return EXIT_INTERRUPTED;
    }
    // A sentence, never a bare errno: file-system errors are described (preflight.ts).
    console.error(fileErrorSentence(error));
    return EXIT_FAILED;
  }
}

process.exitCode = await main();

/**
 * The command line of `npm run eval`: what it reads, which endpoints it may call, what it writes. API keys come
 * from environment variables only (AERIE_LLM_API_KEY, AERIE_EMBEDDINGS_API_KEY), never from arguments, which
 * other users of the machine can read in the process list.
 */
import { SEARCH_MODES, type SearchMode } from '../../src/core/search';
import { RETRIEVAL_MODES, type RetrievalMode } from '../../src/core/eval';

/** How answers are evaluated: not at all, with the default search's modes, or with every variant. */
export type AnswerScope = 'none' | 'default' | 'all';

/** What `npm run eval` was asked to do. */
export interface EvalArgs {
  /** A document (text, Markdown, HTML, PDF, Word) to build, or a `.raptor.json` tree to load. */
  input: string;
  /** The question set (`.jsonl`, or `.csv`/`.tsv`). */
  questions: string;
  /** Where to write the JSON report. */
  out?: string;
  /** Where to write the tree built from a document (`.raptor.json`), to evaluate it again without a build. */
  saveTree?: string;
  /** OpenAI-compatible embeddings endpoint (base URL, e.g. http://localhost:11434/v1) and its model. */
  embeddings?: { url: string; model: string };
  /** The LLM: summaries of a document's tree, and answers. */
  llm?: { url: string; model: string; protocol: 'openai' | 'anthropic' };
  modes: RetrievalMode[];
  search: SearchMode[];
  maxTokens?: number;
  topK?: number;
  /** With an LLM: which variants' contexts are answered. Default 'default'. */
  answers: AnswerScope;
  /** With an LLM: judge every free answer. */
  judge: boolean;
  /** Folder of local models (`local:<name>` trees), default the app's public/models. */
  modelsDir?: string;
  /** No progress on stderr. */
  quiet: boolean;
}

/** The usage text, printed by --help and after a mistake. */
export const USAGE = `Usage: npm run eval -- <document | tree.raptor.json> --questions <set.jsonl | set.csv> [options]

  --out <file.json>          write the JSON report (modes, per-question results)
  --save-tree <file>         write the tree built from a document (.raptor.json)
  --embeddings <url>         OpenAI-compatible embeddings endpoint (key: AERIE_EMBEDDINGS_API_KEY)
  --embeddings-model <id>    its model (default text-embedding-3-small)
  --llm <url> --model <id>   LLM for summaries and answers (key: AERIE_LLM_API_KEY)
  --protocol <p>             openai (default) or anthropic
  --modes <list>             collapsed,traversal,leaves (default: all)
  --search <list>            meaning,keywords,both (default: all)
  --max-tokens <n>           context budget of collapsed and leaves (default 2000)
  --top-k <n>                nodes per layer in traversal (default 5)
  --answers <scope>          with --llm: none, default (the default search's modes) or all
  --judge                    with --llm: an LLM judge on every free answer
  --models-dir <dir>         folder of local models (default public/models)
  --quiet                    no progress on stderr

A document is built first, with the offline GloVe model and extractive summaries unless endpoints are given.
Nothing but the given endpoints is contacted.`;

/** A command line that cannot run, with what to fix. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

const DEFAULT_EMBEDDINGS_MODEL = 'text-embedding-3-small';

function list<T extends string>(value: string, allowed: readonly T[], flag: string): T[] {
  const items = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = items.filter((i) => !allowed.includes(i as T));
  if (items.length === 0 || bad.length > 0) {
    throw new UsageError(`${flag} takes a list of ${allowed.join(', ')}; got "${value}".`);
  }
  return [...new Set(items)] as T[];
}

function positiveInteger(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`${flag} takes a whole number ≥ 1; got "${value}".`);
  return n;
}

function url(value: string, flag: string): string {
  try {
    const parsed = new URL(value);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error();
  } catch {
    throw new UsageError(`${flag} takes an http(s) URL; got "${value}".`);
  }
  return value;
}

/** Reads the arguments after `npm run eval --`. Returns undefined for --help. @throws UsageError */
export function parseEvalArgs(argv: readonly string[]): EvalArgs | undefined {
  const positional: string[] = [];
  const flags = new Map<string, string>();
  const switches = new Set<string>();
  const SWITCHES = new Set(['--judge', '--quiet', '--help', '-h']);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('-')) {
      positional.push(arg);
      continue;
    }
    const [name, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    if (SWITCHES.has(name)) {
      switches.add(name);
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined) throw new UsageError(`${name} needs a value.`);
    flags.set(name, value);
  }
  if (switches.has('--help') || switches.has('-h')) return undefined;
  const known = [
    '--questions',
    '--out',
    '--save-tree',
    '--embeddings',
    '--embeddings-model',
    '--llm',
    '--model',
    '--protocol',
    '--modes',
    '--search',
    '--max-tokens',
    '--top-k',
    '--answers',
    '--models-dir',
  ];
  for (const name of flags.keys()) if (!known.includes(name)) throw new UsageError(`Unknown option ${name}.`);
  if (positional.length !== 1) {
    throw new UsageError(
      positional.length === 0
        ? 'Name a document or a .raptor.json tree.'
        : `One input only; got ${positional.join(', ')}.`,
    );
  }
  for (const name of ['--questions', '--out', '--save-tree', '--models-dir']) {
    const value = flags.get(name);
    if (value !== undefined && value.trim() === '')
      throw new UsageError(`${name} names no file (an empty path); give a file name.`);
  }
  if (positional[0].trim() === '')
    throw new UsageError('The input is an empty path; name a document or a tree.');
  const questions = flags.get('--questions');
  if (!questions) throw new UsageError('--questions <file.jsonl | file.csv> is required.');
  const args: EvalArgs = {
    input: positional[0],
    questions,
    modes: flags.has('--modes')
      ? list(flags.get('--modes')!, RETRIEVAL_MODES, '--modes')
      : [...RETRIEVAL_MODES],
    search: flags.has('--search')
      ? list(flags.get('--search')!, SEARCH_MODES, '--search')
      : [...SEARCH_MODES],
    answers: 'default',
    judge: switches.has('--judge'),
    quiet: switches.has('--quiet'),
  };
  if (flags.has('--out')) args.out = flags.get('--out');
  if (flags.has('--save-tree')) args.saveTree = flags.get('--save-tree');
  if (flags.has('--models-dir')) args.modelsDir = flags.get('--models-dir');
  if (flags.has('--max-tokens')) args.maxTokens = positiveInteger(flags.get('--max-tokens')!, '--max-tokens');
  if (flags.has('--top-k')) args.topK = positiveInteger(flags.get('--top-k')!, '--top-k');
  if (flags.has('--embeddings')) {
    args.embeddings = {
      url: url(flags.get('--embeddings')!, '--embeddings'),
      model: flags.get('--embeddings-model') ?? DEFAULT_EMBEDDINGS_MODEL,
    };
  } else if (flags.has('--embeddings-model')) {
    throw new UsageError('--embeddings-model needs --embeddings <url>.');
  }
  if (flags.has('--llm') !== flags.has('--model'))
    throw new UsageError('--llm <url> and --model <id> go together.');
  if (flags.has('--llm')) {
    const protocol = flags.get('--protocol') ?? 'openai';
    if (protocol !== 'openai' && protocol !== 'anthropic') {
      throw new UsageError(`--protocol is openai or anthropic; got "${protocol}".`);
    }
    args.llm = { url: url(flags.get('--llm')!, '--llm'), model: flags.get('--model')!, protocol };
  } else if (flags.has('--protocol')) {
    throw new UsageError('--protocol needs --llm <url>.');
  }
  if (flags.has('--answers')) {
    const scope = flags.get('--answers')!;
    if (scope !== 'none' && scope !== 'default' && scope !== 'all') {
      throw new UsageError(`--answers is none, default or all; got "${scope}".`);
    }
    if (!args.llm && scope !== 'none') throw new UsageError('--answers needs --llm <url> --model <id>.');
    args.answers = scope;
  }
  if (args.judge && !args.llm) throw new UsageError('--judge needs --llm <url> --model <id>.');
  return args;
}

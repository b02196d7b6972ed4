/**
 * `npm run bench retrieval`: evidence recall of the retrieval modes on every gold set that
 * tests/fixtures/gold/sets.json lists (per book × question kind × mode), tuning sets and held-out sets apart,
 * beside leaves only (whole leaves best first: the paper's baseline, as Aerie retrieved before issue 42) and
 * plain BM25 over the leaves (no tree, no model), all measured in the same run through the evaluation core
 * (src/core/eval, `evaluateRetrieval`).
 *
 * Trees: each book built in Node with the offline GloVe model and extractive summaries
 * (bench/retrieval/trees.ts, kept in .bench-cache), as a new user without an endpoint builds it. With
 * AERIE_BENCH_MINILM=1 the tuning sets are also run on trees of MiniLM-L6's architecture at random weights
 * (its "meaning" is noise: the rows show what keywords and the tree do without it, at the real model's cost;
 * building them takes about an hour here). With AERIE_BENCH_RERANKER=<folder of a real cross-encoder> the
 * default is also run reranked (`+rerank`).
 *
 * Settings are chosen on the "tune" sets only; the "held-out" sets report them (docs/retrieval.md).
 */
import { basename, dirname } from 'node:path';
import { readFileSync } from 'node:fs';
import {
  evaluateRetrieval,
  parseQuestionSet,
  PLAIN_BM25,
  plainBm25Variant,
  WHOLE,
  wholeVariant,
  type EvalQuestion,
  type EvalVariant,
} from '../src/core/eval';
import { DEFAULT_SEARCH, retrieveReranked } from '../src/core/search';
import { configureRuntime, CrossEncoder } from '../src/models/embed';
import { notMeasured, type BenchLine } from './lines';
import { bookTree } from './retrieval/trees';
import { benchModels, GLOVE_MODEL, loadEmbed, type BenchModel } from './shape/inputs';
import { ROOT } from './support';

/** A gold set as sets.json lists it. */
interface GoldSet {
  id: string;
  role: 'tune' | 'held-out';
}

const ROLES = ['tune', 'held-out'] as const;
const KINDS = ['fact', 'arc', 'theme'] as const;
type Kind = (typeof KINDS)[number];

/** Report keys of the rows every table shows, and their column names. */
const DEFAULT = 'collapsed';
const LEAVES = 'leaves';
const LEAVES_WHOLE = `leaves+${WHOLE}`;
const PLAIN = `leaves+${PLAIN_BM25}`;
const COLUMNS: [string, string][] = [
  [DEFAULT, 'collapsed (default)'],
  ['traversal', 'traversal'],
  [LEAVES, 'leaves'],
  [LEAVES_WHOLE, 'leaves, whole'],
  [PLAIN, 'plain BM25'],
  ['collapsed:meaning', 'collapsed by meaning'],
];

/** The sets of sets.json, tuning sets first. */
function goldSets(): GoldSet[] {
  const listed = JSON.parse(readFileSync(`${ROOT}/tests/fixtures/gold/sets.json`, 'utf8')) as {
    sets: Record<string, { role: GoldSet['role'] }>;
  };
  return Object.entries(listed.sets)
    .map(([id, { role }]) => ({ id, role }))
    .sort((a, b) => ROLES.indexOf(a.role) - ROLES.indexOf(b.role));
}

function questionsOf(id: string): EvalQuestion[] {
  const text = readFileSync(`${ROOT}/tests/fixtures/gold/${id}.jsonl`, 'utf8');
  const { questions, errors } = parseQuestionSet(text, 'jsonl');
  if (errors.length > 0) throw new Error(`${id}.jsonl: ${errors.map((e) => e.message).join('; ')}`);
  return questions;
}

/** Every mode by the default search, whole-node and plain references, meaning (the official ranking), both. */
function variants(reranker: CrossEncoder | undefined): EvalVariant[] {
  const list: EvalVariant[] = [
    { mode: 'collapsed' },
    { mode: 'traversal' },
    { mode: 'leaves' },
    wholeVariant('collapsed'),
    wholeVariant('traversal'),
    wholeVariant('leaves'),
    plainBm25Variant(),
    { mode: 'collapsed', search: 'meaning' },
    { mode: 'traversal', search: 'meaning' },
    { mode: 'leaves', search: 'meaning' },
    { mode: 'collapsed', search: 'both' },
    { mode: 'leaves', search: 'both' },
  ];
  if (reranker) {
    list.push({
      mode: 'collapsed',
      rerank: {
        name: 'rerank',
        retrieve: (tree, query, options, { question }) =>
          retrieveReranked(tree, query, options, {
            score: (texts) => reranker.score(question.question, texts),
          }),
      },
    });
  }
  return list;
}

/** Recall sums per set, kind and variant key. */
class Tally {
  private readonly sums = new Map<string, { sum: number; n: number; tokens: number }>();

  add(set: string, kind: string, key: string, recall: number, tokens: number): void {
    for (const k of [`${set}|${kind}|${key}`, `${set}|all|${key}`]) {
      const entry = this.sums.get(k) ?? { sum: 0, n: 0, tokens: 0 };
      entry.sum += recall;
      entry.n++;
      entry.tokens += tokens;
      this.sums.set(k, entry);
    }
  }

  /** Mean recall over the given sets (questions pooled), NaN when none. */
  mean(sets: readonly string[], kind: Kind | 'all', key: string): number {
    const pooled = this.pooled(sets, kind, key);
    return pooled.n === 0 ? NaN : pooled.sum / pooled.n;
  }

  pooled(
    sets: readonly string[],
    kind: Kind | 'all',
    key: string,
  ): { sum: number; n: number; tokens: number } {
    const out = { sum: 0, n: 0, tokens: 0 };
    for (const set of sets) {
      const entry = this.sums.get(`${set}|${kind}|${key}`);
      if (!entry) continue;
      out.sum += entry.sum;
      out.n += entry.n;
      out.tokens += entry.tokens;
    }
    return out;
  }
}

const cell = (value: number) => (Number.isNaN(value) ? '–' : value.toFixed(3));

/** Per book × kind: the main columns. */
function printBooks(tally: Tally, sets: readonly GoldSet[], role: GoldSet['role']): void {
  console.log(`\n${role === 'tune' ? 'Tuning sets' : 'Held-out sets'}: evidence recall per book × kind`);
  console.log(`| book | kind | questions | ${COLUMNS.map(([, name]) => name).join(' | ')} |`);
  console.log(`| --- | --- | ---: | ${COLUMNS.map(() => '---:').join(' | ')} |`);
  for (const set of sets.filter((s) => s.role === role)) {
    for (const kind of [...KINDS, 'all'] as const) {
      const n = tally.pooled([set.id], kind, DEFAULT).n;
      if (n === 0) continue;
      const cells = COLUMNS.map(([key]) => cell(tally.mean([set.id], kind, key)));
      console.log(`| ${set.id} | ${kind} | ${n} | ${cells.join(' | ')} |`);
    }
  }
}

/** Pooled over a role's sets: every variant × kind. */
function printPooled(tally: Tally, sets: readonly string[], keys: readonly string[], label: string): void {
  console.log(`\n${label}: evidence recall, questions pooled`);
  console.log(`| variant | ${KINDS.join(' | ')} | all | context tokens |`);
  console.log(`| --- | ${KINDS.map(() => '---:').join(' | ')} | ---: | ---: |`);
  for (const key of keys) {
    const all = tally.pooled(sets, 'all', key);
    const cells = [...KINDS, 'all' as const].map((kind) => cell(tally.mean(sets, kind, key)));
    console.log(`| ${key} | ${cells.join(' | ')} | ${Math.round(all.tokens / Math.max(1, all.n))} |`);
  }
}

async function loadReranker(): Promise<CrossEncoder | undefined> {
  const folder = process.env.AERIE_BENCH_RERANKER;
  if (!folder) return undefined;
  configureRuntime({ localModelPath: `${dirname(folder)}/` });
  return CrossEncoder.load(`local:${basename(folder)}`, { dtype: 'q8' });
}

/** Runs every variant on every set's questions with `model`'s trees; returns the tally and the variant keys. */
async function benchModel(
  model: BenchModel,
  sets: readonly GoldSet[],
  reranker: CrossEncoder | undefined,
): Promise<{ tally: Tally; keys: string[] }> {
  const tally = new Tally();
  const keys: string[] = [];
  for (const set of sets) {
    const { tree, buildSeconds } = await bookTree(set.id, model);
    if (buildSeconds !== undefined)
      console.log(`built ${set.id} with ${model.label}: ${buildSeconds.toFixed(0)} s`);
    const { embed, dispose } = await loadEmbed(model);
    try {
      const report = await evaluateRetrieval(tree, questionsOf(set.id), {
        embedQuery: embed,
        variants: variants(reranker),
      });
      for (const key of Object.keys(report.modes)) if (!keys.includes(key)) keys.push(key);
      for (const q of report.perQuestion) {
        for (const [key, result] of Object.entries(q.modes)) {
          if (result.recall !== null) tally.add(set.id, q.kind ?? '', key, result.recall, result.tokens);
        }
      }
    } finally {
      await dispose();
    }
  }
  return { tally, keys };
}

/** The checks as bench rows: each role's default beside its reference. */
function checkRows(label: string, tally: Tally, sets: readonly GoldSet[]): BenchLine[] {
  const rows: BenchLine[] = [];
  for (const role of ROLES) {
    const ids = sets.filter((s) => s.role === role).map((s) => s.id);
    if (ids.length === 0) continue;
    const row = (
      what: string,
      key: string,
      kind: Kind | 'all',
      ref: string,
      refLabel: string,
    ): BenchLine => ({
      name: `${label}, ${role} sets: ${what}`,
      value: tally.mean(ids, kind, key),
      unit: 'recall',
      reference: tally.mean(ids, kind, ref),
      referenceLabel: refLabel,
      higherIsBetter: true,
    });
    rows.push(
      row(
        'default, thematic evidence',
        DEFAULT,
        'theme',
        LEAVES_WHOLE,
        'leaves only, whole leaves (same run)',
      ),
      row('default, thematic evidence', DEFAULT, 'theme', LEAVES, 'leaves only, same passages (same run)'),
      row('default, all questions', DEFAULT, 'all', PLAIN, 'plain BM25 over the leaves (same run)'),
      row('default, single facts', DEFAULT, 'fact', PLAIN, 'plain BM25 over the leaves (same run)'),
      row('traversal, thematic evidence', 'traversal', 'theme', DEFAULT, 'the collapsed tree (same run)'),
    );
  }
  return rows;
}

/** Evidence recall per book × kind × mode, tune and held-out apart, beside leaves only and plain BM25. */
export async function benchRetrieval(): Promise<BenchLine[]> {
  const rows: BenchLine[] = [];
  const sets = goldSets();
  const reranker = await loadReranker();
  if (!reranker) {
    console.log(
      'Reranked rows: skipped (no real cross-encoder on this machine; set AERIE_BENCH_RERANKER to its folder).',
    );
  }
  const { tally, keys } = await benchModel({ ...GLOVE_MODEL }, sets, reranker);
  console.log(`\nGloVe (offline), extractive summaries, 2,000 tokens; search ${DEFAULT_SEARCH} unless named`);
  for (const role of ROLES) printBooks(tally, sets, role);
  for (const role of ROLES) {
    const ids = sets.filter((s) => s.role === role).map((s) => s.id);
    printPooled(tally, ids, keys, `${role === 'tune' ? 'Tuning' : 'Held-out'} sets (${ids.join(', ')})`);
  }
  rows.push(...checkRows('GloVe', tally, sets));

  if (process.env.AERIE_BENCH_MINILM === '1') {
    const minilm = benchModels().find((m) => m.label.startsWith('MiniLM'))!;
    if (!('id' in minilm)) rows.push(notMeasured(`${minilm.label}: evidence recall`, minilm.skipped));
    else {
      const tune = sets.filter((s) => s.role === 'tune');
      const run = await benchModel(minilm, tune, reranker);
      printPooled(
        run.tally,
        tune.map((s) => s.id),
        run.keys,
        `${minilm.label}, tuning sets`,
      );
      rows.push(...checkRows(minilm.label, run.tally, tune));
    }
  } else {
    console.log('\nMiniLM-L6 (random weights): skipped (AERIE_BENCH_MINILM=1 runs it on the tuning sets).');
  }
  await reranker?.dispose();
  return rows;
}

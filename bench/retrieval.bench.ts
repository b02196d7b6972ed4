/**
 * `npm run bench retrieval`: evidence recall of every retrieval mode × search setting on the project's gold
 * sets (tests/fixtures/gold: Pride and Prejudice, Persuasion, Genesis; 42 questions each, about half on one
 * fact and half on the story's arc), through the evaluation core (src/core/eval, `evaluateRetrieval`), beside
 * plain BM25 over the leaves (no tree, no model) measured in the same run.
 *
 * Trees: each book built in Node with extractive summaries (bench/retrieval/trees.ts, kept in .bench-cache), with
 * the offline GloVe model and with MiniLM-L6's architecture at random weights. The GloVe rows are real figures of
 * the offline model. The random-MiniLM rows cannot say anything about meaning (its vectors are bags of random
 * word vectors, scripts/models/README.md): they show what the keyword side and the tree's structure do when the
 * meaning side is noise, at the real model's cost.
 *
 * Also measured: `distinct` (a sentence never paid twice) against whole texts (`+whole`), and, with
 * AERIE_BENCH_RERANKER=<folder of a real cross-encoder in transformers.js layout, e.g. a download of
 * Xenova/ms-marco-MiniLM-L-6-v2>, the default search reranked (`+rerank`). Figures pool the three books'
 * questions (each question counts once).
 */
import { basename, dirname } from 'node:path';
import { readFileSync } from 'node:fs';
import {
  defaultVariants,
  evaluateRetrieval,
  parseQuestionSet,
  type EvalQuestion,
  type EvalVariant,
  type RetrievalReport,
} from '../src/core/eval';
import { DEFAULT_SEARCH, retrieve, retrieveReranked, SEARCH_MODES } from '../src/core/search/retrieve';
import type { RaptorTree } from '../src/core/types';
import { configureRuntime } from '../src/models/embedder';
import { CrossEncoder } from '../src/models/reranker';
import { notMeasured, type BenchLine } from './lines';
import { bookTree } from './retrieval/trees';
import { benchModels, loadEmbed, type BenchModel } from './shape/inputs';
import { ROOT } from './support';

/** The gold sets' books (tests/fixtures/gold/<id>.jsonl over tests/fixtures/books/<id>.txt). */
const BOOKS = ['pride-and-prejudice', 'persuasion', 'genesis'];
/**
 * The key of plain BM25 over the leaves: a leaves-only tree (no summaries, no model in the ranking) whose leaves
 * carry no source, so no leaf is indexed under its neighbours' words either.
 */
const PLAIN_BM25 = 'plain BM25 (leaves)';
const KINDS = ['fact', 'arc'] as const;
/** The collapsed tree as the app searched before issue 25: meaning alone, every text whole. */
const BEFORE = DEFAULT_SEARCH === 'meaning' ? 'collapsed+whole' : 'collapsed:meaning+whole';

function goldSet(book: string): EvalQuestion[] {
  const text = readFileSync(`${ROOT}/tests/fixtures/gold/${book}.jsonl`, 'utf8');
  const { questions, errors } = parseQuestionSet(text, 'jsonl');
  if (errors.length > 0) throw new Error(`${book}.jsonl: ${errors.map((e) => e.message).join('; ')}`);
  return questions;
}

/** The variants: every mode × search, whole texts for comparison, and the reranked default when possible. */
function variants(reranker: CrossEncoder | undefined): EvalVariant[] {
  const list: EvalVariant[] = defaultVariants(SEARCH_MODES);
  for (const mode of ['collapsed', 'traversal'] as const) {
    for (const search of ['meaning', DEFAULT_SEARCH] as const) {
      list.push({
        mode,
        search,
        rerank: {
          name: 'whole',
          retrieve: (tree, query, options) => retrieve(tree, query, { ...options, distinct: false }),
        },
      });
    }
  }
  if (reranker) {
    for (const mode of ['collapsed', 'leaves'] as const) {
      list.push({
        mode,
        rerank: {
          name: 'rerank',
          retrieve: (tree, query, options, { question }) =>
            retrieveReranked(tree, query, options, {
              score: (texts) => reranker.score(question.question, texts),
            }),
        },
      });
    }
  }
  return list;
}

/** Pooled per-kind recall sums over every book's questions, per variant key. */
type Pool = Map<
  string,
  Record<'all' | (typeof KINDS)[number], { sum: number; n: number }> & { tokens: number }
>;

function addReport(pool: Pool, report: RetrievalReport, rename?: (key: string) => string): void {
  for (const q of report.perQuestion) {
    for (const [key, result] of Object.entries(q.modes)) {
      if (result.recall === null) continue;
      const name = rename ? rename(key) : key;
      let entry = pool.get(name);
      if (!entry) {
        entry = { all: { sum: 0, n: 0 }, fact: { sum: 0, n: 0 }, arc: { sum: 0, n: 0 }, tokens: 0 };
        pool.set(name, entry);
      }
      entry.all.sum += result.recall;
      entry.all.n++;
      entry.tokens += result.tokens;
      const kind = q.kind as (typeof KINDS)[number] | undefined;
      if (kind === 'fact' || kind === 'arc') {
        entry[kind].sum += result.recall;
        entry[kind].n++;
      }
    }
  }
}

const mean = (x: { sum: number; n: number }) => (x.n === 0 ? NaN : x.sum / x.n);

function printTable(label: string, pool: Pool): void {
  console.log(`\n${label}: evidence recall, ${BOOKS.length} books, questions pooled`);
  console.log('| variant | all | one fact | the arc | context tokens |');
  console.log('| --- | ---: | ---: | ---: | ---: |');
  for (const [key, e] of pool) {
    const cells = [mean(e.all), mean(e.fact), mean(e.arc)].map((v) => v.toFixed(3));
    console.log(`| ${key} | ${cells.join(' | ')} | ${Math.round(e.tokens / e.all.n)} |`);
  }
}

async function loadReranker(): Promise<CrossEncoder | undefined> {
  const folder = process.env.AERIE_BENCH_RERANKER;
  if (!folder) return undefined;
  configureRuntime({ localModelPath: `${dirname(folder)}/` });
  return CrossEncoder.load(`local:${basename(folder)}`, { dtype: 'q8' });
}

async function benchModel(model: BenchModel, reranker: CrossEncoder | undefined): Promise<Pool> {
  const pool: Pool = new Map();
  for (const book of BOOKS) {
    const { tree, buildSeconds } = await bookTree(book, model);
    if (buildSeconds !== undefined)
      console.log(`built ${book} with ${model.label}: ${buildSeconds.toFixed(0)} s`);
    const questions = goldSet(book);
    const { embed, dispose } = await loadEmbed(model);
    try {
      const report = await evaluateRetrieval(tree, questions, {
        embedQuery: embed,
        variants: variants(reranker),
      });
      addReport(pool, report);
      // Leaves without their sources: the keyword index then holds each leaf's own words only (no nearby
      // words, keywords.ts), which is plain BM25.
      const leaves: RaptorTree = {
        ...tree,
        nodes: tree.nodes.filter((n) => n.layer === 0).map(({ source: _source, ...leaf }) => leaf),
      };
      const plain = await evaluateRetrieval(leaves, questions, {
        embedQuery: embed,
        variants: [{ mode: 'leaves', search: 'keywords' }],
      });
      addReport(pool, plain, () => PLAIN_BM25);
    } finally {
      await dispose();
    }
  }
  return pool;
}

/** Evidence recall per mode × search on the gold sets; rows: the default beside plain BM25 and meaning alone. */
export async function benchRetrieval(): Promise<BenchLine[]> {
  const rows: BenchLine[] = [];
  const reranker = await loadReranker();
  if (!reranker) {
    console.log(
      'Reranked rows: skipped (no real cross-encoder on this machine; set AERIE_BENCH_RERANKER to its folder). ' +
        'A random-weight one would only shuffle the candidates; `npm run bench rerank` times it.',
    );
  }
  for (const model of benchModels()) {
    if (!('id' in model)) {
      rows.push(notMeasured(`${model.label}: evidence recall per mode and search`, model.skipped));
      continue;
    }
    const pool = await benchModel(model, reranker);
    printTable(model.label, pool);
    const defaultKey = 'collapsed';
    const figure = (key: string, kind: 'fact' | 'arc') => mean(pool.get(key)![kind]);
    for (const kind of KINDS) {
      rows.push({
        name: `${model.label}: default (collapsed tree, search ${DEFAULT_SEARCH}) evidence recall, ${kind} questions`,
        value: figure(defaultKey, kind),
        unit: 'recall',
        reference: figure(PLAIN_BM25, kind),
        referenceLabel: 'plain BM25 over the leaves, same run',
        higherIsBetter: true,
        note: `before (meaning only, every text whole): ${figure(BEFORE, kind).toFixed(3)}`,
      });
    }
  }
  await reranker?.dispose();
  return rows;
}

/**
 * `npm run bench eval`: `npm run eval` on the project's own gold sets (tests/fixtures/gold/<book>.jsonl, each
 * over tests/fixtures/books/<book>.txt), printing each set's table. Each book is built once with the offline
 * GloVe model and extractive summaries — as a new user without an endpoint builds it — and the tree is kept in
 * .bench-cache/eval/ under the hash of what decides it (the text, the build parameters, TREE_CACHE_VERSION);
 * delete it to rebuild after a change to the build.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { runEval } from '../scripts/eval/run';
import { RETRIEVAL_MODES } from '../src/core/eval';
import { SEARCH_MODES } from '../src/core/search';
import { DEFAULT_BUILD_PARAMS } from '../src/core/types';
import { OFFLINE_MODEL_ID } from '../src/models/embed/embedding-presets';
import { notMeasured, type BenchLine } from './lines';
import { ROOT } from './support';

/** Raise when a change to the build makes kept trees stale. */
const TREE_CACHE_VERSION = 1;
const GOLD = join(ROOT, 'tests', 'fixtures', 'gold');
const BOOKS = join(ROOT, 'tests', 'fixtures', 'books');
const CACHE = join(ROOT, '.bench-cache', 'eval');
const MS_PER_S = 1000;

/** The kept tree of a book: its path, and whether it exists yet. */
function keptTree(id: string, text: string): string {
  const key = createHash('sha256')
    .update(JSON.stringify([TREE_CACHE_VERSION, OFFLINE_MODEL_ID, DEFAULT_BUILD_PARAMS]))
    .update(text)
    .digest('hex')
    .slice(0, 16);
  return join(CACHE, `${id}-${key}.raptor.json`);
}

export async function benchEval(): Promise<BenchLine[]> {
  const sets = existsSync(GOLD)
    ? readdirSync(GOLD)
        .filter((f) => f.endsWith('.jsonl'))
        .sort()
    : [];
  if (sets.length === 0) return [notMeasured('eval of the gold sets', `no gold sets in ${GOLD}`)];
  mkdirSync(CACHE, { recursive: true });
  const rows: BenchLine[] = [];
  for (const file of sets) {
    const id = basename(file, '.jsonl');
    const book = join(BOOKS, `${id}.txt`);
    if (!existsSync(book)) {
      rows.push(notMeasured(`eval ${id}`, `no book at ${book}`));
      continue;
    }
    const tree = keptTree(id, readFileSync(book, 'utf8'));
    const kept = existsSync(tree);
    const started = performance.now();
    const { report, table } = await runEval(
      {
        input: kept ? tree : book,
        questions: join(GOLD, file),
        ...(kept ? {} : { saveTree: tree }),
        modes: [...RETRIEVAL_MODES],
        search: [...SEARCH_MODES],
        answers: 'none',
        judge: false,
        quiet: true,
      },
      () => {},
    );
    const seconds = (performance.now() - started) / MS_PER_S;
    const layers = report.tree.nodesPerLayer.join(' + ');
    console.log(
      `\n### ${id}: ${report.questions} questions (${report.scored} scored), tree of ${report.tree.nodes} nodes ` +
        `(${layers}), ${kept ? 'kept from an earlier run' : `built in ${(report.run.buildMs! / MS_PER_S).toFixed(1)} s`}\n`,
    );
    console.log(table);
    const retrievals = report.questions * Object.keys(report.modes).length;
    const retrievalMs = Object.values(report.modes).reduce((s, m) => s + m.totalTimeMs, 0);
    rows.push({
      name: `eval ${id}: retrieval per question and setting`,
      value: retrievalMs / retrievals,
      unit: 'ms',
      higherIsBetter: false,
      noReference: 'the evaluation tables above are the result; the time is for scale',
      note: `${retrievals} retrievals; questions embedded in ${(report.embedMs / MS_PER_S).toFixed(2)} s; whole run ${seconds.toFixed(1)} s`,
    });
  }
  return rows;
}

/**
 * `npm run bench keywords`: what keyword search costs on a book-sized tree. A tree of 14,000 nodes of real prose
 * (the shipped books' sentences, shuffled and cut into ~100-token chunks as the app cuts documents; 384-d seeded
 * vectors, laid out as loaded trees are): building its keyword index (which the app does when a tree opens,
 * instead of storing it) beside building the meaning index (`prepareRetrieval`, which opening already does),
 * and a collapsed-tree question searched by keywords and by both beside one by meaning alone. CPU milliseconds
 * of this process (process.cpuUsage), medians; the machine is shared, so wall time is in the notes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chunkText, splitSentences } from '../src/core/text';
import { allocateRows } from '../src/core/dot-kernel';
import { keywordIndex, prepareRetrieval, retrieve, type SearchMode } from '../src/core/search';
import { seededRandom } from '../src/core/random';
import { DEFAULT_BUILD_PARAMS, type RaptorTree, type TreeNode } from '../src/core/types';
import type { BenchRow } from './lines';
import { ROOT, shuffled } from './support';
import { treeOf } from '../tests/support/tree-of';

const NODES = 14_000;
const DIM = 384;
const SEED = 20251201;
const BUILDS = 5;
const QUESTIONS = 60;
const BOOKS = ['pride-and-prejudice', 'persuasion', 'northanger-abbey', 'genesis'];
const US_PER_MS = 1000;

const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];

function texts(): string[] {
  const sentences = BOOKS.flatMap((book) => {
    const text = readFileSync(join(ROOT, 'tests', 'fixtures', 'books', `${book}.txt`), 'utf8');
    return splitSentences(text).map(({ start, end }) => text.slice(start, end));
  });
  const random = seededRandom(SEED);
  const out: string[] = [];
  while (out.length < NODES) {
    for (const c of chunkText(shuffled(sentences, random).join(' '), {
      maxTokens: DEFAULT_BUILD_PARAMS.chunkTokens,
    }))
      out.push(c.text);
  }
  return out.slice(0, NODES);
}

/** A fresh tree object (its own index cache entries) over the same texts and seeded vectors. */
function tree(all: readonly string[]): RaptorTree {
  const random = seededRandom(SEED + 1);
  const flat = allocateRows(NODES, DIM);
  for (let i = 0; i < flat.length; i++) flat[i] = random() * 2 - 1;
  let offset = 0;
  const nodes: TreeNode[] = all.map((text, id) => {
    const layer = id < NODES * 0.8 ? 0 : 1;
    const node: TreeNode = {
      id,
      layer,
      text,
      tokens: 0,
      children: [],
      embedding: flat.subarray(id * DIM, (id + 1) * DIM),
    };
    // Leaves come from one document, in order, so each is indexed with its neighbours' words as the app's are.
    if (layer === 0) node.source = { doc: 'bench', start: offset, end: (offset += text.length + 1) - 1 };
    return node;
  });
  return treeOf(nodes, { title: 'keyword bench', model: 'bench', createdAt: '2026-01-01T00:00:00.000Z' });
}

function cpuMs(fn: () => unknown): { cpu: number; wall: number } {
  const usage = process.cpuUsage();
  const start = performance.now();
  fn();
  const spent = process.cpuUsage(usage);
  return { cpu: (spent.user + spent.system) / US_PER_MS, wall: performance.now() - start };
}

/** Keyword index build and keyword questions on a 14,000-node tree, beside their meaning-only counterparts. */
export async function benchKeywords(): Promise<BenchRow[]> {
  const all = texts();
  const keywordBuilds: { cpu: number; wall: number }[] = [];
  const meaningBuilds: { cpu: number; wall: number }[] = [];
  for (let i = 0; i < BUILDS; i++) {
    keywordBuilds.push(cpuMs(() => keywordIndex(tree(all).nodes)));
    const t = tree(all);
    meaningBuilds.push(cpuMs(() => prepareRetrieval(t)));
  }
  const t = tree(all);
  prepareRetrieval(t);
  keywordIndex(t.nodes);
  const random = seededRandom(SEED + 2);
  const questions = Array.from({ length: QUESTIONS }, () => {
    const words = all[Math.floor(random() * all.length)].split(/\s+/).filter((w) => w.length > 3);
    return words.slice(0, 8).join(' ');
  });
  const vector = t.nodes[0].embedding;
  const time = (search: SearchMode) =>
    median(
      questions.map(
        (text) => cpuMs(() => retrieve(t, vector, { mode: 'collapsed', maxTokens: 2000, text, search })).cpu,
      ),
    );
  const meaning = time('meaning');
  const rows: BenchRow[] = [
    {
      name: `Keyword index of a ${NODES.toLocaleString('en')}-node tree (BM25+, leaves with their nearby words), build, CPU ms, median of ${BUILDS}`,
      value: median(keywordBuilds.map((b) => b.cpu)),
      unit: 'ms',
      reference: median(meaningBuilds.map((b) => b.cpu)),
      referenceLabel: 'the meaning index (prepareRetrieval) of the same tree',
      higherIsBetter: false,
      note: `wall ${median(keywordBuilds.map((b) => b.wall)).toFixed(0)} vs ${median(meaningBuilds.map((b) => b.wall)).toFixed(0)} ms; the app builds it in chunks of 250 nodes when a tree opens`,
    },
  ];
  for (const search of ['keywords', 'both'] as const) {
    rows.push({
      name: `Collapsed-tree question searched by ${search}, ${NODES.toLocaleString('en')} nodes, 2,000 tokens, CPU ms, median of ${QUESTIONS}`,
      value: time(search),
      unit: 'ms',
      reference: meaning,
      referenceLabel: 'the same question by meaning alone',
      higherIsBetter: false,
    });
  }
  return rows;
}

/**
 * The trees `npm run bench retrieval` asks questions of: each gold set's book (tests/fixtures/books) built in
 * Node with one of the bench's embedding models and extractive summaries (no LLM), as a new user without an
 * endpoint builds it. A build of a whole novel takes minutes, so each tree is kept in
 * .bench-cache/retrieval/ under the hash of everything that decides it (the text, the model, the build
 * parameters and this file's TREE_CACHE_VERSION) and read back on the next run.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildTree } from '../../src/core/build';
import { createExtractiveSummarizer } from '../../src/core/extractive';
import { parseTree, serializeTree } from '../../src/core/tree-format';
import { DEFAULT_BUILD_PARAMS, type RaptorTree } from '../../src/core/types';
import { loadEmbed, type BenchModel } from '../shape/inputs';
import { ROOT } from '../support';

/** Raise when a change to the build makes the kept trees stale. */
const TREE_CACHE_VERSION = 1;
const CACHE = join(ROOT, '.bench-cache', 'retrieval');
const BOOKS = join(ROOT, 'tests', 'fixtures', 'books');
const MS_PER_S = 1000;

/** The book's text (tests/fixtures/books/<id>.txt). */
export function bookText(id: string): string {
  return readFileSync(join(BOOKS, `${id}.txt`), 'utf8');
}

/** A built (or kept) tree and how long its build took when it was made. */
export interface BookTree {
  tree: RaptorTree;
  /** Seconds of the build, or undefined when the tree came from the cache. */
  buildSeconds?: number;
}

/** The tree of book `id` with `model` and extractive summaries, built once and then read from the cache. */
export async function bookTree(id: string, model: BenchModel): Promise<BookTree> {
  const text = bookText(id);
  const key = createHash('sha256')
    .update(JSON.stringify([TREE_CACHE_VERSION, model.id, model.dtype, DEFAULT_BUILD_PARAMS]))
    .update(text)
    .digest('hex')
    .slice(0, 16);
  const file = join(CACHE, `${id}-${key}.raptor.json`);
  if (existsSync(file)) return { tree: parseTree(readFileSync(file, 'utf8')) };
  const { embed, dispose } = await loadEmbed(model);
  try {
    const started = performance.now();
    const tree = await buildTree(
      [{ id, name: id, text }],
      { embed, summarize: createExtractiveSummarizer(embed) },
      { title: id, embeddingModel: model.id, summarizer: { kind: 'extractive' } },
    );
    const buildSeconds = (performance.now() - started) / MS_PER_S;
    mkdirSync(CACHE, { recursive: true });
    writeFileSync(file, serializeTree(tree));
    // Read back as a loaded tree is laid out (embeddings in one buffer), as the app queries it.
    return { tree: parseTree(readFileSync(file, 'utf8')), buildSeconds };
  } finally {
    await dispose();
  }
}

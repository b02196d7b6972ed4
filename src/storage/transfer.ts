/**
 * Moving trees between machines as tree format v1 files (docs/tree-format.md). An export holds the tree and
 * nothing else: no settings, no endpoint, no API key. An import is validated in full before anything is
 * written, then written in one transaction, so a bad file or a failure part-way (a full quota) leaves nothing.
 */
/** The format module pulls in the cl100k tables (~1 MB): load it only when a tree is exported or imported. */
const treeFormat = () => import('../core/tree-format');
import type { RaptorTree } from '../core/types';
import { StorageError } from './errors';
import { randomId } from './hash';
import { loadTree, toNodeRecords } from './nodes';
import type { AerieDb, TreeRecord } from './schema';
import { computeStats } from './stats';
import { forEachRequest, runTransaction } from './transaction';

/** Largest tree file imported: 512 MiB (a 1,000-node tree of 384-d vectors is about 2.6 MB). */
export const MAX_IMPORT_BYTES = 512 * 1024 * 1024;

const BYTES_PER_MEGABYTE = 1024 * 1024;

function tooLarge(size: number, limit: number, unit: string): StorageError {
  const mb = (x: number) => (x / BYTES_PER_MEGABYTE).toFixed(1);
  return new StorageError(
    'TOO_LARGE',
    `This file is ${mb(size)} MB; Aerie imports tree files up to ${mb(limit)} MB.`,
    { size, limit, unit },
  );
}

/**
 * Checks a file's size before it is read into memory (call it with `File.size`).
 * @param limit bytes. Default 512 MiB.
 * @throws StorageError TOO_LARGE.
 */
export function checkImportSize(bytes: number, limit = MAX_IMPORT_BYTES): void {
  if (bytes > limit) throw tooLarge(bytes, limit, 'bytes');
}

/**
 * The tree as a tree format v1 file (embeddings as base64 of little-endian float32, bit-exact).
 * @throws StorageError NOT_FOUND, NOT_READY.
 */
export async function exportTree(db: AerieDb, treeId: string): Promise<string> {
  const { serializeTree } = await treeFormat();
  return serializeTree(await loadTree(db, treeId));
}

/** Options of `importTree`. */
export interface ImportOptions {
  /** Id of the new tree. Default 32 random hex digits. */
  id?: string;
  /** Title to store instead of the file's. */
  title?: string;
  /** Most UTF-16 code units of JSON accepted. Default 512 Mi. */
  maxChars?: number;
  /** Milliseconds since the epoch. Default now. */
  now?: number;
}

async function readTree(json: string, maxChars: number): Promise<RaptorTree> {
  if (typeof json !== 'string') {
    throw new StorageError('INVALID_IMPORT', 'A tree file must be read as text before it is imported.', {});
  }
  if (json.length > maxChars) throw tooLarge(json.length, maxChars, 'chars');
  const { parseTree, TreeFormatError } = await treeFormat();
  try {
    return parseTree(json);
  } catch (error) {
    if (!(error instanceof TreeFormatError)) throw error;
    const details = { ...error.details, formatCode: error.code };
    if (error.code === 'LIMIT_EXCEEDED') {
      throw new StorageError(
        'TOO_LARGE',
        `This tree file is beyond Aerie's limits: ${error.message}`,
        details,
        error,
      );
    }
    throw new StorageError(
      'INVALID_IMPORT',
      `This file is not a tree Aerie can read: ${error.message}`,
      details,
      error,
    );
  }
}

/**
 * Imports a tree file and returns the new tree's id. The whole file is validated first (a broken or hostile
 * file is refused with the JSON path of its first bad field); then the record and all nodes are written in
 * ONE transaction. Texts containing HTML or scripts are content and are stored verbatim. Tree files carry no
 * document texts, so the record lists its documents without text (`documentId` absent, `origin: 'imported'`).
 * @throws StorageError INVALID_IMPORT, TOO_LARGE, ALREADY_EXISTS, QUOTA_EXCEEDED (nothing is then stored).
 */
export async function importTree(db: AerieDb, json: string, options: ImportOptions = {}): Promise<string> {
  const tree = await readTree(json, options.maxChars ?? MAX_IMPORT_BYTES);
  const id = options.id ?? randomId();
  const now = options.now ?? Date.now();
  const nodes = toNodeRecords(id, tree.nodes, tree.embedding.dim);
  const record: TreeRecord = {
    id,
    title: (options.title ?? tree.title).trim() || tree.title || 'Imported tree',
    createdAt: tree.createdAt,
    updatedAt: now,
    status: 'ready',
    origin: 'imported',
    documentIds: [],
    documents: tree.documents.map(({ id: docId, name, chars }) => ({ id: docId, name, chars })),
    params: { ...tree.params },
    embedding: { model: tree.embedding.model, dim: tree.embedding.dim },
    summarizer: { ...tree.summarizer },
    stats: computeStats(nodes),
  };
  await runTransaction(db, ['trees', 'nodes'], 'readwrite', 'import the tree', async (tx) => {
    const trees = tx.objectStore('trees');
    if (await trees.get(id)) {
      throw new StorageError('ALREADY_EXISTS', `A tree with id "${id}" exists already.`, { treeId: id });
    }
    await trees.put(record);
    const store = tx.objectStore('nodes');
    await forEachRequest(nodes, (node) => store.put(node));
  });
  return id;
}

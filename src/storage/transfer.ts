/**
 * Moving trees between machines as tree format v1 files (docs/tree-format.md). An export holds the tree and
 * nothing else: no settings, no endpoint, no API key. An import is validated in full before anything is
 * written, then written in one transaction, so a bad file or a failure part-way (a full quota) leaves nothing.
 */
/** The format module pulls in the cl100k tables (~1 MB): load it only when a tree is exported or imported. */
const treeFormat = () => import('../core/tree-format');
import type { RaptorTree } from '../core/types';
import { StorageError } from './errors';
import { randomId, sha256OfBytes } from './hash';
import { getDocument, prepareDocument, putDocumentsIfAbsent } from './documents';
import { loadTree, toNodeRecords } from './nodes';
import { getOriginal } from './originals';
import {
  checkOriginalLimits,
  importedDocuments,
  originalJson,
  readOriginals,
  verifyOriginal,
  withOriginals,
  type PdfReader,
  type StoredOriginal,
} from './transfer-originals';
import { getTree } from './trees';
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

/** Options of `exportTree`. */
export interface ExportOptions {
  /**
   * Also carry each document whose original file is kept: its text, pages, layout and the file (see
   * transfer-originals.ts), so the imported tree opens citations on their pages. Default false: the tree only.
   */
  originals?: boolean;
}

/**
 * The tree as a tree format v1 file (embeddings as base64 of little-endian float32, bit-exact), with its
 * documents' original files when asked.
 * @throws StorageError NOT_FOUND, NOT_READY.
 */
export async function exportTree(db: AerieDb, treeId: string, options: ExportOptions = {}): Promise<string> {
  const { serializeTree } = await treeFormat();
  const json = serializeTree(await loadTree(db, treeId));
  if (!options.originals) return json;
  const record = await getTree(db, treeId);
  const entries: string[] = [];
  for (const doc of record?.documents ?? []) {
    if (!doc.documentId || !doc.original?.kept) continue;
    const [document, original] = await Promise.all([
      getDocument(db, doc.documentId),
      getOriginal(db, doc.documentId, doc.original.sha256),
    ]);
    if (document && original) entries.push(await originalJson(doc.id, document, original));
  }
  return withOriginals(json, entries);
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
  /**
   * Reads a carried PDF's text and layout (PDF.js: the page's ingestion worker, called back). Without it no carried PDF
   * can be checked, so none is kept (their documents' texts still are, when they are the tree's).
   */
  readPdf?: PdfReader;
  /** Hears a sentence for each carried document left out (wholly or its PDF), and why. */
  onRefused?: (sentence: string) => void;
}

async function readTree(json: string, maxChars: number): Promise<{ tree: RaptorTree; root: unknown }> {
  if (typeof json !== 'string') {
    throw new StorageError('INVALID_IMPORT', 'A tree file must be read as text before it is imported.', {});
  }
  if (json.length > maxChars) throw tooLarge(json.length, maxChars, 'chars');
  const { parseTree, TreeFormatError } = await treeFormat();
  try {
    let root: unknown = json;
    try {
      root = JSON.parse(json);
    } catch {
      // parseTree says what is wrong with it, in the format's words.
    }
    // The sizes the carried originals claim, before the tree is parsed (its token recount is the slow part).
    checkOriginalLimits(root);
    return { tree: parseTree(root), root };
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
  const { tree, root } = await readTree(json, options.maxChars ?? MAX_IMPORT_BYTES);
  const carried = readOriginals(root, tree);
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
  // Documents carried with their originals: each checked to be the tree's, then hashed (outside the transaction).
  const verified = [];
  for (const c of carried) {
    const checked = await verifyOriginal(c, tree, options.readPdf);
    if (checked.refused) options.onRefused?.(checked.refused);
    if (checked.document) verified.push(checked);
  }
  const prepared = await Promise.all(
    verified.map(async (v) => ({
      v,
      document: await prepareDocument(v.document!, now),
      sha256: v.original ? await sha256OfBytes(v.bytes) : undefined,
    })),
  );
  const stored = new Map<string, StoredOriginal>(
    prepared.map(({ v, document, sha256 }) => [
      v.doc,
      v.original && sha256
        ? {
            documentId: document.id,
            original: { ...v.original, documentId: document.id, sha256, addedAt: now },
          }
        : { documentId: document.id, refusedBytes: v.bytes.length },
    ]),
  );
  record.documents = importedDocuments(record, stored);
  record.documentIds = [...new Set([...stored.values()].map((s) => s.documentId))];
  const stores = ['trees', 'nodes', 'documents', 'originalFiles'] as const;
  await runTransaction(db, stores, 'readwrite', 'import the tree', async (tx) => {
    const trees = tx.objectStore('trees');
    if (await trees.get(id)) {
      throw new StorageError('ALREADY_EXISTS', `A tree with id "${id}" exists already.`, { treeId: id });
    }
    await putDocumentsIfAbsent(
      tx.objectStore('documents'),
      prepared.map((p) => p.document),
    );
    // A file is keyed by its content: the same bytes of the same text are shared, no other file is replaced.
    const files = tx.objectStore('originalFiles');
    for (const { original } of stored.values()) {
      if (!original?.sha256) continue;
      const key: [string, string] = [original.documentId, original.sha256];
      if (!(await files.get(key))) await files.put({ ...original, sha256: original.sha256 });
    }
    await trees.put(record);
    const store = tx.objectStore('nodes');
    await forEachRequest(nodes, (node) => store.put(node));
  });
  return id;
}

/**
 * A tree file may carry its documents: with "Export with original files", each document whose text and PDF
 * are kept goes into the file's optional top-level `originals` array — its text, page starts, layout (runs as
 * base64 of little-endian int32) and the file (base64) — so the tree imported elsewhere opens its citations on
 * their pages. Readers that do not know the field ignore it (docs/tree-format.md). Everything read is checked
 * before anything is written: a broken entry refuses the import with its JSON path.
 */
import { decodeBase64, encodeBase64 } from '../core/base64';
import type { RaptorTree } from '../core/types';
import { MAX_TEXT_CHARS } from '../ingest/limits';
import type { PdfLayout, PdfPageLayout } from '../ingest/pdf-layout';
import { RUN_FIELDS } from '../ingest/pdf-layout';
import { StorageError } from './errors';
import { keptInfo, MAX_KEPT_ORIGINAL_BYTES } from './originals';
import type { DocumentRecord, OriginalRecord, TreeRecord } from './schema';

const INT32_BYTES = 4;

/** A document and its original as a tree file carries them. */
interface OriginalJson {
  /** The tree's document id (`documents[].id`). */
  doc: string;
  name: string;
  type: string;
  text: string;
  pageStarts?: number[];
  layout: { version: 1; pages: (Omit<PdfPageLayout, 'runs'> & { runs: string })[] };
  file: string;
}

/** What an import stores for one carried original. */
export interface ImportedOriginal {
  doc: string;
  document: Omit<DocumentRecord, 'id' | 'sha256' | 'addedAt'>;
  original: Omit<OriginalRecord, 'documentId' | 'addedAt'>;
}

function int32ToBase64(values: Int32Array): string {
  const bytes = new Uint8Array(values.length * INT32_BYTES);
  const view = new DataView(bytes.buffer);
  values.forEach((v, i) => view.setInt32(i * INT32_BYTES, v, true));
  return encodeBase64(bytes);
}

function base64ToInt32(text: string): Int32Array {
  const bytes = decodeBase64(text);
  if (bytes.length % INT32_BYTES !== 0) throw new Error('not a whole number of int32 values');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Int32Array(bytes.length / INT32_BYTES);
  for (let i = 0; i < out.length; i++) out[i] = view.getInt32(i * INT32_BYTES, true);
  return out;
}

/** The `originals` entry of one document (its text and kept file). */
export async function originalJson(
  doc: string,
  document: DocumentRecord,
  original: OriginalRecord,
): Promise<string> {
  const entry: OriginalJson = {
    doc,
    name: original.name,
    type: original.type,
    text: document.text,
    ...(document.pageStarts ? { pageStarts: document.pageStarts } : {}),
    layout: {
      version: 1,
      pages: original.layout.pages.map((p) => ({ ...p, runs: int32ToBase64(p.runs) })),
    },
    file: encodeBase64(new Uint8Array(await original.file.arrayBuffer())),
  };
  return JSON.stringify(entry);
}

/** A tree file with `entries` (from `originalJson`) added as its `originals` array. */
export function withOriginals(treeJson: string, entries: readonly string[]): string {
  if (entries.length === 0) return treeJson;
  const end = treeJson.lastIndexOf('}');
  return `${treeJson.slice(0, end)},"originals":[\n${entries.join(',\n')}\n]}\n`;
}

function bad(path: string, reason: string): StorageError {
  return new StorageError('INVALID_IMPORT', `This file is not a tree Aerie can read: ${path}: ${reason}`, {
    path,
  });
}

const isInt = (v: unknown, min = 0): v is number => Number.isInteger(v) && (v as number) >= min;

function readLayout(value: unknown, textLength: number, path: string): PdfLayout {
  const pages = (value as { pages?: unknown } | null)?.pages;
  if (!Array.isArray(pages)) throw bad(`${path}.pages`, 'expected an array');
  return {
    version: 1,
    pages: pages.map((raw: unknown, p): PdfPageLayout => {
      const at = `${path}.pages[${p}]`;
      const page = (raw ?? {}) as Record<string, unknown>;
      const { start, end, items, check } = page;
      if (!isInt(start) || !isInt(end) || end < start || end > textLength)
        throw bad(at, `start and end must lie within the text (0 … ${textLength})`);
      if (!isInt(items) || !isInt(check)) throw bad(at, 'items and check must be whole numbers');
      let runs: Int32Array;
      try {
        runs = base64ToInt32(String(page.runs));
      } catch (error) {
        throw bad(`${at}.runs`, (error as Error).message);
      }
      if (runs.length % RUN_FIELDS !== 0) throw bad(`${at}.runs`, `not a multiple of ${RUN_FIELDS} numbers`);
      for (let r = 0; r < runs.length; r += RUN_FIELDS) {
        const ok =
          runs[r] >= start &&
          runs[r] + runs[r + 3] <= end &&
          runs[r + 1] >= 0 &&
          runs[r + 1] < items &&
          runs[r + 2] >= 0 &&
          runs[r + 3] > 0;
        if (!ok) throw bad(`${at}.runs`, `run ${r / RUN_FIELDS} lies outside its page or items`);
      }
      return { start, end, items, check, runs };
    }),
  };
}

/**
 * The originals a parsed tree file carries (none when it has no `originals` field), checked in full.
 * @throws StorageError INVALID_IMPORT with the JSON path of the first bad field; TOO_LARGE for a file above
 *   `MAX_KEPT_ORIGINAL_BYTES`.
 */
export function readOriginals(root: unknown, tree: RaptorTree): ImportedOriginal[] {
  const list = (root as { originals?: unknown } | null)?.originals;
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw bad('originals', 'expected an array');
  const docs = new Map(tree.documents.map((d) => [d.id, d]));
  return list.map((raw: unknown, i) => {
    const path = `originals[${i}]`;
    const entry = (raw ?? {}) as Partial<Record<keyof OriginalJson, unknown>>;
    const doc = docs.get(String(entry.doc));
    if (!doc) throw bad(`${path}.doc`, 'names no document of the tree');
    const { text, name, type, pageStarts } = entry;
    if (typeof text !== 'string' || text.length > MAX_TEXT_CHARS)
      throw bad(`${path}.text`, 'expected the text');
    if (typeof name !== 'string' || typeof type !== 'string') throw bad(path, 'expected a name and a type');
    if (pageStarts !== undefined && !(Array.isArray(pageStarts) && pageStarts.every((s) => isInt(s))))
      throw bad(`${path}.pageStarts`, 'expected offsets');
    if (typeof entry.file !== 'string') throw bad(`${path}.file`, 'expected base64');
    if ((entry.file.length / 4) * 3 > MAX_KEPT_ORIGINAL_BYTES + 3) {
      throw new StorageError(
        'TOO_LARGE',
        `${path}.file is larger than the ${MAX_KEPT_ORIGINAL_BYTES} bytes Aerie keeps.`,
        {
          path,
        },
      );
    }
    let bytes: Uint8Array;
    try {
      bytes = decodeBase64(entry.file);
    } catch (error) {
      throw bad(`${path}.file`, (error as Error).message);
    }
    const layout = readLayout(entry.layout, text.length, `${path}.layout`);
    const document = { name, type, size: bytes.length, text, ...(pageStarts ? { pageStarts } : {}) };
    const file = new Blob([bytes as Uint8Array<ArrayBuffer>], { type });
    return { doc: doc.id, document, original: { name, type, size: bytes.length, file, layout } };
  });
}

/** The tree record's document entries once the imported originals are stored (by document id). */
export function importedDocuments(
  record: TreeRecord,
  stored: ReadonlyMap<string, { documentId: string; original: OriginalRecord }>,
): TreeRecord['documents'] {
  return record.documents.map((d) => {
    const s = stored.get(d.id);
    if (!s) return d;
    return { ...d, documentId: s.documentId, original: keptInfo(s.original) };
  });
}

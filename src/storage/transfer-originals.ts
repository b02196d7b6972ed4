/**
 * A tree file may carry its documents: with "Export with original files", each document whose text and PDF
 * are kept goes into the file's optional top-level `originals` array — its text, page starts, layout (runs as
 * base64 of little-endian int32) and the file (base64) — so the tree imported elsewhere opens its citations on
 * their pages. Readers that do not know the field ignore it (docs/tree-format.md). Everything read is checked
 * before anything is written: a broken entry refuses the import with its JSON path, and sizes (pages, items,
 * runs, bytes) are checked before the tree is even parsed (`checkOriginalLimits`).
 *
 * A carried document is kept only when it is the tree's (issue 41; `verifyOriginal`): its text must be the text
 * the tree's leaves were cut from, and its file a PDF whose text — read here by the app's own PDF.js — is that
 * text; the layout and page starts kept are the ones read here, not the file's. A document that fails is left
 * out with a sentence (the tree still imports), so a tree file can never plant another PDF for a document.
 */
import { decodeBase64, encodeBase64 } from '../core/base64';
import type { RaptorTree } from '../core/types';
import { MAX_PAGE_ITEMS, MAX_PDF_PAGES, MAX_TEXT_CHARS } from '../protocol/ingest-limits';
import type { PdfLayout, PdfPageLayout } from '../protocol/pdf-layout';
import { RUN_FIELDS } from '../protocol/pdf-layout';
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

/** What an import read for one carried original (before `verifyOriginal`). */
export interface ImportedOriginal {
  doc: string;
  document: Omit<DocumentRecord, 'id' | 'sha256' | 'addedAt'>;
  original: Omit<OriginalRecord, 'documentId' | 'addedAt' | 'sha256'>;
  /** The file's bytes, for the PDF check and its hash. */
  bytes: Uint8Array;
}

/**
 * Reads a PDF's text, page starts and layout the way the app's ingest does (src/ingest/pdf.ts, PDF.js):
 * injected by the caller (the page reads it in an ingestion worker; Node in tests). Rejects when the bytes are not a PDF it
 * can read.
 */
export type PdfReader = (
  bytes: Uint8Array,
  name: string,
) => Promise<{ text: string; pageStarts: number[]; layout: PdfLayout }>;

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
    return { doc: doc.id, document, original: { name, type, size: bytes.length, file, layout }, bytes };
  });
}

/** What the import stored for one carried document: its text's id and, when kept, its PDF's record. */
export interface StoredOriginal {
  documentId: string;
  original?: OriginalRecord;
  /** Bytes of a PDF that was left out. */
  refusedBytes?: number;
}

/** The tree record's document entries once the carried documents are stored (by the tree's document id). */
export function importedDocuments(
  record: TreeRecord,
  stored: ReadonlyMap<string, StoredOriginal>,
): TreeRecord['documents'] {
  return record.documents.map((d) => {
    const s = stored.get(d.id);
    if (!s) return d;
    const original = s.original
      ? keptInfo(s.original)
      : { kept: false as const, reason: 'mismatch' as const, bytes: s.refusedBytes ?? 0 };
    return { ...d, documentId: s.documentId, original };
  });
}

const formatNumber = (n: number) => n.toLocaleString('en');

function tooLarge(path: string, sentence: string, details: Record<string, unknown>): StorageError {
  return new StorageError('TOO_LARGE', `This tree file is beyond Aerie's limits: ${path}: ${sentence}`, {
    path,
    ...details,
  });
}

/**
 * Checks the sizes the file's `originals` claim — entries, text, file bytes, pages, items and runs per page —
 * before any work (the tree is not parsed yet), so a hostile file is refused at once with a sentence: a layout
 * of 200,000 pages once ran 11 s into the import and failed as "UnknownError". Shapes are checked later, in full
 * (`readOriginals`).
 * @throws StorageError TOO_LARGE with the JSON path of the first field beyond a limit.
 */
export function checkOriginalLimits(root: unknown): void {
  const list = (root as { originals?: unknown } | null)?.originals;
  if (!Array.isArray(list)) return;
  list.forEach((raw: unknown, i) => {
    const path = `originals[${i}]`;
    const entry = (raw ?? {}) as Partial<Record<keyof OriginalJson, unknown>>;
    if (typeof entry.text === 'string' && entry.text.length > MAX_TEXT_CHARS)
      throw tooLarge(
        `${path}.text`,
        `${formatNumber(entry.text.length)} characters, more than the ${formatNumber(MAX_TEXT_CHARS)} of a document`,
        { chars: entry.text.length },
      );
    if (typeof entry.file === 'string' && (entry.file.length / 4) * 3 > MAX_KEPT_ORIGINAL_BYTES + 3)
      throw tooLarge(
        `${path}.file`,
        `larger than the ${formatNumber(MAX_KEPT_ORIGINAL_BYTES)} bytes Aerie keeps of a PDF`,
        {},
      );
    const pages = (entry.layout as { pages?: unknown } | null | undefined)?.pages;
    if (!Array.isArray(pages)) return;
    if (pages.length > MAX_PDF_PAGES) {
      throw tooLarge(
        `${path}.layout.pages`,
        `the PDF's layout claims ${formatNumber(pages.length)} pages; Aerie reads PDFs of up to ${formatNumber(MAX_PDF_PAGES)} pages`,
        { pages: pages.length, maxPages: MAX_PDF_PAGES },
      );
    }
    pages.forEach((page: unknown, p) => {
      const { items, runs, start, end } = (page ?? {}) as Record<string, unknown>;
      if (typeof items === 'number' && items > MAX_PAGE_ITEMS) {
        throw tooLarge(
          `${path}.layout.pages[${p}].items`,
          `${formatNumber(items)} text items on one page; Aerie reads up to ${formatNumber(MAX_PAGE_ITEMS)}`,
          { items, maxItems: MAX_PAGE_ITEMS },
        );
      }
      // Each run covers at least one character of its page: no more runs than characters.
      const chars = typeof start === 'number' && typeof end === 'number' ? Math.max(0, end - start) : 0;
      const maxBase64 = Math.ceil((chars * RUN_FIELDS * INT32_BYTES) / 3) * 4;
      if (typeof runs === 'string' && runs.length > maxBase64) {
        throw tooLarge(
          `${path}.layout.pages[${p}].runs`,
          `more runs than the page has characters (${formatNumber(chars)})`,
          {},
        );
      }
    });
  });
}

/** What an import keeps of one carried document, once checked. */
export interface VerifiedOriginal {
  doc: string;
  /** The text, when it is the tree's (its page starts only when its PDF is kept too). */
  document?: ImportedOriginal['document'];
  /** The PDF, with the layout read from it here. */
  original?: ImportedOriginal['original'];
  bytes: Uint8Array;
  /** Why the PDF (and perhaps the text) was left out: a sentence for the person importing. */
  refused?: string;
}

/** The first leaf of document `doc` whose text is not `text.slice(start, end)`, or -1 when all are. */
function strayLeaf(tree: RaptorTree, doc: string, text: string): { id: number; found: number } {
  let found = 0;
  for (const node of tree.nodes) {
    if (node.layer !== 0 || node.source?.doc !== doc) continue;
    found++;
    const { start, end } = node.source;
    if (end > text.length || text.slice(start, end) !== node.text) return { id: node.id, found };
  }
  return { id: -1, found };
}

/** The first character where two texts differ. */
function firstDifference(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) return i;
  return n;
}

/**
 * Checks that a carried document is the tree's: its text is what the tree's leaves were cut from, and its file
 * is a PDF whose text (read by `readPdf`) is that text. Never throws for a document that fails: the result
 * says what is kept and why the rest is not.
 */
export async function verifyOriginal(
  carried: ImportedOriginal,
  tree: RaptorTree,
  readPdf: PdfReader | undefined,
): Promise<VerifiedOriginal> {
  const { doc, document, original, bytes } = carried;
  const name = `“${original.name}”`;
  const entry = tree.documents.find((d) => d.id === doc);
  const leaf = strayLeaf(tree, doc, document.text);
  const lengthDiffers = entry !== undefined && entry.chars > 0 && entry.chars !== document.text.length;
  if (leaf.found === 0 || leaf.id >= 0 || lengthDiffers) {
    const why =
      leaf.found === 0
        ? 'no passage of the tree comes from it'
        : leaf.id >= 0
          ? `passage ${leaf.id} of the tree is not in it`
          : `it has ${formatNumber(document.text.length)} characters where the tree's document had ${formatNumber(entry!.chars)}`;
    return {
      doc,
      bytes,
      refused: `The text carried with ${name} is not the text this tree was built from (${why}), so neither it nor the PDF was kept; its citations show no text.`,
    };
  }
  const textOnly = { name: document.name, type: document.type, size: document.size, text: document.text };
  const leftOut = (why: string): VerifiedOriginal => ({
    doc,
    document: textOnly,
    bytes,
    refused: `The PDF carried as ${name} ${why}, so it was not kept: the tree was imported with the document's text, and its citations open in the text view.`,
  });
  if (!readPdf) return leftOut('could not be checked here (no PDF reader in this context)');
  let read: Awaited<ReturnType<PdfReader>>;
  try {
    read = await readPdf(bytes.slice(), original.name);
  } catch (error) {
    return leftOut(`is not a PDF Aerie can read (${error instanceof Error ? error.message : String(error)})`);
  }
  if (read.text !== document.text) {
    const at = firstDifference(read.text, document.text);
    return leftOut(
      `is not this document: its text differs from the text the tree was built from (from character ${formatNumber(at)} on)`,
    );
  }
  return {
    doc,
    bytes,
    document: { ...textOnly, pageStarts: read.pageStarts },
    original: { ...original, layout: read.layout },
  };
}

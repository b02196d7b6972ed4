/**
 * The entries of the documents being added (useDocuments.ts), and what storage keeps of each: pure functions
 * from an entry to its stored record and back, and the entries a new file, a read text or a failure start as.
 */
import type { IngestedDocument } from '../../ingest';
import { MAX_FILE_BYTES } from '../../protocol/ingest-limits';
import { MAX_KEPT_ORIGINAL_BYTES, type PendingDocumentRecord } from '../../storage';
import { randomId } from './ids';
import { errorMessage } from './messages';
import type { PendingDocument } from './types';

/** One document being added: what the list shows, and what it holds while it is read and once it is. */
export interface Entry {
  pending: PendingDocument;
  document?: IngestedDocument;
  /** The file while it is being read (kept in storage so a reload reads it again). */
  file?: Blob & { name: string };
  /** A PDF's file once read, kept to go with its tree (a citation then opens on its page). */
  original?: Blob;
  /** When it was added (the stored order), ms since the epoch. */
  addedAt: number;
}

/** The file of a read document to keep with its tree: a PDF with its layout (the build checks its size). */
export function keptFile(document: IngestedDocument, file: Blob | undefined): Blob | undefined {
  return document.layout && file ? file : undefined;
}

/** What storage holds for an entry, or undefined when it holds nothing (a failed file, one too big to keep). */
export function recordOf(entry: Entry): PendingDocumentRecord | undefined {
  const { pending, document, file, addedAt } = entry;
  const base = { key: pending.key, name: pending.name, type: pending.type, size: pending.size, addedAt };
  if (document) {
    const record: PendingDocumentRecord = {
      ...base,
      type: document.type,
      text: document.text,
      warnings: document.warnings.slice(),
    };
    if (document.pageStarts) record.pageStarts = document.pageStarts.slice();
    if (document.layout) record.layout = document.layout;
    // A file too large to keep with a tree is not kept across a reload either (the build says so).
    if (document.layout && entry.original && entry.original.size <= MAX_KEPT_ORIGINAL_BYTES)
      record.file = entry.original;
    return record;
  }
  if (pending.status === 'reading' && file && file.size > 0 && file.size <= MAX_FILE_BYTES)
    return { ...base, file };
  return undefined;
}

/** What changes the stored record of an entry: 'text', 'file' or 'none'. */
export function signature(entry: Entry): string {
  const record = recordOf(entry);
  return record ? (record.text !== undefined ? 'text' : 'file') : 'none';
}

/** The entry a stored record comes back as after a reload (read again when it holds only its file). */
export function entryOf(record: PendingDocumentRecord): Entry {
  const pending: PendingDocument = {
    key: record.key,
    name: record.name,
    type: record.type,
    size: record.size,
    chars: record.text?.length ?? 0,
    status: typeof record.text === 'string' ? 'ready' : 'reading',
    warnings: record.warnings ?? [],
  };
  if (typeof record.text !== 'string') {
    // Stored Files come back as Files; a plain Blob gets its name back.
    const blob = record.file;
    const file = blob instanceof File || !blob ? blob : new File([blob], record.name, { type: blob.type });
    return { pending, file, addedAt: record.addedAt };
  }
  const document: IngestedDocument = {
    name: record.name,
    type: record.type,
    size: record.size,
    text: record.text,
    warnings: record.warnings ?? [],
  };
  if (record.pageStarts) document.pageStarts = record.pageStarts.slice();
  if (record.layout) document.layout = record.layout;
  return { pending, document, addedAt: record.addedAt, original: keptFile(document, record.file) };
}

/** A file just chosen, listed as being read (its type from its extension until the reader knows better). */
export function readingEntry(file: File): Entry {
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  const type = (
    ['md', 'html', 'pdf', 'docx'].includes(extension) ? extension : 'txt'
  ) as PendingDocument['type'];
  const pending: PendingDocument = {
    key: randomId('d'),
    name: file.name,
    type,
    size: file.size,
    chars: 0,
    status: 'reading',
    warnings: [],
  };
  return { pending, file, addedAt: Date.now() };
}

/** A text read already (pasted, or the sample), ready to build. */
export function readyEntry(document: IngestedDocument): Entry {
  const pending: PendingDocument = {
    key: randomId('d'),
    name: document.name,
    type: document.type,
    size: document.size,
    chars: document.text.length,
    status: 'ready',
    warnings: document.warnings,
  };
  return { pending, document, addedAt: Date.now() };
}

/** A text that could not be read: shown with its reason, never stored (a reload clears it). */
export function failedEntry(name: string, error: unknown): Entry {
  const pending: PendingDocument = {
    key: randomId('d'),
    name,
    type: 'paste',
    size: 0,
    chars: 0,
    status: 'error',
    warnings: [],
    error: errorMessage(error),
  };
  return { pending, addedAt: Date.now() };
}

/** The entry once the reader has its text: ready, its file let go (a PDF's kept as its original). */
export function readEntry(pending: PendingDocument, document: IngestedDocument, file: Blob): Partial<Entry> {
  return {
    document,
    file: undefined,
    original: keptFile(document, file),
    pending: {
      ...pending,
      type: document.type,
      chars: document.text.length,
      status: 'ready',
      warnings: document.warnings,
    },
  };
}

/**
 * Document texts, stored once per distinct text: the key is the SHA-256 of the text, so two trees built from
 * the same file share one record, and deleting one of them keeps it.
 */
import { StorageError } from './errors';
import { sha256Hex } from './hash';
import type { AerieDb, DocumentRecord } from './schema';
import { utf8Length } from './stats';
import { forEachRequest, runTransaction } from './transaction';

/** MIME type recorded when the caller gives none. */
const DEFAULT_DOCUMENT_TYPE = 'text/plain';

/** A document to store. */
export interface NewDocument {
  /** File name. */
  name: string;
  text: string;
  /** MIME type of the original file. Default `text/plain`. */
  type?: string;
  /** Size of the original file in bytes. Default the UTF-8 length of `text`. */
  size?: number;
  /** Start offsets of pages 2, 3, … in `text` (PDFs). */
  pageStarts?: number[];
}

/** The part of the documents store (in a readwrite transaction) that `putDocumentsIfAbsent` uses. */
export interface DocumentStore {
  get(id: string): Promise<DocumentRecord | undefined>;
  put(record: DocumentRecord): Promise<unknown>;
}

/** The id a text is stored under: the lower-case hex SHA-256 of its UTF-8 bytes. */
export function documentIdOf(text: string): Promise<string> {
  return sha256Hex(text);
}

/** The record a document would be stored as (hashing happens here, outside any transaction). */
export async function prepareDocument(doc: NewDocument, now: number): Promise<DocumentRecord> {
  if (typeof doc.text !== 'string') {
    throw new StorageError('INVALID_ARGUMENT', `The document "${doc.name}" has no text to store.`, {
      name: doc.name,
    });
  }
  const sha256 = await sha256Hex(doc.text);
  const record: DocumentRecord = {
    id: sha256,
    name: doc.name,
    type: doc.type ?? DEFAULT_DOCUMENT_TYPE,
    size: doc.size ?? utf8Length(doc.text),
    sha256,
    text: doc.text,
    addedAt: now,
  };
  if (doc.pageStarts) record.pageStarts = doc.pageStarts.slice();
  return record;
}

/** Writes the records that are not stored yet; returns the stored version of each (first name and date win). */
export async function putDocumentsIfAbsent(
  store: DocumentStore,
  records: readonly DocumentRecord[],
): Promise<DocumentRecord[]> {
  const stored: DocumentRecord[] = new Array(records.length);
  await forEachRequest(records, async (record, i) => {
    const existing = await store.get(record.id);
    if (existing) {
      stored[i] = existing;
      return;
    }
    stored[i] = record;
    await store.put(record);
  });
  return stored;
}

/**
 * Stores a document's text (once per distinct text) and returns its record. Saving the same text again
 * returns the existing record, with the name and date it was first saved under.
 */
export async function saveDocument(db: AerieDb, doc: NewDocument, now = Date.now()): Promise<DocumentRecord> {
  const record = await prepareDocument(doc, now);
  return runTransaction(db, ['documents'], 'readwrite', 'save the document', async (tx) => {
    const [stored] = await putDocumentsIfAbsent(tx.objectStore('documents'), [record]);
    return stored;
  });
}

/** The document with this id (its SHA-256), or undefined. */
export function getDocument(db: AerieDb, id: string): Promise<DocumentRecord | undefined> {
  return runTransaction(db, ['documents'], 'readonly', 'read the document', (tx) =>
    tx.objectStore('documents').get(id),
  );
}

/** The documents with these ids, in order (undefined where none is stored), read in one transaction. */
export function getDocuments(db: AerieDb, ids: readonly string[]): Promise<(DocumentRecord | undefined)[]> {
  return runTransaction(db, ['documents'], 'readonly', 'read the documents', (tx) =>
    Promise.all(ids.map((id) => tx.objectStore('documents').get(id))),
  );
}

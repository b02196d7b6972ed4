/**
 * Original files kept with their trees (schema version 5): a PDF and the layout that ties its extracted text to
 * its pages, so a citation opens on the page, its words highlighted. Since version 7 a file is keyed by its
 * document and the SHA-256 of its bytes (`originalFiles`), and a tree names the file it keeps
 * (`OriginalInfo.sha256`): trees of one text share a record only when they kept the same bytes, so no tree's
 * file ever stands in for another's (issue 41: before, the first file stored for a text was every tree's).
 * Files kept before version 7 stay in `originals` under their document alone, for the trees that name no
 * hash. A record goes when the last tree naming it is deleted (`deleteTree`).
 *
 * Kept after the tree is recorded, each in a transaction of its own: a file that does not fit (above
 * `MAX_KEPT_ORIGINAL_BYTES`, or a full disk) costs only the page view; the tree, its texts and the build go on,
 * and the tree's record says why its citations open in the text view.
 */
import { layoutBytes, type PdfLayout } from '../protocol/pdf-layout';
import { StorageError, treeNotFound } from './errors';
import { sha256OfBytes } from './hash';
import type { AerieDb, OriginalInfo, OriginalRecord, TreeDocumentEntry } from './schema';
import { runTransaction } from './transaction';

/**
 * Largest original file kept: 50 MB. PDF.js reads the whole file into the page's memory to draw a page, and
 * browsers give a site far less room than a disk holds (Safari asks past 1 GB); a PDF above this is mostly
 * scanned images, whose text a citation cannot highlight anyway.
 */
export const MAX_KEPT_ORIGINAL_BYTES = 50_000_000;

/** An original to keep beside a recorded tree. */
export interface NewOriginal {
  /** The file; absent when it could not be kept until the build (then `size` says how large it was). */
  file?: Blob;
  /** Bytes of the file, when `file` is absent. */
  size?: number;
  layout: PdfLayout;
  name: string;
  /** MIME type. Default `application/pdf`. */
  type?: string;
}

/** Options of `keepOriginals`. */
export interface KeepOptions {
  /** Largest file kept, bytes. Default `MAX_KEPT_ORIGINAL_BYTES`. */
  maxBytes?: number;
  /** Milliseconds since the epoch. Default now. */
  now?: number;
}

/** What `OriginalInfo` says of a record that is kept (with its hash, when it is keyed by one). */
export function keptInfo(record: Pick<OriginalRecord, 'size' | 'layout' | 'sha256'>): OriginalInfo {
  return {
    kept: true,
    bytes: record.size,
    layoutBytes: layoutBytes(record.layout),
    ...(record.sha256 ? { sha256: record.sha256 } : {}),
  };
}

/** The part of a transaction over both stores of original files that `findOriginal` reads. */
interface OriginalStores {
  objectStore(name: 'originals'): { get(key: string): Promise<OriginalRecord | undefined> };
  objectStore(name: 'originalFiles'): { get(key: [string, string]): Promise<OriginalRecord | undefined> };
}

/**
 * The kept file a tree's document names: by its hash in `originalFiles`, or, named without one (kept before
 * version 7), by its document in `originals`.
 */
export async function findOriginal(
  tx: OriginalStores,
  documentId: string,
  sha256: string | undefined,
): Promise<OriginalRecord | undefined> {
  return sha256
    ? tx.objectStore('originalFiles').get([documentId, sha256])
    : tx.objectStore('originals').get(documentId);
}

function withOriginal(
  documents: readonly TreeDocumentEntry[],
  index: number,
  info: OriginalInfo,
): TreeDocumentEntry[] {
  return documents.map((d, i) => (i === index ? { ...d, original: info } : d));
}

/** Records `info` on the tree's document `index` (its own transaction). */
function recordInfo(db: AerieDb, treeId: string, index: number, info: OriginalInfo): Promise<void> {
  return runTransaction(db, ['trees'], 'readwrite', 'record the kept file', async (tx) => {
    const record = await tx.objectStore('trees').get(treeId);
    if (!record) throw treeNotFound(treeId);
    await tx.objectStore('trees').put({ ...record, documents: withOriginal(record.documents, index, info) });
  });
}

/**
 * Keeps the original file of each of a recorded tree's documents that has one (`originals[i]` belongs to
 * `record.documents[i]`), and records on the tree whether it was kept. Never throws for a file that cannot be
 * kept: too large or a full disk are answers (`OriginalInfo`), and the tree stays as it was.
 * @returns what was recorded for each document (undefined where none was given).
 * @throws StorageError NOT_FOUND when the tree is gone.
 */
export async function keepOriginals(
  db: AerieDb,
  treeId: string,
  originals: readonly (NewOriginal | undefined)[],
  options: KeepOptions = {},
): Promise<(OriginalInfo | undefined)[]> {
  const maxBytes = options.maxBytes ?? MAX_KEPT_ORIGINAL_BYTES;
  const now = options.now ?? Date.now();
  const tree = await runTransaction(db, ['trees'], 'readonly', 'read the tree', (tx) =>
    tx.objectStore('trees').get(treeId),
  );
  if (!tree) throw treeNotFound(treeId);
  const out: (OriginalInfo | undefined)[] = [];
  for (let i = 0; i < originals.length; i++) {
    const original = originals[i];
    const documentId = tree.documents[i]?.documentId;
    if (!original || !documentId) {
      out.push(undefined);
      continue;
    }
    const size = original.file?.size ?? original.size ?? 0;
    if (size > maxBytes || !original.file) {
      const info: OriginalInfo = {
        kept: false,
        reason: size > maxBytes ? 'too-large' : 'unavailable',
        bytes: size,
      };
      await recordInfo(db, treeId, i, info);
      out.push(info);
      continue;
    }
    let sha256: string;
    try {
      sha256 = await sha256OfBytes(new Uint8Array(await original.file.arrayBuffer()));
    } catch (error) {
      if (error instanceof StorageError) throw error;
      const info: OriginalInfo = { kept: false, reason: 'unavailable', bytes: size };
      await recordInfo(db, treeId, i, info);
      out.push(info);
      continue;
    }
    const record: OriginalRecord & { sha256: string } = {
      documentId,
      sha256,
      name: original.name,
      type: original.type ?? 'application/pdf',
      size,
      file: original.file,
      layout: original.layout,
      addedAt: now,
    };
    try {
      out.push(
        await runTransaction(
          db,
          ['originalFiles', 'trees'],
          'readwrite',
          'keep the original file',
          async (tx) => {
            // The same bytes of the same text kept already (a rebuild, another tree of the same file): shared.
            const files = tx.objectStore('originalFiles');
            const stored = (await files.get([documentId, sha256])) ?? record;
            if (stored === record) await files.put(record);
            const info = keptInfo(stored);
            const current = await tx.objectStore('trees').get(treeId);
            if (!current) throw treeNotFound(treeId);
            await tx
              .objectStore('trees')
              .put({ ...current, documents: withOriginal(current.documents, i, info) });
            return info;
          },
        ),
      );
    } catch (error) {
      if (!(error instanceof StorageError) || error.code !== 'QUOTA_EXCEEDED') throw error;
      const info: OriginalInfo = { kept: false, reason: 'storage-full', bytes: size };
      // Saying why is a few bytes; if even that fails, the tree shows "not kept" without the reason.
      await recordInfo(db, treeId, i, info).catch(() => undefined);
      out.push(info);
    }
  }
  return out;
}

/**
 * The original file a tree keeps for a stored document text — the one with SHA-256 `sha256`, as the tree's
 * `OriginalInfo` names it (without a hash: the file kept for the text before version 7) — or undefined.
 */
export function getOriginal(
  db: AerieDb,
  documentId: string,
  sha256?: string,
): Promise<OriginalRecord | undefined> {
  return runTransaction(db, ['originals', 'originalFiles'], 'readonly', 'read the original file', (tx) =>
    findOriginal(tx, documentId, sha256),
  );
}

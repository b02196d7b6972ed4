/**
 * The one place that opens Aerie's IndexedDB database. It owns the schema versions and the migrations that
 * lead from each to the next, and the two-tab protocol: an open that another tab blocks reports it and gives
 * up after a timeout instead of hanging; a connection that blocks another tab's upgrade closes itself and
 * says so. Works on the main thread and in workers (no DOM APIs); the IndexedDB factory can be injected.
 */
import { wrap, type IDBPDatabase, type IDBPTransaction } from 'idb';
import { BLOCKED_MESSAGE, RELOAD_MESSAGE, StorageError, toStorageError } from './errors';
import {
  TREE_HISTORY_STORES,
  type AerieDb,
  type ConversationRecord,
  type ConversationTurn,
  type NodeRecord,
  type StoredTurn,
  type TreeRecord,
} from './schema';
import { computeStats, utf8Length } from './stats';

/** Name of the database in the browser. */
export const DB_NAME = 'aerie';
/** The schema version this code writes. */
export const DB_VERSION = 7;
/** How long an open waits for other tabs to close their connections before it fails with BLOCKED (ms). */
export const DEFAULT_BLOCKED_TIMEOUT_MS = 10_000;

type AnyDb = IDBPDatabase<unknown>;
type UpgradeTx = IDBPTransaction<unknown, string[], 'versionchange'>;

/** One step of the schema: what version `version` adds to version `version − 1`. */
interface Migration {
  version: number;
  description: string;
  /** Runs inside the upgrade transaction; it may await only IndexedDB requests (or the transaction ends). */
  migrate(db: AnyDb, tx: UpgradeTx): void | Promise<void>;
}

/** Upper bound of every `[treeId, nodeId]` key of one tree: arrays sort after numbers. */
export function treeNodeRange(treeId: string): IDBKeyRange {
  return IDBKeyRange.bound([treeId], [treeId, []]);
}

/** The shape of a tree record written by version 1: no `origin`, and `stats` without `bytes`. */
type V1TreeRecord = Omit<TreeRecord, 'origin' | 'stats'> & {
  origin?: TreeRecord['origin'];
  stats: Omit<TreeRecord['stats'], 'bytes'> & { bytes?: number };
};

/**
 * Version 5: documents' original files (PDFs), so a citation opens on its page. Trees recorded before have
 * none; their documents carry no `original`, and the app says their citations open in the text view.
 */
function keepOriginalFiles(db: AnyDb): void {
  db.createObjectStore('originals', { keyPath: 'documentId' });
}

/**
 * Version 7: original files keyed by their content (issue 41). Version 5 kept one file per document text,
 * the first stored winning, so a tree file carrying another PDF for a document planted it for every tree of
 * that text. The new store keys each file by `[documentId, sha256 of its bytes]`: a tree names the file it
 * keeps, and no tree's file stands in for another's. Nothing moves: files kept before stay in `originals`
 * (their trees name no hash and read them there) until their last tree is deleted, so no user's file is
 * rewritten during the upgrade (an upgrade cannot hash: it may await only its own requests).
 */
function keyOriginalsByContent(db: AnyDb): void {
  db.createObjectStore('originalFiles', { keyPath: ['documentId', 'sha256'] });
}

/** The shape of a conversation record written by versions 4 and 5: every turn inside it. */
type V4ConversationRecord = Omit<ConversationRecord, 'turnCount'> & { turns: ConversationTurn[] };

/**
 * Version 6: a conversation's turns move out of its record into the `turns` store, one record each under
 * `[conversationId, seq]` (and indexed by `[conversationId, id]`). Version 4 rewrote the whole record — 1.8 MB
 * after 200 turns — on every new turn; now a turn writes itself and the conversation's small record.
 */
async function splitConversationTurns(db: AnyDb, tx: UpgradeTx): Promise<void> {
  db.createObjectStore('turns', { keyPath: ['conversationId', 'seq'] }).createIndex('byTurnId', [
    'conversationId',
    'id',
  ]);
  const turns = tx.objectStore('turns');
  let cursor = await tx.objectStore('conversations').openCursor();
  while (cursor) {
    const { turns: old, ...rest } = cursor.value as V4ConversationRecord;
    const list = Array.isArray(old) ? old : [];
    for (let seq = 0; seq < list.length; seq++) {
      const stored: StoredTurn = { ...list[seq], conversationId: rest.id, seq };
      await turns.put(stored);
    }
    const record: ConversationRecord = { ...rest, turnCount: list.length };
    await cursor.update(record);
    cursor = await cursor.continue();
  }
}

const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'create the stores',
    migrate(db) {
      db.createObjectStore('documents', { keyPath: 'id' });
      db.createObjectStore('trees', { keyPath: 'id' }).createIndex('byUpdatedAt', 'updatedAt');
      db.createObjectStore('nodes', { keyPath: ['treeId', 'id'] });
      db.createObjectStore('settings');
      db.createObjectStore('cache', { keyPath: 'key' }).createIndex('byTree', 'treeIds', {
        multiEntry: true,
      });
      db.createObjectStore('checkpoints', { keyPath: 'treeId' });
    },
  },
  {
    version: 2,
    description: 'index trees by document, and record each tree’s origin and size on disk',
    async migrate(_db, tx) {
      // Version 1 found the other users of a document by scanning every tree; the index makes deleting a
      // tree that shares its texts a lookup. Size on disk and origin were added to the library's rows.
      const trees = tx.objectStore('trees');
      trees.createIndex('byDocument', 'documentIds', { multiEntry: true });
      const nodes = tx.objectStore('nodes');
      const documents = tx.objectStore('documents');
      let cursor = await trees.openCursor();
      while (cursor) {
        const record = cursor.value as V1TreeRecord;
        if (typeof record.stats?.bytes !== 'number' || record.origin === undefined) {
          const treeNodes = (await nodes.getAll(treeNodeRange(record.id))) as NodeRecord[];
          let textBytes = 0;
          for (const id of record.documentIds ?? []) {
            const doc = (await documents.get(id)) as { text?: string } | undefined;
            textBytes += doc?.text ? utf8Length(doc.text) : 0;
          }
          const upgraded: TreeRecord = {
            ...record,
            origin: record.origin ?? (record.request ? 'built' : 'imported'),
            stats: computeStats(treeNodes, textBytes),
          };
          await cursor.update(upgraded);
        }
        cursor = await cursor.continue();
      }
    },
  },
  {
    version: 3,
    description: 'keep documents added but not built yet',
    migrate(db) {
      // Documents dropped into the page used to live only in its memory: a reload lost them.
      db.createObjectStore('pending', { keyPath: 'key' });
    },
  },
  {
    version: 4,
    description: 'keep each tree’s conversations and evaluations',
    migrate(db) {
      for (const name of TREE_HISTORY_STORES) {
        db.createObjectStore(name, { keyPath: 'id' }).createIndex('byTree', 'treeId');
      }
    },
  },
  { version: 5, description: 'keep the original file of each PDF', migrate: keepOriginalFiles },
  {
    version: 6,
    description: 'keep each conversation turn on its own',
    migrate: splitConversationTurns,
  },
  { version: 7, description: 'key original files by their content', migrate: keyOriginalsByContent },
];

/** Shown when another tab keeps an older version open and our upgrade waits. */
export interface BlockedInfo {
  /** Version on disk. */
  currentVersion: number;
  /** Version we asked for. */
  requestedVersion: number;
  /** "Close other Aerie tabs to finish updating the storage." */
  message: string;
}

/** Sent when another tab wants to upgrade or delete the database: our connection has been closed. */
export interface VersionChangeInfo {
  currentVersion: number;
  /** Null when the other tab deletes the database. */
  requestedVersion: number | null;
  /** "Aerie was updated in another tab. Reload this page to continue." */
  message: string;
}

/** Options of `openAerieDb`. */
export interface OpenOptions {
  /** IndexedDB factory. Default `globalThis.indexedDB` (tests pass a fresh fake-indexeddb factory). */
  factory?: IDBFactory;
  /** Database name. Default `aerie`. */
  name?: string;
  /** Schema version to open, 1 … DB_VERSION. Default DB_VERSION; lower only to test migrations. */
  version?: number;
  /** Give up with StorageError BLOCKED this long (ms) after another tab blocked the upgrade. Default 10,000. */
  blockedTimeoutMs?: number;
  /** Another tab keeps an old version open: show `info.message` (the open goes on until the timeout). */
  onBlocked?: (info: BlockedInfo) => void;
  /** Another tab upgraded (or deleted) the database; our connection is already closed. Show `info.message`. */
  onVersionChange?: (info: VersionChangeInfo) => void;
  /** The browser closed the connection abnormally (storage cleared, disk error); open a new one. */
  onTerminated?: () => void;
}

async function runMigrations(
  db: AnyDb,
  tx: UpgradeTx,
  from: number,
  to: number,
  failed: (m: Migration, e: unknown) => void,
) {
  for (const migration of MIGRATIONS) {
    if (migration.version <= from || migration.version > to) continue;
    try {
      // Awaited only when asynchronous, so synchronous steps run inside the upgradeneeded event itself.
      const pending = migration.migrate(db, tx);
      if (pending) await pending;
    } catch (error) {
      failed(migration, error);
      throw error;
    }
  }
}

/**
 * Opens (creating or upgrading as needed) Aerie's database. Every other storage function takes the returned
 * connection. When another tab upgrades the database this connection closes itself and calls
 * `onVersionChange`; later calls on it fail with StorageError CLOSED.
 * @throws StorageError UNAVAILABLE (no IndexedDB), BLOCKED (timeout), VERSION_TOO_NEW, MIGRATION_FAILED.
 */
export function openAerieDb(options: OpenOptions = {}): Promise<AerieDb> {
  const factory = options.factory ?? (globalThis as { indexedDB?: IDBFactory }).indexedDB;
  const name = options.name ?? DB_NAME;
  const version = options.version ?? DB_VERSION;
  const timeoutMs = options.blockedTimeoutMs ?? DEFAULT_BLOCKED_TIMEOUT_MS;
  if (!factory) {
    return Promise.reject(
      new StorageError(
        'UNAVAILABLE',
        'This browser offers no IndexedDB storage here (a private window may disable it), so trees cannot be ' +
          'saved. Use a normal window of a current browser.',
      ),
    );
  }
  if (!Number.isInteger(version) || version < 1 || version > DB_VERSION) {
    return Promise.reject(
      new StorageError('INVALID_ARGUMENT', `Schema version ${version} does not exist (1 … ${DB_VERSION}).`, {
        version,
      }),
    );
  }
  let request: IDBOpenDBRequest;
  try {
    request = factory.open(name, version);
  } catch (error) {
    return Promise.reject(toStorageError(error, 'open the database'));
  }
  let migrationFailure: StorageError | undefined;
  request.addEventListener('upgradeneeded', (event) => {
    const db = wrap(request.result) as AnyDb;
    const tx = wrap(request.transaction as IDBTransaction) as unknown as UpgradeTx;
    // A failed upgrade surfaces through the open request; observe the transaction's own promise too.
    tx.done.catch(() => undefined);
    const to = event.newVersion ?? version;
    runMigrations(db, tx, event.oldVersion, to, (migration, error) => {
      const reason = error instanceof Error ? error.message : String(error);
      migrationFailure = new StorageError(
        'MIGRATION_FAILED',
        `Updating the stored data to version ${migration.version} (${migration.description}) failed: ${reason}. ` +
          'The data was left as it was; reload the page to try again.',
        { from: event.oldVersion, to, failedAt: migration.version },
        error,
      );
    }).catch(() => {
      try {
        tx.abort();
      } catch {
        // The transaction already ended; the open fails either way.
      }
    });
  });

  return new Promise<AerieDb>((resolve, reject) => {
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    request.addEventListener('blocked', (event) => {
      options.onBlocked?.({
        currentVersion: event.oldVersion,
        requestedVersion: version,
        message: BLOCKED_MESSAGE,
      });
      timer ??= setTimeout(() => {
        if (settled) return;
        settled = true;
        reject(
          new StorageError(
            'BLOCKED',
            `${BLOCKED_MESSAGE} Another tab keeps version ${event.oldVersion} of the storage open, so it cannot ` +
              `be updated to version ${version}. Then reload this page.`,
            { currentVersion: event.oldVersion, requestedVersion: version, timeoutMs },
          ),
        );
      }, timeoutMs);
    });
    (wrap(request) as unknown as Promise<AerieDb>).then(
      (db) => {
        clearTimeout(timer);
        if (settled) {
          // The caller was told BLOCKED already; the upgrade finished later, and nobody holds this connection.
          db.close();
          return;
        }
        settled = true;
        db.addEventListener('versionchange', (event) => {
          // Keeping the connection open would block the other tab's upgrade forever.
          db.close();
          options.onVersionChange?.({
            currentVersion: event.oldVersion,
            requestedVersion: event.newVersion,
            message: RELOAD_MESSAGE,
          });
        });
        db.addEventListener('close', () => options.onTerminated?.());
        resolve(db);
      },
      (error: unknown) => {
        clearTimeout(timer);
        if (settled) return;
        settled = true;
        reject(migrationFailure ?? toStorageError(error, 'open the database'));
      },
    );
  });
}

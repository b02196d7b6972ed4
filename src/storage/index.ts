/**
 * Aerie's storage: the one module that owns IndexedDB. Open a connection with `openAerieDb`, then pass it to
 * the typed functions below. Runs on the main thread and in workers (IndexedDB and crypto.subtle only).
 * See docs/storage.md.
 */
export {
  DB_NAME,
  DB_VERSION,
  DEFAULT_BLOCKED_TIMEOUT_MS,
  openAerieDb,
  type BlockedInfo,
  type OpenOptions,
  type VersionChangeInfo,
} from './db';
export {
  BLOCKED_MESSAGE,
  isQuotaError,
  QUOTA_MESSAGE,
  RELOAD_MESSAGE,
  StorageError,
  type StorageErrorCode,
} from './errors';
export {
  deleteEvalRun,
  deleteEvalSet,
  getEvalRun,
  listAllEvalRuns,
  listAllEvalSets,
  listEvalRuns,
  listEvalSets,
  saveEvalRun,
  saveEvalSet,
} from './evaluations';
export type {
  AerieDb,
  AerieSchema,
  CacheEntry,
  CheckpointRecord,
  DocumentRecord,
  EvalRunOptions,
  EvalRunRecord,
  EvalRunStatus,
  EvalSetRecord,
  EvalSetSource,
  NodeRecord,
  OriginalInfo,
  OriginalRecord,
  PendingDocumentRecord,
  SettingsMap,
  StoredBuildRequest,
  StoredDocumentRef,
  StoredEmbeddingChoice,
  StoredEndpoint,
  StoredSummarizerChoice,
  RecordedSummarizer,
  StoreName,
  SummaryCuts,
  TreeDocumentEntry,
  TreeOrigin,
  TreeRecord,
  TreeStats,
  TreeStatus,
} from './schema';
export { DEFAULT_EMBEDDING_DTYPE } from './schema';
export type { ConversationRecord, ConversationTurn, StoredTurn, TurnPassage, TurnSettings } from './schema';
export {
  conversationTitle,
  CONVERSATION_TITLE_CHARS,
  deleteConversation,
  deleteConversations,
  getConversation,
  getTurns,
  listConversations,
  MAX_CONVERSATION_TURNS,
  saveTurn,
  startConversation,
  type SavedTurn,
} from './conversations';
export { moveTreeHistory } from './history';
export { documentIdOf, getDocument, getDocuments, saveDocument, type NewDocument } from './documents';
export {
  createTree,
  deleteTree,
  getCheckpoint,
  getTree,
  listTrees,
  markBuildStopped,
  recordEmbeddingDtype,
  recordModelFallback,
  recordSummarizerFallback,
  recordProgress,
  renameTree,
  updateTree,
  type CreateTreeOptions,
  type FileInfo,
  type ModelFallback,
  type TreePatch,
  type TreeSummary,
} from './trees';
export {
  completeTree,
  getNode,
  loadTree,
  saveNodeLabels,
  saveTreeNodes,
  type CompleteTreeOptions,
  type NodeLabel,
} from './nodes';
export {
  getOriginal,
  keepOriginals,
  MAX_KEPT_ORIGINAL_BYTES,
  type KeepOptions,
  type NewOriginal,
} from './originals';
export { deletePendingDocuments, listPendingDocuments, putPendingDocument } from './pending';
export {
  duplicateTreeSettings,
  resumeRequest,
  withoutSecrets,
  type BuildDraft,
  type RestoreOptions,
} from './requests';
export { deleteSetting, getSetting, setSetting, setSettings } from './settings';
export {
  embeddingHash,
  evalHash,
  lookupCache,
  saveCache,
  summaryHash,
  type EmbeddingCacheKey,
  type SummaryCacheKey,
} from './cache';
export { checkImportSize, exportTree, importTree, MAX_IMPORT_BYTES, type ImportOptions } from './transfer';
export {
  countRecords,
  estimateStorage,
  isStoragePersisted,
  requestPersistence,
  type RecordCounts,
  type StorageManagerLike,
  type StorageUsage,
} from './quota';
export { estimateNodeBytes, ownedVector, utf8Length } from './stats';
export { type KeyValueStore, type LedgerEntry, markDeletedInLedger, reconcileLedger } from './ledger';
export { createImportService, type ImportApi, type ImportOutcome } from './import-service';
export { originalJson, withOriginals } from './transfer-originals';

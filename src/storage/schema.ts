/**
 * The shapes of Aerie's IndexedDB database, typed once for idb. `db.ts` opens it and owns versions and
 * migrations; every other module reaches the records through typed functions. Everything here is plain data
 * (structured clone): embeddings are Float32Array, never JSON arrays.
 */
import type { DBSchema, IDBPDatabase } from 'idb';
import type { EvalQuestion, RetrievalReport } from '../core/eval';
import type { SearchMode } from '../core/search';
import type { BuildParams, NodeSource, RaptorTree, SummarizerInfo, TreeDocument } from '../core/types';
import type { PdfLayout } from '../protocol/pdf-layout';
import type { IngestType } from '../protocol/ingest';
import type { LlmEndpoint } from '../llm';
import type { ModelChoice } from '../models/embed';
import type { DeviceUse } from '../models/device';
import type { BuiltinModelChoice, PipelineProgress, PipelineStageEvent, RunDevices } from '../protocol/build';

/** The dtype a browser model runs with when a request names none (the embedder's default). */
export const DEFAULT_EMBEDDING_DTYPE = 'q8';

/** Where a tree is in its life. */
export type TreeStatus = 'building' | 'paused' | 'ready' | 'failed';

/** Whether a tree was built here or imported from a file (imports carry no document texts). */
export type TreeOrigin = 'built' | 'imported';

/** A document's text, stored once however many trees use it. */
export interface DocumentRecord {
  /** The SHA-256 of `text` (lower-case hex): the same text is stored once and shared by trees. */
  id: string;
  /** File name when it was first added. */
  name: string;
  /** MIME type of the original file, e.g. `text/plain`, `application/pdf`. */
  type: string;
  /** Size of the original file in bytes (a PDF's bytes, not its text's). */
  size: number;
  /** Same as `id`, kept as a field so the record says what it is. */
  sha256: string;
  text: string;
  /** Start offsets of pages 2, 3, … in `text` (PDFs). */
  pageStarts?: number[];
  /** Milliseconds since the epoch. */
  addedAt: number;
}

/** An endpoint as stored in a tree: no API key, no secret headers, no credentials in the URL. */
export type StoredEndpoint = Omit<LlmEndpoint, 'apiKey'>;

/** `EmbeddingChoice` without secrets. */
export type StoredEmbeddingChoice =
  ({ kind: 'browser' } & ModelChoice) | { kind: 'endpoint'; endpoint: StoredEndpoint };

/** `SummarizerChoice` without secrets. */
export type StoredSummarizerChoice =
  | { kind: 'extractive' }
  | { kind: 'llm'; endpoint: StoredEndpoint; systemPrompt?: string; userTemplate?: string }
  | { kind: 'builtin'; generator: BuiltinModelChoice; systemPrompt?: string; userTemplate?: string };

/**
 * What wrote a tree's summaries, as its record keeps it: `fallbackFrom` is the built-in model the user chose
 * when it could not be loaded (the hub was unreachable) and the extractive summariser wrote them instead.
 */
export type RecordedSummarizer = SummarizerInfo & { fallbackFrom?: string; cuts?: SummaryCuts };

/**
 * Summaries of a tree that its model wrote past the summary budget, each cut at the last sentence end within it
 * (absent when none was). `endpoint` is the endpoint's origin (absent for the built-in model).
 */
export interface SummaryCuts {
  /** Summaries cut. */
  cut: number;
  /** Summaries in the tree. */
  of: number;
  /** The budget in cl100k tokens (the build's `summaryTokens`). */
  budget: number;
  /** The model that wrote them (as the tree records it). */
  model: string;
  /** The endpoint's origin, e.g. `http://localhost:11434`. */
  endpoint?: string;
}

/** A document of a stored build request: a reference to its text in the documents store. */
export interface StoredDocumentRef {
  /** The id the build records in leaf sources (`BuildDocument.id`). */
  id?: string;
  name?: string;
  /** Key of the text in the documents store. */
  documentId: string;
  pageStarts?: number[];
}

/** The `BuildRequest` needed to resume a build, without API keys and without document texts. */
export interface StoredBuildRequest {
  title: string;
  documents: StoredDocumentRef[];
  params: Partial<BuildParams> & { concurrency?: number };
  embedding: StoredEmbeddingChoice;
  summarizer: StoredSummarizerChoice;
}

/**
 * Whether a document's original file is kept with the tree (schema version 5), so a citation opens on its
 * PDF page. Absent on trees recorded before originals were kept, and for documents that are not PDFs.
 */
export type OriginalInfo =
  /**
   * Kept: the file's bytes and its layout's (the tie between text and pages), in the `originalFiles` store
   * under `[documentId, sha256]` (in the `originals` store under `documentId` when kept before version 7).
   */
  | {
      kept: true;
      bytes: number;
      layoutBytes: number;
      /** SHA-256 of the file (schema version 7): the key of its record. Absent: kept before, by document. */
      sha256?: string;
    }
  /**
   * Not kept, and why: above the limit (`MAX_KEPT_ORIGINAL_BYTES`), the storage was full, the tree was imported
   * from a file without it, or the file could not be read back from the list of added documents.
   */
  | {
      kept: false;
      /** `mismatch`: an imported tree file carried a PDF that is not this document (issue 41). */
      reason: 'too-large' | 'storage-full' | 'not-in-file' | 'unavailable' | 'mismatch';
      bytes: number;
    };

/** A document as a tree lists it; `documentId` is absent when its text is not stored (imports). */
export interface TreeDocumentEntry extends TreeDocument {
  documentId?: string;
  /** PDFs built since schema version 5: whether the original file is kept (see `OriginalInfo`). */
  original?: OriginalInfo;
}

/** Sizes of a tree, kept on its record so the library lists trees without reading nodes. */
export interface TreeStats {
  /** Summary layers above the leaves (0 for leaves only). */
  layers: number;
  /** Node count of layer 0, 1, … */
  nodesPerLayer: number[];
  nodeCount: number;
  /** Estimated bytes on disk: texts (UTF-8) + embeddings (4 B a float) + the other fields as JSON. */
  bytes: number;
}

/** A tree's metadata; its nodes live in the nodes store. */
export interface TreeRecord {
  id: string;
  title: string;
  /** ISO 8601, as in the tree format. */
  createdAt: string;
  /** Milliseconds since the epoch of the last change (the library sorts by it). */
  updatedAt: number;
  status: TreeStatus;
  origin: TreeOrigin;
  /** Keys of the stored texts this tree uses (indexed, so a document shared by trees is kept). */
  documentIds: string[];
  documents: TreeDocumentEntry[];
  params: RaptorTree['params'];
  /**
   * `dim` is known once the first vectors exist; `dtype` for browser models. `fallbackFrom` is the model the user
   * chose when it could not be loaded (the hub was unreachable) and `model` took its place.
   */
  embedding: { model: string; dim?: number; dtype?: string; fallbackFrom?: string };
  summarizer: RecordedSummarizer;
  /** Where its models ran, once built in this browser (WebGPU and which adapter, or WASM and its threads). */
  devices?: RunDevices;
  /** What to run to resume (built trees only). */
  request?: StoredBuildRequest;
  stats: TreeStats;
  error?: { code: string; message: string };
  /** The last progress report of the build. */
  progress?: PipelineProgress;
}

/** One node of one tree. */
export interface NodeRecord {
  treeId: string;
  id: number;
  layer: number;
  text: string;
  tokens: number;
  children: number[];
  /** A Float32Array with its own buffer of exactly dim × 4 bytes. */
  embedding: Float32Array;
  source?: NodeSource;
  /** A summary's topic label (`TreeNode.label`); absent on leaves and on nodes stored before labels existed. */
  label?: string[];
  /** A summary's LLM-written title (`TreeNode.title`), when there is one. */
  title?: string;
}

/** A cached model output, keyed by the SHA-256 of everything that determines it. */
export type CacheEntry = {
  key: string;
  /** Trees that used this entry; deleting a tree removes entries no other tree uses. */
  treeIds: string[];
  /** Milliseconds since the epoch. */
  createdAt: number;
} & (
  | { kind: 'embedding'; value: Float32Array }
  /** `cut`: the model wrote more than the summary budget and `value` is its cut (see `fitToTokenBudget`). */
  | { kind: 'summary'; value: string; cut?: boolean }
  /** A reply of the evaluation's model: a written question, an answer or a verdict (src/storage/evaluations.ts). */
  | { kind: 'eval'; value: string }
);

/**
 * A document the user added that is not part of a build yet (schema version 3). It is stored the moment it is
 * added, so a reload keeps it: first the file itself (`file`) while it is read, then its text (`text`). Building
 * moves it into the tree in the same transaction that records the build.
 */
export interface PendingDocumentRecord {
  /** The page's key for the entry (random, unique). */
  key: string;
  name: string;
  type: IngestType;
  /** Bytes of the original file. */
  size: number;
  /** Milliseconds since the epoch; the list keeps this order. */
  addedAt: number;
  /** The file while it is being read (a reload reads it again). */
  file?: Blob;
  /** The extracted text once read. */
  text?: string;
  /** PDFs: where pages 2, 3, … start in `text`. */
  pageStarts?: number[];
  /**
   * PDFs (schema version 5): the tie between `text` and the pages; `file` is then kept beside the text, so the
   * build can keep the original with its tree.
   */
  layout?: PdfLayout;
  /** Non-fatal notes from reading it ("read as Windows-1252"). */
  warnings?: string[];
}

/** Where a build stopped, for the library's "resume" display. */
export interface CheckpointRecord {
  treeId: string;
  stage: PipelineStageEvent['stage'];
  /** Layer being built (0 for chunking, leaf embedding and model loading). */
  layer: number;
  done: number;
  total: number;
  /** Milliseconds since the epoch. */
  updatedAt: number;
}

/**
 * What every record of a tree's own history carries (schema version 4): conversations (questions and answers,
 * issue 25) and evaluation question sets and runs (issue 26). Deleting the tree deletes them (`byTree`).
 * The modules that own each kind extend these shapes; the schema fixes only the keys and the index.
 */
export interface TreeHistoryRecord {
  /** Random, unique. */
  id: string;
  /** The tree this belongs to. */
  treeId: string;
  /** Milliseconds since the epoch. */
  createdAt: number;
  /** Milliseconds since the epoch of the last change. */
  updatedAt: number;
}

/** A passage as a conversation keeps it: enough to show and cite it after the tree was rebuilt. */
export interface TurnPassage {
  /** Node id in the tree as it was when the turn was asked (`ConversationTurn.treeStamp`). */
  id: number;
  layer: number;
  /** The text that went into the context (the node's, or its excerpt when some sentences were left out). */
  text: string;
  /** Where it is in the documents, e.g. "report.pdf, page 7" (turns asked since issue 35). */
  where?: string;
}

/** The retrieval settings a turn ran with (the Ask panel's, at that moment). */
export interface TurnSettings {
  /** The mode whose passages were the answer's context. */
  mode: 'collapsed' | 'traversal' | 'leaves';
  search: 'meaning' | 'keywords' | 'both';
  rerank: boolean;
  distinct: boolean;
  /** Collapsed / leaves: token budget; traversal: top-k per layer (and, by keywords, its token budget). */
  maxTokens?: number;
  topK?: number;
}

/** One question and what came of it. */
export interface ConversationTurn {
  /** Random, unique within the conversation. */
  id: string;
  /** The question as the user typed it. */
  question: string;
  /**
   * What was searched: the question itself, or a follow-up made standalone (`rewrite` says how) and possibly
   * edited by the user before it ran.
   */
  search: string;
  /** How `search` came from `question`: unchanged, rewritten by the answering LLM, or joined with earlier questions. */
  rewrite: 'none' | 'llm' | 'joined';
  /** Milliseconds since the epoch. */
  askedAt: number;
  settings: TurnSettings;
  /** Node ids each mode selected (one mode after "Ask", all three after "Compare modes"). */
  retrieved: Partial<Record<TurnSettings['mode'], number[]>>;
  /** The answer's context, numbered [1] … in this order. */
  passages: TurnPassage[];
  /** The answer, when an answering model wrote one (or failed to). */
  answer?: {
    text: string;
    /** Passage number n (as written "[n]") → node id. */
    citations: { n: number; nodeId: number }[];
    /** Who wrote it, e.g. the endpoint's model. */
    writer?: string;
    /** Why it stopped short: the model failed or the user stopped it. */
    error?: string;
  };
  /**
   * Which build of the tree the ids refer to (`treeStampOf`): after a rebuild the same tree id holds other
   * nodes, so older turns show their stored passages and do not open nodes by id.
   */
  treeStamp: string;
}

/**
 * A conversation with one tree (schema version 6): its title and how many turns it holds. The turns live in the
 * `turns` store, one record each, so a new turn writes only itself and this small record.
 */
export interface ConversationRecord extends TreeHistoryRecord {
  kind: 'conversation';
  /** The first question, shortened: what the list of conversations shows. */
  title: string;
  /** Turns stored (`StoredTurn.seq` runs 0 … turnCount − 1). */
  turnCount: number;
}

/** One turn as the `turns` store keeps it (schema version 6): key `[conversationId, seq]`. */
export type StoredTurn = ConversationTurn & {
  conversationId: string;
  /** Its place in the conversation, from 0. */
  seq: number;
};

/** Where an evaluation question set came from. */
export type EvalSetSource = 'typed' | 'imported' | 'generated';

/** A set of evaluation questions for one tree (typed, imported or generated). */
export interface EvalSetRecord extends TreeHistoryRecord {
  kind: 'eval-set';
  /** Shown in the lists: the file name, "Typed questions", "Generated (…)". */
  name: string;
  source: EvalSetSource;
  questions: EvalQuestion[];
  /** Imported sets: rows of the file that could not be read (each was shown when it was imported). */
  skippedRows?: number;
  /** Imported sets: good questions of the file past the most a set keeps (`MAX_QUESTIONS`), left out. */
  overLimit?: number;
  /**
   * Generated sets: the model that wrote them, how many of each kind were asked for, the sample's seed, the
   * questions planned (`calls`), the nodes skipped after a retry (`failures`), the replies asked for again
   * (`retried`), and whether the generation ended early (`stopped`: cancelled, or the endpoint failed; the set
   * keeps every question written until then).
   */
  generator?: {
    model: string;
    count: number;
    seed: number;
    calls: number;
    failures: number;
    retried?: number;
    stopped?: 'cancelled' | 'failed';
  };
}

/** Where an evaluation run is. */
export type EvalRunStatus = 'running' | 'stopped' | 'failed' | 'done';

/** What a run compares and how. */
export interface EvalRunOptions {
  /** Every mode with each of these search settings. */
  searches: SearchMode[];
  /** Context budget of collapsed and leaves, cl100k tokens. */
  maxTokens: number;
  /** Nodes per layer in traversal. */
  traversalTopK: number;
  /** Answer with the answering model (the default search's modes). */
  answers: boolean;
  /** Ask the judge about every free answer. */
  judge: boolean;
}

/** One evaluation run: every mode and search setting on every question of a set, with its results. */
export interface EvalRunRecord extends TreeHistoryRecord {
  kind: 'eval-run';
  /** The set it ran (which may since have been deleted) and a copy of its questions, so the run stands alone. */
  setId: string;
  setName: string;
  questions: EvalQuestion[];
  options: EvalRunOptions;
  /**
   * The tree as it was when the run started: runs stay comparable after the tree is rebuilt (with another
   * model or summariser) and its nodes change.
   */
  tree: { title: string; embedding: string; summarizer: string; nodes: number; createdAt: string };
  /** The answering model, when answers were asked for. */
  answerModel?: string;
  /** Where the tree's model in this browser embedded the questions (WebGPU or WASM; none for an endpoint). */
  questionsEmbeddedOn?: DeviceUse[];
  status: EvalRunStatus;
  /**
   * Where the run got to (shown while it runs, and after a stop): stored when a stage starts, with its total,
   * and every few seconds while it runs, so a reload mid-run says how far it got.
   */
  progress?: {
    stage: 'embed' | 'retrieve' | 'answer';
    done: number;
    total: number;
    /** Answering: calls of `done` whose reply came from the cache (paid for by an earlier run). */
    cached?: number;
  };
  /** The results: retrieval once it finished, answers added once they are in. */
  report?: RetrievalReport;
  /** Why it failed or stopped short. */
  error?: string;
}

/**
 * A document's original file, kept so a citation can be shown on its page (schema version 5). One record per
 * stored document text (`documentId`), shared by every tree built from that text and deleted with it.
 */
export interface OriginalRecord {
  /** The id of the `DocumentRecord` whose text came from this file. */
  documentId: string;
  /**
   * SHA-256 (lower-case hex) of the file's bytes: with `documentId`, the key of the `originalFiles` store
   * (schema version 7), so one tree's file never stands in for another's. Absent on records of the version 5
   * `originals` store, kept by document before version 7.
   */
  sha256?: string;
  name: string;
  /** MIME type, `application/pdf`. */
  type: string;
  /** Bytes of `file`. */
  size: number;
  file: Blob;
  /** The tie between the document's text and the file's pages (src/protocol/pdf-layout.ts). */
  layout: PdfLayout;
  /** Milliseconds since the epoch. */
  addedAt: number;
}

/**
 * The typed settings. Other modules add keys by declaration merging
 * (`declare module './schema' { interface SettingsMap { myKey: string } }`).
 */
export interface SettingsMap {
  /** The LLM endpoints the user configured, WITH their API keys (never exported, never logged). */
  llmEndpoints: LlmEndpoint[];
  /** Colour theme. */
  theme: 'light' | 'dark' | 'system';
  /** The build parameters last used. */
  buildParams: Partial<BuildParams>;
}

/** The current schema (version 7). */
export interface AerieSchema extends DBSchema {
  documents: { key: string; value: DocumentRecord };
  trees: {
    key: string;
    value: TreeRecord;
    indexes: { byUpdatedAt: number; byDocument: string };
  };
  nodes: { key: [string, number]; value: NodeRecord };
  settings: { key: string; value: unknown };
  cache: { key: string; value: CacheEntry; indexes: { byTree: string } };
  checkpoints: { key: string; value: CheckpointRecord };
  pending: { key: string; value: PendingDocumentRecord };
  conversations: { key: string; value: ConversationRecord; indexes: { byTree: string } };
  turns: { key: [string, number]; value: StoredTurn; indexes: { byTurnId: [string, string] } };
  evalSets: { key: string; value: EvalSetRecord; indexes: { byTree: string } };
  evalRuns: { key: string; value: EvalRunRecord; indexes: { byTree: string } };
  originals: { key: string; value: OriginalRecord };
  originalFiles: { key: [string, string]; value: OriginalRecord & { sha256: string } };
}

/** An open connection to the current schema. */
export type AerieDb = IDBPDatabase<AerieSchema>;

/** Names of the stores. */
export type StoreName =
  | 'documents'
  | 'trees'
  | 'nodes'
  | 'settings'
  | 'cache'
  | 'checkpoints'
  | 'pending'
  | 'conversations'
  | 'turns'
  | 'evalSets'
  | 'evalRuns'
  | 'originals'
  | 'originalFiles';

/** The stores holding a tree's own history, each indexed `byTree` (schema version 4). */
export const TREE_HISTORY_STORES = ['conversations', 'evalSets', 'evalRuns'] as const;

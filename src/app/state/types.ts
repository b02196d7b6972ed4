/**
 * Shapes shared by the app's state hooks and its presentational components.
 */
import type { SearchMode } from '../../core/search';
import type { RetrievalMode } from '../modes';
import type { UsageTotals } from '../../llm';
import type { GenerationSpeed } from '../../models/generate';
import type { RunDevices, SummaryCutNotice, SummaryEstimate } from '../../protocol/build';
import type { ConversationTurn } from '../../storage';

/** A document added by the user, before or while it is being read. */
export interface PendingDocument {
  /** Stable key within the session (list rendering, removal). */
  key: string;
  name: string;
  type: 'txt' | 'md' | 'html' | 'pdf' | 'docx' | 'paste';
  /** Bytes of the file. */
  size: number;
  /** Characters of extracted text (0 while reading). */
  chars: number;
  status: 'reading' | 'ready' | 'error';
  /** Non-fatal notes to show (e.g. "decoded as Windows-1252"). */
  warnings: string[];
  /** Why it could not be read (status 'error'): a sentence the user can act on. */
  error?: string;
}

/** Options of each retrieval mode as the Ask panel edits them. */
export interface RetrievalSettings {
  /** The mode "Ask" uses. */
  mode: RetrievalMode;
  /** Collapsed tree: token budget of the context (paper: 2,000). */
  collapsedMaxTokens: number;
  /** Tree traversal: nodes kept per layer (paper: top-k). */
  traversalTopK: number;
  /** Tree traversal: the layer to start from (default the top layer). */
  traversalStartLayer: number;
  /** Tree traversal: how many layers to descend, start layer included (default down to the leaves). */
  traversalLayers: number;
  /** Tree traversal by keywords: token budget of the passages it reads (paper: no budget; 2,000 here). */
  traversalMaxTokens: number;
  /** Leaves only: token budget of the context. */
  leavesMaxTokens: number;
  /** "Search by": meaning, keywords or both (applies to questions; "Find similar" is by meaning). */
  search: SearchMode;
  /** Reorder the best candidates with the cross-encoder (Settings: reranker model) before the budget fills. */
  rerank: boolean;
  /** Leave out sentences already in the context (an extractive summary and the leaf it copied from). */
  distinct: boolean;
}

/** One retrieved passage as the UI shows it. */
export interface RetrievedPassage {
  id: number;
  layer: number;
  /** Cosine similarity to the question. */
  score: number;
  tokens: number;
  /** The node's whole text. */
  text: string;
  /** BM25 score, when keywords were searched. */
  keyword?: number;
  /** The cross-encoder's score, when it reranked this passage. */
  rerank?: number;
  /** What entered the context when some of its sentences were already there, and how many were left out. */
  excerpt?: { text: string; omitted: number; focused?: true };
  /** A summary's topic label (absent on leaves). */
  label?: string[];
  /**
   * The order in which the passage was chosen for the question, when the passages are listed in the book's
   * order (passages by sentence) rather than in that order.
   */
  rank?: number;
}

/** What one mode retrieved for the question. */
export interface ModeResult {
  mode: RetrievalMode;
  passages: RetrievedPassage[];
  /** Sum of the passages' tokens. */
  tokens: number;
  /** Tree traversal by keywords: the summaries it walked through to reach its passages, top layer first. */
  route?: number[];
}

/** An answer written by the user's LLM, streamed in. */
export interface AnswerState {
  /** The mode whose passages were the context. */
  mode: RetrievalMode;
  text: string;
  streaming: boolean;
  /** Citations found in the text: passage number n (1-based, as written "[n]") → node id. */
  citations: { n: number; nodeId: number }[];
  /** Set when the LLM failed; the retrieved context is still shown. */
  error?: string;
  usage?: UsageTotals;
  /** What the model is doing while no text has come yet, e.g. "Loading the built-in model (12 / 512 MB)". */
  status?: string;
  /** Who wrote it, once done, e.g. "Written in this browser by … at 8.1 tokens/s". */
  writer?: string;
  /** Set when the model wrote past the answer's limit and Aerie stopped reading: says so. */
  notice?: string;
}

/** The results of the last question. */
export interface AskResults {
  question: string;
  /** What was searched, when it differs from the question (a follow-up made standalone). */
  search?: string;
  /** Things the user should know about this retrieval, e.g. that no word of the question is in the tree. */
  notes?: string[];
  /** One entry per mode that ran ("Ask": one; "Compare modes": all three). */
  results: Partial<Record<RetrievalMode, ModeResult>>;
  answer?: AnswerState;
}

/** One stage of the build as the progress view shows it. */
export interface StageProgress {
  id: 'model-load' | 'llm-load' | 'chunk' | 'embed-leaves' | 'cluster' | 'summarize' | 'embed-summaries';
  /** e.g. "Summarizing layer 2". */
  label: string;
  /** Layer for per-layer stages. */
  layer?: number;
  done: number;
  total: number;
  /** Unit of done/total, e.g. "chunks", "clusters", "MB". */
  unit: string;
  status: 'pending' | 'active' | 'done';
  /** Items per second over the stage so far (undefined until measurable). */
  ratePerSecond?: number;
  /** Estimated seconds left in this stage (undefined until measurable). */
  etaSeconds?: number;
}

/** The whole progress view. */
export interface BuildProgressState {
  treeId: string;
  title: string;
  /** Stages in the order they started. */
  stages: StageProgress[];
  /** LLM tokens spent by this build so far. */
  usage: UsageTotals;
  startedAt: number;
  /** Milliseconds since the epoch of the latest event. */
  updatedAt: number;
  status: 'running' | 'cancelling' | 'done' | 'cancelled' | 'failed';
  /** What writes the summaries (unknown for a resumed build until its first LLM call). */
  summarizer?: 'llm' | 'builtin' | 'extractive';
  /** The built-in model's expected time for the summaries, from its warm-up (before the first summary). */
  estimate?: SummaryEstimate;
  /** The built-in model's rates over the summaries written so far (tokens per second). */
  generation?: GenerationSpeed;
  /** The built-in model could not be loaded; the extractive summariser writes the summaries (why). */
  summarizerFallback?: string;
  /** Summaries the model wrote past the summary budget so far, cut at a sentence end within it. */
  summaryCuts?: SummaryCutNotice;
  /** Where the build's models run and ran (WebGPU and its adapter, or WASM and its threads). */
  devices?: RunDevices;
  /** A sentence the user can act on when the build failed or was paused. */
  message?: string;
  /** The build could not be recorded (nothing is stored): it cannot be resumed, only built again. */
  unrecorded?: boolean;
  /** It stopped because the browser's storage for the site is full. */
  storageFull?: boolean;
  /** Once done: embeddings and summaries found in the cache (earlier runs) vs computed by this run. */
  reuse?: { embedHits: number; embedMisses: number; summaryHits: number; summaryMisses: number };
}

/** What "Ask" and "Compare modes" run. */
export type AskKind = 'ask' | 'compare';

/** A follow-up waiting for its standalone search: being rewritten, or shown for the user to confirm or edit. */
export interface PendingSearch {
  question: string;
  kind: AskKind;
  settings: RetrievalSettings;
  status: 'rewriting' | 'confirm';
  /** The proposed standalone search (status 'confirm'). */
  proposed?: string;
  /** How `proposed` came about. */
  rewrite?: 'llm' | 'joined';
  /** Why the model's rewrite is missing (it failed), when it is. */
  note?: string;
}

/** One conversation as the bar lists it. */
export interface ConversationEntry {
  id: string;
  title: string;
  turns: number;
}

/** Props of `ConversationBar`. */
export interface ConversationBarProps {
  conversations: readonly ConversationEntry[];
  /** The conversation continued by the next question; undefined: a new one. */
  activeId?: string;
  onSelect(id: string): void;
  onNew(): void;
  onExport(): void;
  onDelete(id: string): void;
  onDeleteAll(): void;
}

/** What the panel shows of the conversation being continued. */
export interface ConversationProps {
  bar: ConversationBarProps;
  /** Earlier turns to list above the results (the latest ones; see `earlier`). */
  turns: readonly ConversationTurn[];
  /** Turns before `turns` that are not shown (read on request). */
  earlier: number;
  onShowEarlier(): void;
  /** The open tree's build stamp (turns of an earlier build are marked). */
  stamp?: string;
  /** A follow-up waiting for its standalone search. */
  pending?: PendingSearch;
  onConfirm(search: string): void;
  onCancelPending(): void;
}

/**
 * The shapes shared by every part of Aerie: the tree (format v1, see docs/tree-format.md), build
 * parameters and the injected model functions.
 */
import type { AbortSignalLike } from './abort';

/** Where a leaf's text came from: character offsets into its document's text. */
export interface NodeSource {
  /** Id of the document (matches `RaptorTree.documents[].id`). */
  doc: string;
  /** Offset of the first character (UTF-16 code units) in the document text. */
  start: number;
  /** Offset one past the last character. */
  end: number;
  /** 1-based page number when the document had pages (PDF). */
  page?: number;
}

/** One node of a RAPTOR tree: a leaf chunk (layer 0) or a summary of its children. */
export interface TreeNode {
  /** Dense id, 0 … n−1; leaves first, then layer by layer. */
  id: number;
  /** 0 = leaves; layer L nodes summarise nodes of layer L−1. */
  layer: number;
  text: string;
  /** cl100k_base token count of `text`. */
  tokens: number;
  /** Ids of the children, all one layer down; empty for leaves. A node may have several parents. */
  children: number[];
  /** The text's embedding, length `RaptorTree.embedding.dim`. */
  embedding: Float32Array;
  /** Present on leaves. */
  source?: NodeSource;
  /**
   * Summaries only: a topic label of 2–4 terms or phrases (most distinctive first), computed from the node's
   * descendant leaves by class-based TF-IDF against the other nodes of its layer (`src/core/labels/labels.ts`).
   * Deterministic, needs no LLM; proper names keep their capitals. Absent on leaves and on trees saved before
   * labels existed (the app computes them when such a tree opens).
   */
  label?: string[];
  /** Summaries only, optional: a short title an LLM summarizer wrote beside the summary. `label` is always kept. */
  title?: string;
}

/** A document that contributed leaves to a tree. */
export interface TreeDocument {
  id: string;
  name: string;
  /** Length of the document text in UTF-16 code units. */
  chars: number;
}

/** The RAPTOR build parameters; defaults are the paper's (see `DEFAULT_BUILD_PARAMS`). */
export interface BuildParams {
  /** Maximum cl100k tokens per leaf chunk. Default 100. */
  chunkTokens: number;
  /** UMAP target dimension; a layer of ≤ reductionDim + 1 nodes is not clustered further. Default 10. */
  reductionDim: number;
  /** Soft-membership threshold on the GMM posterior. Default 0.1. */
  clusterThreshold: number;
  /** A cluster whose member texts exceed this many tokens is re-clustered. Default 3,500. */
  maxClusterTokens: number;
  /** Maximum number of summary layers above the leaves. Default 5. */
  maxLayers: number;
  /** Token budget of each summary. Default 100. */
  summaryTokens: number;
  /** Seed of every random choice; same seed, same tree. Default 224 (the reference's). */
  seed: number;
}

/** The paper's defaults (and the official implementation's). */
export const DEFAULT_BUILD_PARAMS: Readonly<BuildParams> = Object.freeze({
  chunkTokens: 100,
  reductionDim: 10,
  clusterThreshold: 0.1,
  maxClusterTokens: 3500,
  maxLayers: 5,
  summaryTokens: 100,
  seed: 224,
});

/** LLM calls in flight at once by default (the official code used an unbounded thread pool). */
export const DEFAULT_CONCURRENCY = 4;

/** What produced the summaries of a tree. */
export interface SummarizerInfo {
  kind: 'llm' | 'extractive';
  model?: string;
}

/** A RAPTOR tree in memory (tree format v1 with embeddings as Float32Array). */
export interface RaptorTree {
  format: 'raptor-tree';
  version: 1;
  title: string;
  /** ISO 8601 timestamp. */
  createdAt: string;
  embedding: { model: string; dim: number };
  summarizer: SummarizerInfo;
  params: BuildParams & Record<string, unknown>;
  documents: TreeDocument[];
  nodes: TreeNode[];
}

/** Embeds texts; one vector per text, in order, all of the same length. */
export type EmbedFn = (texts: string[], options?: { signal?: AbortSignalLike }) => Promise<Float32Array[]>;

/** Summarises the texts of one cluster into at most `maxTokens` tokens. */
export type SummarizeFn = (
  texts: string[],
  options: { maxTokens: number; signal?: AbortSignalLike },
) => Promise<string>;

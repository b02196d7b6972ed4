/** Constants of tree format v1, in a module of their own so the page can use them without the tokenizer. */

/** The `format` field of every tree file. */
export const TREE_FORMAT = 'raptor-tree';
/** The one version this code reads and writes. */
export const TREE_FORMAT_VERSION = 1;

/** Bounds that keep hostile or corrupt files from exhausting memory; each is far above any real tree. */
export const TREE_LIMITS = Object.freeze({
  /** Nodes per tree. */
  maxNodes: 1_000_000,
  /** Embedding dimension (the largest common models use 4,096). */
  maxDim: 16_384,
  /** Floats in all embeddings together (nodes × dim): 2^28 floats = 1 GiB of Float32Array. */
  maxEmbeddingValues: 2 ** 28,
  /** Documents per tree. */
  maxDocuments: 100_000,
  /**
   * UTF-16 code units in one node's text. Real nodes hold a few hundred (a 100-token chunk or summary); the
   * bound also caps the cost of recounting tokens, which is quadratic in an unbroken run of letters.
   */
  maxTextChars: 100_000,
  /** UTF-16 code units in a title, name, id, model name, timestamp or string parameter. */
  maxNameChars: 1_000,
  /** Entries in `params`, known and unknown together. */
  maxParams: 100,
  /** Terms in a node's topic label (Aerie writes 2–4; other tools may write more). */
  maxLabelTerms: 16,
  /** UTF-16 code units in one label term or in a node's LLM-written title. */
  maxLabelChars: 200,
});

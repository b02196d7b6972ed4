/**
 * Aerie's RAPTOR engine: pure TypeScript that runs in Node and in workers. The names below are a contract
 * used by external checks; extend freely, do not rename.
 *
 * Rooms (each folder's index.ts is its door; docs/architecture.md draws the arrows):
 * - text/     sentences, cl100k tokens, chunks, budgets, stop words — imports only the root primitives;
 * - cluster/  UMAP, Gaussian mixtures by BIC, k-NN, k-means, their WebAssembly kernels, the cluster pool;
 * - search/   collapsed tree, traversal and leaves by meaning, keywords or both (imports text/);
 * - labels/   node labels (imports text/);
 * - eval/     retrieval and answer evaluation;
 * - the root: the tree's types and file format, the build that runs the rooms layer on layer, the extractive
 *   summariser, and primitives every room may use (errors, abort, seeded random, vectors, pools, yields).
 */
export * from './types';
export { AbortError, isAbortError, throwIfAborted, type AbortSignalLike } from './abort';
export { AerieError, DimensionError } from './errors';
export { seededRandom, deriveSeed, randomInt, type RandomFn } from './random';
export { cosineSimilarity, dot, norm, normalized } from './vector';

export {
  countTokens,
  truncateToTokens,
  TokenBudgetError,
  chunkText,
  chunkTextAsync,
  splitSentences,
  ChunkingError,
  type AsyncChunkOptions,
  type Chunk,
  type ChunkOptions,
  type TextSpan,
  estimateChunkCount,
  fitToTokenBudget,
  type FittedText,
  hasVisibleText,
} from './text';

export {
  kmeans,
  kmeansPlusPlus,
  type KMeansOptions,
  type KMeansResult,
  fitGmm,
  gmmParameterCount,
  GmmError,
  DEFAULT_GMM_MAX_ITER,
  DEFAULT_GMM_TOL,
  DEFAULT_REG_COVAR,
  type CovarianceType,
  type GaussianMixtureModel,
  type GmmOptions,
  type RegCovarMode,
  selectClusterCount,
  minimumComponentSize,
  DEFAULT_SELECT_MAX_CLUSTERS,
  type ClusterCountSelection,
  type SelectionCriterion,
  type SelectClusterCountOptions,
  reduceDimensions,
  type ReduceOptions,
  clusterNodes,
  clusterNodesAsync,
  LOCAL_NEIGHBORS,
  LOCAL_COVARIANCE,
  LOCAL_MIN_CLUSTER_SIZE,
  MAX_RECLUSTER_DEPTH,
  type ClusterOptions,
  type ClusterProgress,
  type LocalMixtureOptions,
} from './cluster';

export {
  buildTree,
  BuildError,
  DEFAULT_CONCURRENCY,
  type BuildDocument,
  type BuildInput,
  type BuildModels,
  type BuildOptions,
  type BuildProgress,
  type StopReason,
} from './build';
export { createExtractiveSummarizer, EXTRACTIVE_SUMMARIZER } from './extractive';
export {
  applyLabels,
  computeLabels,
  fillMissingLabels,
  lacksLabels,
  MAX_LABEL_TERMS,
  MIN_LABEL_TERMS,
  PLAIN_C_TF_IDF,
  type LabelNode,
  type LabelOptions,
  type LabelPasses,
} from './labels';

export {
  retrieve,
  retrieveReranked,
  formatContext,
  prepareRetrieval,
  RetrievalError,
  DEFAULT_MAX_TOKENS,
  DEFAULT_TRAVERSAL_TOP_K,
  DEFAULT_SEARCH,
  DEFAULT_RERANK_DEPTH,
  SEARCH_MODES,
  type SearchMode,
  type Reranker,
  type RetrieveOptions,
  type RetrievalResult,
  type RetrievedNode,
  keywordIndex,
  keywordTerms,
  prepareKeywordIndex,
  type KeywordIndex,
} from './search';
export {
  parseTree,
  serializeTree,
  TreeFormatError,
  TREE_FORMAT,
  TREE_FORMAT_VERSION,
  TREE_LIMITS,
} from './tree-format';
export { encodeFloat32LE, decodeFloat32LEInto, Base64Error } from './base64';
export {
  treeStats,
  PAPER_TABLE_10,
  type TreeStats,
  type SummaryFigures,
  type LayerFigures,
  type PaperRow,
} from './stats';
export {
  defaultVariants,
  evaluateRetrieval,
  EvalError,
  evidenceRecall,
  parseQuestionSet,
  reportTable,
  rougeL,
  tokenF1,
  variantKey,
  type EvalQuestion,
  type EvalVariant,
  type ModeReport,
  type RetrievalReport,
} from './eval';

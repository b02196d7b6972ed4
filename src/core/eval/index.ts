/**
 * Evaluation of retrieval (and, with an answering model, of answers) on a tree: question sets, metrics, the
 * runner and its report. Pure TypeScript like the rest of the core: it runs in Node (`npm run eval`, benches)
 * and in workers. The names below are a contract other modules build on: extend, do not rename.
 */
export {
  MAX_QUESTIONS,
  parseQuestionSet,
  questionSetFormatOf,
  serializeQuestionSet,
  type EvalQuestion,
  type ParsedQuestionSet,
  type QuestionSetError,
  type QuestionSetFormat,
} from './questions';
export { detectDelimiter, parseCsv, type CsvRecord } from './csv';
export {
  evidenceFound,
  evidenceRecall,
  matchEvidence,
  normalizeForMatch,
  type EvidenceMatch,
} from './evidence';
export { firstHitRank, goldNeighbourhood, reciprocalRank } from './ranking';
export {
  answerTokens,
  chosenOption,
  multipleChoiceAccuracy,
  optionLetter,
  rougeL,
  rougeTokens,
  tokenF1,
} from './answer-metrics';
export {
  defaultVariants,
  RETRIEVAL_MODES,
  variantKey,
  type EvalVariant,
  type RerankHook,
  type RetrievalMode,
  type VariantRetrieve,
} from './variants';
export {
  EMBED_QUESTIONS_BATCH,
  EvalError,
  evaluateRetrieval,
  type EvalErrorCode,
  type EvalProgress,
  type RetrievalEvalOptions,
} from './run-retrieval';
export {
  figuresOf,
  modeReport,
  type LayerOf,
  type ModeReport,
  type QuestionModeResult,
  type QuestionReport,
  type QuestionScoring,
  type RetrievalFigures,
  type RetrievalReport,
} from './report';
export { layerMix, reportTable } from './table';

/**
 * Evaluation of retrieval (and, with an answering model, of answers) on a tree: question sets, metrics, the
 * runner and its report. Pure TypeScript like the rest of the core: it runs in Node (`npm run eval`, benches)
 * and in workers. The names below are a contract other modules build on: extend, do not rename.
 */
export {
  MAX_ERRORS,
  MAX_QUESTIONS,
  MAX_SET_FILE_BYTES,
  parseQuestionSet,
  questionSetFormatOf,
  questionSetSummary,
  serializeQuestionSet,
  setFileTooLarge,
  type EvalQuestion,
  type ParsedQuestionSet,
  type QuestionSetCounts,
  type QuestionSetError,
  type QuestionSetFormat,
} from './questions';
export { detectDelimiter, parseCsv, type CsvRecord } from './csv';
export {
  evidenceFound,
  evidenceRecall,
  evidenceSpans,
  matchEvidence,
  normalizeForMatch,
  type EvidenceMatch,
  type TextSpan,
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
  summarizerName,
  type LayerOf,
  type ModeReport,
  type QuestionModeResult,
  type QuestionReport,
  type QuestionScoring,
  type RetrievalFigures,
  type RetrievalReport,
} from './report';
export { layerMix, reportTable } from './table';
export { PLAIN_BM25, plainBm25Variant, WHOLE, wholeVariant } from './references';
export type { EvalChat, EvalChatOptions } from './chat';
export {
  answerMessages,
  CHOICE_ANSWER_TEMPLATE,
  DETAIL_QUESTION_TEMPLATE,
  EVAL_ANSWER_MAX_TOKENS,
  EVAL_ANSWER_SYSTEM_PROMPT,
  EVAL_ANSWER_TEMPLATE,
  JUDGE_MAX_TOKENS,
  JUDGE_SYSTEM_PROMPT,
  JUDGE_TEMPLATE,
  judgeMessages,
  parseGeneratedQuestion,
  parseVerdict,
  QUESTION_MAX_TOKENS,
  QUESTION_SYSTEM_PROMPT,
  questionMessages,
  THEME_QUESTION_TEMPLATE,
  type EvalChatMessage,
} from './prompts';
export {
  DEFAULT_GENERATION_SEED,
  GENERATION_CONCURRENCY,
  generateQuestions,
  generationCallCount,
  planQuestionGeneration,
  REPLY_FAILURES,
  type GenerateOptions,
  type GenerationCounts,
  type GenerationFailure,
  type GenerationPlan,
} from './generate';
export {
  ANSWER_CONCURRENCY,
  answerCallCount,
  answerFigures,
  defaultAnswerKeys,
  evaluateAnswers,
  type AnswerEvalOptions,
  type AnswerFigures,
  type AnswerRecord,
  type AnswerSettings,
} from './run-answers';

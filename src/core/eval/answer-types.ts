/** What an answer evaluation records: each answer's scores, a variant's figures, the run's settings. */

/** One answer and its scores. */
export interface AnswerRecord {
  /** The answer as written. */
  text: string;
  /** Multiple choice: the option picked (0-based), null when the answer named none. */
  picked?: number | null;
  /** Multiple choice: whether `picked` is the gold option. */
  correct?: boolean;
  /** With a reference answer: token F1 and ROUGE-L against it. */
  f1?: number;
  rougeL?: number;
  /** With the judge: 1 correct, 0 incorrect, null when the verdict could not be read; and its reply. */
  judge?: number | null;
  judgeReply?: string;
}

/** Answer figures of one variant; means over no question are null. */
export interface AnswerFigures {
  /** Questions answered. */
  answered: number;
  /** Multiple-choice questions and the share answered right. */
  choiceQuestions: number;
  accuracy: number | null;
  /** Questions with a reference answer and their mean token F1 and ROUGE-L. */
  referenceQuestions: number;
  f1: number | null;
  rougeL: number | null;
  /** Questions judged (verdict read) and the share judged correct. */
  judged: number;
  judge: number | null;
}

/** What the report records about its answers. */
export interface AnswerSettings {
  keys: string[];
  judge: boolean;
  model?: string;
}

/**
 * The cited answer to a question, streamed onto the results as it is written: the answer's text so far, the
 * model's status (its download, its speed), then the citations, or what went wrong.
 */
import type { RaptorTree } from '../../core/types';
import type { ChatMessage } from '../../llm';
import type { RetrievalMode } from '../modes';
import { answerLimitText } from '../build/budget-text';
import { placedText } from '../ask/passage-place';
import type { AnswerModel } from '../settings/app-settings';
import { answerWithModel } from './answer-with-model';
import { errorMessage, isCancel } from './messages';
import type { AskResults } from './types';

/** What `streamAnswer` answers and where it shows it. */
export interface AnswerRequest {
  tree: RaptorTree;
  model: AnswerModel;
  /** The results so far (the passages of each mode); the answer is added to them. */
  base: AskResults;
  /** The mode whose passages the model reads. */
  mode: RetrievalMode;
  question: string;
  /** Earlier turns for the answering model. */
  history?: readonly ChatMessage[];
  signal: AbortSignal;
  /** Shows the results with the answer so far. */
  show: (results: AskResults) => void;
}

/** Answers from the mode's passages, showing each step; resolves with the final results (an error included). */
export async function streamAnswer(request: AnswerRequest): Promise<AskResults> {
  const { tree, model, base, mode, question, history, signal } = request;
  const passages = base.results[mode]!.passages;
  let written = '';
  let status: string | undefined;
  const show = () =>
    request.show({
      ...base,
      answer: { mode, text: written, streaming: true, citations: [], ...(status ? { status } : {}) },
    });
  show();
  try {
    const answer = await answerWithModel(
      model,
      {
        question,
        passages: passages.map((p) => placedText(tree, p)),
        signal,
        ...(history && history.length > 0 ? { history } : {}),
        onDelta: (delta) => {
          written += delta;
          show();
        },
      },
      (next) => {
        status = next;
        show();
      },
    );
    const done: AskResults = {
      ...base,
      answer: {
        mode,
        text: answer.text,
        streaming: false,
        citations: answer.citations.map((i) => ({ n: i + 1, nodeId: passages[i].id })),
        usage: answer.usage,
        ...(answer.writer ? { writer: answer.writer } : {}),
        ...(answer.overLimit ? { notice: answerLimitText(answer.overLimit) } : {}),
      },
    };
    request.show(done);
    return done;
  } catch (error) {
    const failed: AskResults = {
      ...base,
      answer: {
        mode,
        text: written,
        streaming: false,
        citations: [],
        error: isCancel(error) ? 'Stopped.' : errorMessage(error),
      },
    };
    request.show(failed);
    return failed;
  }
}

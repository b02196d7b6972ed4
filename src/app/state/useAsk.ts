/**
 * Asking the open tree: embed the question with the tree's own model, retrieve in one or all three modes, and,
 * with an answering endpoint, stream an answer that cites the retrieved passages.
 */
import { useCallback, useRef, useState } from 'react';
import { embedWorker } from '../../client/workers';
import type { RaptorTree } from '../../core/types';
import { createOpenAiEmbedder, type ChatMessage } from '../../llm';
import { splitRows } from '../../models/embed/rows';
import type { TreeRecord } from '../../storage';
import { RETRIEVAL_MODES, type RetrievalMode } from '../modes';
import { answerModelOf, toLlmEndpoint, type AppSettings } from '../settings/app-settings';
import { browserQuestionModel, endpointModelOf } from './question-model';
import { retrieveInModes } from './retrieve-modes';
import { streamAnswer } from './stream-answer';
import type { AskResults, RetrievalSettings } from './types';

export { defaultRetrievalSettings } from './retrieval-options';

/** How a question runs beyond its retrieval settings. */
export interface QuestionRun {
  /**
   * What to search for: the question itself, or a follow-up made standalone. Default: the question. Retrieval
   * by a node's embedding has no text (meaning alone, as the official TreeRetriever).
   */
  search?: string;
  /** Earlier turns for the answering model (`historyMessages`). */
  history?: readonly ChatMessage[];
}

/**
 * True when every passage of `results` is a node of `tree` (same id, same text): results made from another tree
 * (one open before a build finished, or a question still running when the library opened another) are never
 * shown against this tree's nodes, where their ids may not exist. Pure, tested in Node.
 */
export function resultsFitTree(results: AskResults, tree: RaptorTree | undefined): boolean {
  if (!tree) return false;
  return Object.values(results.results).every((r) =>
    r.passages.every((p) => tree.nodes[p.id]?.text === p.text),
  );
}

/** One run of `useAsk`: what is shown as the question, how it is embedded, in which modes, and whether to answer. */
interface AskRun {
  /** The question as shown. */
  label: string;
  query: () => Promise<Float32Array>;
  modes: readonly RetrievalMode[];
  retrieval: RetrievalSettings;
  withAnswer: boolean;
  /** The text searched for (the question, or a follow-up made standalone); none for a node's embedding. */
  search?: string;
  history?: readonly ChatMessage[];
}

/** Embeds a question to `tree` with the tree's own model: in this browser, or by the embeddings endpoint. */
function useQuestionEmbedder(
  tree: RaptorTree | undefined,
  record: TreeRecord | undefined,
  settings: AppSettings,
) {
  return useCallback(
    async (question: string): Promise<Float32Array> => {
      if (!tree) throw new Error('Build or open a tree first.');
      const model = tree.embedding.model;
      const remote = endpointModelOf(model);
      if (remote !== undefined) {
        const embed = createOpenAiEmbedder(toLlmEndpoint({ ...settings.embeddingsEndpoint, model: remote }));
        return (await embed([question]))[0];
      }
      const batch = await embedWorker().embed([question], browserQuestionModel(model, record, settings));
      return splitRows(batch)[0];
    },
    [tree, record, settings],
  );
}

/** State and actions of the Ask panel. */
export function useAsk(tree: RaptorTree | undefined, record: TreeRecord | undefined, settings: AppSettings) {
  const [results, setShown] = useState<AskResults>();
  const [busy, setBusy] = useState(false);
  const controller = useRef<AbortController | undefined>(undefined);
  // The run whose results the page shows; a detached run goes on (and resolves) without showing them.
  const shown = useRef<AbortController | undefined>(undefined);
  const embedQuestion = useQuestionEmbedder(tree, record, settings);

  const run = useCallback(
    async ({ label, query, modes, retrieval, withAnswer, search, history }: AskRun) => {
      if (!tree) return undefined;
      controller.current?.abort();
      const abort = new AbortController();
      controller.current = abort;
      shown.current = abort;
      const setResults = (next: AskResults | undefined) => {
        if (shown.current === abort) setShown(next);
      };
      setBusy(true);
      try {
        const { perMode, notes } = await retrieveInModes({ tree, query, modes, retrieval, settings, search });
        const model = answerModelOf(settings);
        const base: AskResults = { question: label, results: perMode };
        if (search !== undefined && search !== label) base.search = search;
        if (notes.size > 0) base.notes = [...notes];
        if (!withAnswer || !model || abort.signal.aborted) {
          setResults(base);
          return base;
        }
        const mode = modes.includes(retrieval.mode) ? retrieval.mode : modes[0];
        return await streamAnswer({
          tree,
          model,
          base,
          mode,
          question: label,
          signal: abort.signal,
          show: setResults,
          history,
        });
      } catch (error) {
        setResults({ question: label, results: {}, answer: undefined });
        throw error;
      } finally {
        if (controller.current === abort) setBusy(false);
      }
    },
    [tree, settings],
  );

  /** Retrieves in the chosen mode and answers; resolves with the results once the answer is done. */
  const ask = useCallback(
    (question: string, s: RetrievalSettings, how: QuestionRun = {}) => {
      const search = how.search ?? question;
      return run({
        label: question,
        query: () => embedQuestion(search),
        modes: [s.mode],
        retrieval: s,
        withAnswer: true,
        search,
        history: how.history,
      });
    },
    [run, embedQuestion],
  );
  /** All three modes side by side (the chosen one answers). */
  const compare = useCallback(
    (question: string, s: RetrievalSettings, how: QuestionRun = {}) => {
      const search = how.search ?? question;
      return run({
        label: question,
        query: () => embedQuestion(search),
        modes: RETRIEVAL_MODES,
        retrieval: s,
        withAnswer: true,
        search,
        history: how.history,
      });
    },
    [run, embedQuestion],
  );
  /** Retrieval by an existing node's embedding (for trees whose model cannot run here). */
  const similarTo = useCallback(
    (nodeId: number, s: RetrievalSettings) => {
      const node = tree?.nodes[nodeId];
      if (!node) return Promise.resolve();
      return run({
        label: `Passages similar to node ${nodeId}`,
        query: async () => node.embedding,
        modes: RETRIEVAL_MODES,
        retrieval: s,
        withAnswer: false,
      });
    },
    [run, tree],
  );
  const stop = useCallback(() => controller.current?.abort(), []);
  const reset = useCallback(() => setShown(undefined), []);
  /**
   * Clears the results on screen; the question being answered goes on (it resolves as before, so its turn is
   * kept) but no longer shows. For leaving its conversation.
   */
  const detach = useCallback(() => {
    shown.current = undefined;
    setShown(undefined);
  }, []);
  /** Stops the question being answered at once (its request is aborted) and clears the screen. */
  const discard = useCallback(() => {
    detach();
    controller.current?.abort();
  }, [detach]);

  const fitting = results && resultsFitTree(results, tree) ? results : undefined;
  return { results: fitting, busy, ask, compare, similarTo, stop, reset, detach, discard, show: setShown };
}

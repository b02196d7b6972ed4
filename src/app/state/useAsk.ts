/**
 * Asking the open tree: embed the question with the tree's own model, retrieve in one or all three modes, and,
 * with an answering endpoint, stream an answer that cites the retrieved passages.
 */
import { useCallback, useRef, useState } from 'react';
import { embedWorker } from '../../client/workers';
import type { RaptorTree } from '../../core/types';
import { answerQuestion, createOpenAiEmbedder } from '../../llm';
import { splitRows } from '../../models/rows';
import type { TreeRecord } from '../../storage/schema';
import { RETRIEVAL_MODES, type RetrievalMode } from '../modes';
import { answerEndpoint, isConfigured, toLlmEndpoint, type AppSettings } from '../settings';
import { errorMessage, isCancel } from './messages';
import { retrieveOptionsFor } from './retrieval-options';
import type { AskResults, ModeResult, RetrievalSettings } from './types';

export { defaultRetrievalSettings } from './retrieval-options';

/** The remote embedding model name of a tree built with an API model (`openai:x` or the official `openai/x`). */
function endpointModelOf(model: string): string | undefined {
  if (model.startsWith('openai:')) return model.slice('openai:'.length);
  if (model.startsWith('openai/')) return model.slice('openai/'.length);
  return undefined;
}

/**
 * Why questions cannot be embedded for this tree, or undefined when they can: a tree built with an API
 * embedding model needs the embeddings endpoint configured.
 */
export function queryBlocker(tree: RaptorTree | undefined, settings: AppSettings): string | undefined {
  if (!tree) return 'Build or open a tree first.';
  const model = tree.embedding.model;
  const remote = endpointModelOf(model);
  if (remote !== undefined) {
    if (isConfigured({ ...settings.embeddingsEndpoint, model: remote })) return undefined;
    return (
      `This tree was built with ${model} embeddings, which cannot run in the browser. Set an OpenAI-compatible ` +
      'embeddings endpoint in Settings, or open a node and use “Find similar” to retrieve by an existing node.'
    );
  }
  return undefined;
}

/** State and actions of the Ask panel. */
export function useAsk(tree: RaptorTree | undefined, record: TreeRecord | undefined, settings: AppSettings) {
  const [results, setResults] = useState<AskResults>();
  const [busy, setBusy] = useState(false);
  const controller = useRef<AbortController | undefined>(undefined);

  const embedQuestion = useCallback(
    async (question: string): Promise<Float32Array> => {
      if (!tree) throw new Error('Build or open a tree first.');
      const model = tree.embedding.model;
      const remote = endpointModelOf(model);
      if (remote !== undefined) {
        const embed = createOpenAiEmbedder(toLlmEndpoint({ ...settings.embeddingsEndpoint, model: remote }));
        return (await embed([question]))[0];
      }
      const dtype = record?.embedding.dtype === 'fp32' ? 'fp32' : 'q8';
      const batch = await embedWorker().embed([question], {
        model,
        dtype,
        device: settings.embedding.device,
      });
      return splitRows(batch)[0];
    },
    [tree, record, settings],
  );

  const run = useCallback(
    async (
      label: string,
      query: () => Promise<Float32Array>,
      modes: readonly RetrievalMode[],
      s: RetrievalSettings,
      withAnswer: boolean,
    ) => {
      if (!tree) return;
      controller.current?.abort();
      const abort = new AbortController();
      controller.current = abort;
      setBusy(true);
      try {
        // Loaded on the first question: retrieval counts tokens with the cl100k tables (about 1 MB).
        const [{ retrieve }, vector] = await Promise.all([import('../../core/retrieve'), query()]);
        const perMode: Partial<Record<RetrievalMode, ModeResult>> = {};
        for (const mode of modes) {
          const r = retrieve(tree, vector, retrieveOptionsFor(mode, s));
          perMode[mode] = {
            mode,
            tokens: r.tokens,
            passages: r.nodes.map((n) => ({
              ...n,
              tokens: tree.nodes[n.id].tokens,
              text: tree.nodes[n.id].text,
            })),
          };
        }
        const primary = modes.includes(s.mode) ? s.mode : modes[0];
        const endpoint = answerEndpoint(settings);
        const base: AskResults = { question: label, results: perMode };
        if (!withAnswer || !endpoint || abort.signal.aborted) {
          setResults(base);
          return;
        }
        const passages = perMode[primary]!.passages;
        let text = '';
        setResults({ ...base, answer: { mode: primary, text, streaming: true, citations: [] } });
        try {
          const answer = await answerQuestion(toLlmEndpoint(endpoint), {
            question: label,
            passages: passages.map((p) => p.text),
            signal: abort.signal,
            onDelta: (delta) => {
              text += delta;
              setResults({ ...base, answer: { mode: primary, text, streaming: true, citations: [] } });
            },
          });
          setResults({
            ...base,
            answer: {
              mode: primary,
              text: answer.text,
              streaming: false,
              citations: answer.citations.map((i) => ({ n: i + 1, nodeId: passages[i].id })),
              usage: answer.usage,
            },
          });
        } catch (error) {
          setResults({
            ...base,
            answer: {
              mode: primary,
              text,
              streaming: false,
              citations: [],
              error: isCancel(error) ? 'Stopped.' : errorMessage(error),
            },
          });
        }
      } catch (error) {
        setResults({ question: label, results: {}, answer: undefined });
        throw error;
      } finally {
        if (controller.current === abort) setBusy(false);
      }
    },
    [tree, settings],
  );

  const ask = useCallback(
    (question: string, s: RetrievalSettings) =>
      run(question, () => embedQuestion(question), [s.mode], s, true),
    [run, embedQuestion],
  );
  const compare = useCallback(
    (question: string, s: RetrievalSettings) =>
      run(question, () => embedQuestion(question), RETRIEVAL_MODES, s, true),
    [run, embedQuestion],
  );
  /** Retrieval by an existing node's embedding (for trees whose model cannot run here). */
  const similarTo = useCallback(
    (nodeId: number, s: RetrievalSettings) => {
      const node = tree?.nodes[nodeId];
      if (!node) return Promise.resolve();
      return run(`Passages similar to node ${nodeId}`, async () => node.embedding, RETRIEVAL_MODES, s, false);
    },
    [run, tree],
  );
  const stop = useCallback(() => controller.current?.abort(), []);
  const reset = useCallback(() => setResults(undefined), []);

  return { results, busy, ask, compare, similarTo, stop, reset };
}

/**
 * Asking the open tree: embed the question with the tree's own model, retrieve in one or all three modes, and,
 * with an answering endpoint, stream an answer that cites the retrieved passages.
 */
import { useCallback, useRef, useState } from 'react';
import { embedWorker, generateWorker } from '../../client/workers';
import type { RaptorTree } from '../../core/types';
import {
  answerQuestion,
  answerWithBuiltin,
  createOpenAiEmbedder,
  type AnswerOptions,
  type AnswerResult,
  type ChatMessage,
} from '../../llm';
import type { ModelLoadProgress } from '../../models/files';
import type { ModelChoice } from '../../models/embed';
import { connectGenerator } from '../../models/generate/generate-client';
import { speedOf } from '../../models/generate/generation-speed';
import { runtimeLabel } from '../../models/generate/generator-presets';
import type { DeviceUse } from '../../models/device';
import { splitRows } from '../../models/embed/rows';
import type { TreeRecord } from '../../storage';
import { RETRIEVAL_MODES, type RetrievalMode } from '../modes';
import { answerLimitText } from '../build/budget-text';
import { rerankedOnNote } from '../build/devices-text';
import { placedText } from '../ask/passage-place';
import { formatDecimal } from '../format';
import {
  answerModelOf,
  builtinModelName,
  isConfigured,
  toLlmEndpoint,
  type AnswerModel,
  type AppSettings,
} from '../settings/app-settings';
import { errorMessage, isCancel } from './messages';
import { retrieveOptionsFor } from './retrieval-options';
import type { AskResults, ModeResult, RetrievalSettings } from './types';

export { defaultRetrievalSettings } from './retrieval-options';

/**
 * The browser model a question to a tree built with browser model `model` is embedded with: the tree's model
 * at the precision it was built with, on the device the settings ask for.
 */
export function browserQuestionModel(
  model: string,
  record: TreeRecord | undefined,
  settings: AppSettings,
): ModelChoice {
  return {
    model,
    dtype: record?.embedding.dtype === 'fp32' ? 'fp32' : 'q8',
    device: settings.embedding.device,
  };
}

/**
 * The model a question to `tree` will be embedded with in this browser, or undefined when the tree was built
 * with an endpoint's embeddings (nothing to load here).
 */
export function questionModelOf(
  tree: RaptorTree,
  record: TreeRecord | undefined,
  settings: AppSettings,
): ModelChoice | undefined {
  const model = tree.embedding.model;
  return endpointModelOf(model) === undefined ? browserQuestionModel(model, record, settings) : undefined;
}

/** The remote embedding model name of a tree built with an API model (`openai:x` or the official `openai/x`). */
export function endpointModelOf(model: string): string | undefined {
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

const BYTES_PER_MB = 1_000_000;

/** "Loading the built-in model (12.3 / 512.0 MB)": the download so far, over every file. */
function loadingText(files: ReadonlyMap<string, { loaded: number; total: number }>): string {
  let loaded = 0;
  let total = 0;
  for (const f of files.values()) {
    loaded += f.loaded;
    total += f.total;
  }
  if (total === 0) return 'Loading the built-in model…';
  const mb = (n: number) => formatDecimal(n / BYTES_PER_MB, 1, 1);
  return `Loading the built-in model (${mb(loaded)} / ${mb(total)} MB)…`;
}

/** "8.1 tokens/s" */
function rateText(perSecond: number): string {
  return Number.isFinite(perSecond) ? `${formatDecimal(perSecond, 1, 1)} tokens/s` : '…';
}

/**
 * Answers with the model of the settings — an endpoint, or the built-in model in the generate worker (loaded on
 * the first question, its download shown through `onStatus`) — by the same cited-answer path.
 */
async function answerWithModel(
  model: AnswerModel,
  options: AnswerOptions,
  onStatus: (status: string) => void,
): Promise<AnswerResult & { writer?: string }> {
  if (model.kind === 'endpoint') return answerQuestion(toLlmEndpoint(model.endpoint), options);
  const files = new Map<string, { loaded: number; total: number }>();
  onStatus('Loading the built-in model…');
  const generator = await connectGenerator(
    generateWorker(),
    model.generator,
    (p: ModelLoadProgress) => {
      files.set(p.file, {
        loaded: p.status === 'done' ? Math.max(p.loaded, p.total) : p.loaded,
        total: p.total,
      });
      onStatus(loadingText(files));
    },
    { signal: options.signal },
  );
  onStatus(`Reading the passages (${builtinModelName(model.generator.model)})…`);
  let firstAt = 0;
  let timing: { prefillMs: number; decodeMs: number } | undefined;
  let ranOn: DeviceUse[] | undefined;
  // Tokens/s while it writes: decoding steps since the first token.
  const onToken = (generated: number) => {
    const now = performance.now();
    if (generated === 1) firstAt = now;
    else if (now > firstAt) onStatus(`Writing… ${rateText(((generated - 1) * 1000) / (now - firstAt))}`);
  };
  const counted: typeof generator = {
    info: generator.info,
    generate: (messages, o) => generator.generate(messages, { ...o, onToken }),
  };
  const result = await answerWithBuiltin(counted, {
    ...options,
    onReply: (reply) => {
      timing = reply.timing;
      ranOn = reply.ranOn;
    },
  });
  const rate = timing
    ? speedOf({
        promptTokens: result.usage.promptTokens,
        completionTokens: result.usage.completionTokens,
        timing,
      }).decodeTokensPerSecond
    : NaN;
  return {
    ...result,
    writer:
      `written in this browser by ${builtinModelName(model.generator.model)} ` +
      `(${runtimeLabel(generator.info, ranOn)}) at ${rateText(rate)}`,
  };
}

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

/** "None of the question's words occur in this tree": keyword search found nothing to rank. */
export const NO_KEYWORDS_NOTE =
  'None of the words of the question occur in this tree, so its passages are ranked by meaning alone.';

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

/** State and actions of the Ask panel. */
// eslint-disable-next-line max-lines-per-function -- not yet cut along its seams into hooks or components (issue 46; docs/architecture.md lists the long functions)
export function useAsk(tree: RaptorTree | undefined, record: TreeRecord | undefined, settings: AppSettings) {
  const [results, setShown] = useState<AskResults>();
  const [busy, setBusy] = useState(false);
  const controller = useRef<AbortController | undefined>(undefined);
  // The run whose results the page shows; a detached run goes on (and resolves) without showing them.
  const shown = useRef<AbortController | undefined>(undefined);

  const embedQuestion = useCallback(
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

  const run = useCallback(
    async (
      label: string,
      query: () => Promise<Float32Array>,
      modes: readonly RetrievalMode[],
      s: RetrievalSettings,
      withAnswer: boolean,
      text?: string,
      history?: readonly ChatMessage[],
    ): Promise<AskResults | undefined> => {
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
        // Loaded on the first question: retrieval counts tokens with the cl100k tables (about 1 MB).
        const [{ retrieve, retrieveReranked }, vector] = await Promise.all([
          import('../../core/search/retrieve'),
          query(),
        ]);
        const perMode: Partial<Record<RetrievalMode, ModeResult>> = {};
        const notes = new Set<string>();
        let rerank = s.rerank && text !== undefined;
        const rerankerChoice = { model: settings.reranker.model, device: settings.embedding.device };
        const reranker = {
          score: (texts: string[]) => embedWorker().rerank(text ?? '', texts, rerankerChoice),
        };
        for (const mode of modes) {
          const options = retrieveOptionsFor(mode, s, text);
          let r;
          try {
            r = rerank
              ? await retrieveReranked(tree, vector, options, reranker)
              : retrieve(tree, vector, options);
          } catch (error) {
            if (!rerank || isCancel(error)) throw error;
            // A reranker that cannot load (no hub, a wrong id) leaves the first ranking: said, not fatal.
            notes.add(`The passages were not reranked: ${errorMessage(error)}`);
            rerank = false;
            r = retrieve(tree, vector, options);
          }
          if (r.keywordMatches === 0) notes.add(NO_KEYWORDS_NOTE);
          perMode[mode] = {
            mode,
            tokens: r.tokens,
            passages: r.nodes.map((n) => ({
              ...n,
              tokens: tree.nodes[n.id].tokens,
              text: tree.nodes[n.id].text,
              label: tree.nodes[n.id].label,
            })),
          };
          if (r.route) perMode[mode].route = r.route;
        }
        // Where the cross-encoder ran (it is loaded by now: this only reads its record). Should that read fail,
        // only the note is lost, never the question.
        if (rerank) {
          const ranked = await embedWorker()
            .loadReranker(rerankerChoice)
            .catch(() => undefined);
          if (ranked) notes.add(rerankedOnNote(ranked));
        }
        const primary = modes.includes(s.mode) ? s.mode : modes[0];
        const model = answerModelOf(settings);
        const base: AskResults = { question: label, results: perMode };
        if (text !== undefined && text !== label) base.search = text;
        if (notes.size > 0) base.notes = [...notes];
        if (!withAnswer || !model || abort.signal.aborted) {
          setResults(base);
          return base;
        }
        const passages = perMode[primary]!.passages;
        let written = '';
        let status: string | undefined;
        const show = () =>
          setResults({
            ...base,
            answer: {
              mode: primary,
              text: written,
              streaming: true,
              citations: [],
              ...(status ? { status } : {}),
            },
          });
        show();
        try {
          const answer = await answerWithModel(
            model,
            {
              question: label,
              passages: passages.map((p) => placedText(tree, p)),
              signal: abort.signal,
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
              mode: primary,
              text: answer.text,
              streaming: false,
              citations: answer.citations.map((i) => ({ n: i + 1, nodeId: passages[i].id })),
              usage: answer.usage,
              ...(answer.writer ? { writer: answer.writer } : {}),
              ...(answer.overLimit ? { notice: answerLimitText(answer.overLimit) } : {}),
            },
          };
          setResults(done);
          return done;
        } catch (error) {
          const failed: AskResults = {
            ...base,
            answer: {
              mode: primary,
              text: written,
              streaming: false,
              citations: [],
              error: isCancel(error) ? 'Stopped.' : errorMessage(error),
            },
          };
          setResults(failed);
          return failed;
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

  /** Retrieves in the chosen mode and answers; resolves with the results once the answer is done. */
  const ask = useCallback(
    (question: string, s: RetrievalSettings, how: QuestionRun = {}) => {
      const search = how.search ?? question;
      return run(question, () => embedQuestion(search), [s.mode], s, true, search, how.history);
    },
    [run, embedQuestion],
  );
  /** All three modes side by side (the chosen one answers). */
  const compare = useCallback(
    (question: string, s: RetrievalSettings, how: QuestionRun = {}) => {
      const search = how.search ?? question;
      return run(question, () => embedQuestion(search), RETRIEVAL_MODES, s, true, search, how.history);
    },
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

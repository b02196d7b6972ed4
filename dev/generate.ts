/**
 * Harness page for the built-in model (`npx vite`, then /dev/generate.html): the app's real generate worker
 * (workers/generate.worker.ts) behind `window.aerieGenerate`, so a browser test can run one generation with the
 * exact messages a reference was computed for, cancel one, or ask for several summaries at once. No UI.
 */
import '../src/rpc/errors';
import { proxy, wrap, type Remote } from 'comlink';
import type { ChatMessage } from '../src/core/chat';
import type { GenerateApi, GeneratorChoice, GenerationResult, GeneratorInfo } from '../src/models/generate';
import type { GreedyPathApi } from './greedy-path.worker';

/** What one harness generation returns: the reply, the loaded model, and the streamed pieces. */
export interface HarnessReply {
  reply: GenerationResult;
  info: GeneratorInfo;
  pieces: string[];
  tokens: number[];
  /** The written tokens' ids, in order. */
  ids: number[];
  crossOriginIsolated: boolean;
}

const service = wrap<GenerateApi>(
  new Worker(new URL('../workers/generate.worker.ts', import.meta.url), {
    type: 'module',
    name: 'aerie-generate',
  }),
);

async function generate(
  choice: GeneratorChoice,
  messages: ChatMessage[],
  maxNewTokens: number,
  requestId?: string,
): Promise<HarnessReply> {
  const info = await service.load(choice);
  const pieces: string[] = [];
  const tokens: number[] = [];
  const ids: number[] = [];
  const reply = await service.generate(
    messages,
    choice,
    { maxNewTokens, requestId },
    proxy((delta: string) => void pieces.push(delta)),
    proxy((count: number) => void tokens.push(count)),
    proxy((id: number) => void ids.push(id)),
  );
  return { reply, info, pieces, tokens, ids, crossOriginIsolated: self.crossOriginIsolated };
}

/** Starts a generation and cancels it once `afterTokens` tokens were written; resolves with how it ended. */
async function cancelAfter(
  choice: GeneratorChoice,
  messages: ChatMessage[],
  afterTokens: number,
): Promise<{ error: string; tokens: number }> {
  await service.load(choice);
  let tokens = 0;
  const requestId = 'harness-cancel';
  try {
    await service.generate(
      messages,
      choice,
      { maxNewTokens: 10_000, requestId },
      undefined,
      proxy((count: number) => {
        tokens = count;
        if (count === afterTokens) void service.cancel(requestId);
      }),
    );
    return { error: 'none', tokens };
  } catch (error) {
    return { error: (error as Error).name, tokens };
  }
}

/** How one reply of a batch ended. */
export interface BatchedReply {
  text: string;
  error?: string;
  /** Its share of the decoding steps, and its wall time from first to last token (ms). */
  decodeShareMs?: number;
  decodeMs?: number;
  /** Tokens a chosen summary had written when the question was answered (-1: no question). */
  writtenWhenAnswered: number;
}

/**
 * Asks for every prompt at once as a build's summaries (`batch: true`), after writing each alone first; the
 * summary `cancel` (if any) is cancelled after 3 tokens, and a question is asked when summary 0 has written 5
 * tokens (if `question`). Resolves with the texts alone, the batched outcomes and the loaded model.
 */
async function batch(
  choice: GeneratorChoice,
  prompts: ChatMessage[][],
  maxNewTokens: number,
  options: { cancel?: number; question?: ChatMessage[] } = {},
): Promise<{ alone: string[]; together: BatchedReply[]; info: GeneratorInfo; answer?: string }> {
  const info = await service.load(choice);
  const alone: string[] = [];
  for (const messages of prompts)
    alone.push((await service.generate(messages, choice, { maxNewTokens })).text);
  let written = 0;
  let writtenWhenAnswered = -1;
  let question: Promise<string> | undefined;
  const together = await Promise.all(
    prompts.map(async (messages, i): Promise<BatchedReply> => {
      const requestId = `harness-batch-${i}`;
      const onToken = proxy((count: number) => {
        if (i === options.cancel && count === 3) void service.cancel(requestId);
        if (i !== 0) return;
        written = count;
        if (count === 5 && options.question) {
          question = service
            .generate(options.question, choice, { maxNewTokens: 8 })
            .then((reply) => ((writtenWhenAnswered = written), reply.text));
        }
      });
      try {
        const reply = await service.generate(
          messages,
          choice,
          { maxNewTokens, requestId, batch: true },
          undefined,
          onToken,
        );
        return {
          text: reply.text,
          decodeShareMs: reply.timing.decodeShareMs,
          decodeMs: reply.timing.decodeMs,
          writtenWhenAnswered: -1,
        };
      } catch (error) {
        return { text: '', error: (error as Error).name, writtenWhenAnswered: -1 };
      }
    }),
  );
  const answer = await question;
  together[0].writtenWhenAnswered = writtenWhenAnswered;
  return { alone, together, info, ...(answer !== undefined ? { answer } : {}) };
}

/** Loads a model and returns its error's code, or 'none'. */
async function loadError(choice: GeneratorChoice): Promise<{ code: string; message: string }> {
  try {
    await service.load(choice);
    return { code: 'none', message: '' };
  } catch (error) {
    return { code: String((error as { code?: unknown }).code), message: (error as Error).message };
  }
}

let reference: Remote<GreedyPathApi> | undefined;
/**
 * The test decoder's greedy path with each step's margin, loaded straight through transformers.js in a worker of
 * its own (dev/greedy-path.worker.ts) on `device`: the reference the app's worker is compared with.
 */
function greedyPath(...args: Parameters<GreedyPathApi['follow']>) {
  reference ??= wrap<GreedyPathApi>(
    new Worker(new URL('./greedy-path.worker.ts', import.meta.url), { type: 'module' }),
  );
  return reference.follow(...args);
}

Object.assign(globalThis, { aerieGenerate: { generate, cancelAfter, loadError, batch, greedyPath } });

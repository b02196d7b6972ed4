/**
 * Harness page for the built-in model (`npx vite`, then /dev/generate.html): the app's real generate worker
 * (workers/generate.worker.ts) behind `window.aerieGenerate`, so a browser test can run one generation with the
 * exact messages a reference was computed for, and cancel one. No UI.
 */
import '../src/rpc/errors';
import { proxy, wrap } from 'comlink';
import type { ChatMessage } from '../src/llm/types';
import type { GenerateApi } from '../src/models/generate-service';
import type { GeneratorChoice } from '../src/models/generator-presets';
import type { GenerationResult, GeneratorInfo } from '../src/models/generator';

/** What one harness generation returns: the reply, the loaded model, and the streamed pieces. */
export interface HarnessReply {
  reply: GenerationResult;
  info: GeneratorInfo;
  pieces: string[];
  tokens: number[];
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
  const reply = await service.generate(
    messages,
    choice,
    { maxNewTokens, requestId },
    proxy((delta: string) => void pieces.push(delta)),
    proxy((count: number) => void tokens.push(count)),
  );
  return { reply, info, pieces, tokens, crossOriginIsolated: self.crossOriginIsolated };
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

/** Loads a model and returns its error's code, or 'none'. */
async function loadError(choice: GeneratorChoice): Promise<{ code: string; message: string }> {
  try {
    await service.load(choice);
    return { code: 'none', message: '' };
  } catch (error) {
    return { code: String((error as { code?: unknown }).code), message: (error as Error).message };
  }
}

Object.assign(globalThis, { aerieGenerate: { generate, cancelAfter, loadError } });

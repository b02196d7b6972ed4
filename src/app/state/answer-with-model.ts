/**
 * The answer of the settings' model: an endpoint's, or the built-in model's in the generate worker, with its
 * download and writing speed shown as a status line.
 */
import { generateWorker } from '../../client/workers';
import { answerQuestion, answerWithBuiltin, type AnswerOptions, type AnswerResult } from '../../llm';
import type { DeviceUse } from '../../models/device';
import type { ModelLoadProgress } from '../../models/files';
import { connectGenerator } from '../../models/generate/generate-client';
import { speedOf } from '../../models/generate/generation-speed';
import { runtimeLabel } from '../../models/generate/generator-presets';
import { formatDecimal } from '../format';
import { builtinModelName, toLlmEndpoint, type AnswerModel } from '../settings/app-settings';

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
export async function answerWithModel(
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

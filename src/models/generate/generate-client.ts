/**
 * A `ChatGenerator` over the generate service: the page (answers) and the build worker (summaries) reach the
 * model in the generate worker through comlink, or the service itself in tests. Signals become `cancel` calls
 * (an AbortSignal cannot cross a worker boundary); callbacks become comlink proxies.
 */
import { proxy, type Remote } from 'comlink';
import { onAbort, throwIfAborted, type AbortSignalLike } from '../../core/abort';
import type { ChatMessage } from '../../core/chat';
import type { ModelLoadProgress } from '../files';
import type { GenerateApi } from './generate-service';
import type { GeneratorChoice } from './generator-presets';
import type { ChatGenerator, GeneratedReply, GeneratorInfo } from './generator-contract';

/** The generate service as seen from another realm (a comlink remote), or the service itself in tests. */
export type GenerateServiceLike =
  | Pick<Remote<GenerateApi>, 'load' | 'generate' | 'cancel'>
  | Pick<GenerateApi, 'load' | 'generate' | 'cancel'>;

/** 64 random bits in hex: request ids must not collide between the clients of one service. */
function clientPrefix(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Options of `connectGenerator`. */
export interface ConnectOptions {
  /** Stops waiting for the load (it rejects with an AbortError; files already downloaded stay cached). */
  signal?: AbortSignalLike;
}

/**
 * Loads `choice` in the service (reporting download progress) and returns a generator for it.
 * @throws GeneratorError from the load, or an AbortError when `options.signal` fires first.
 */
export async function connectGenerator(
  service: GenerateServiceLike,
  choice: GeneratorChoice,
  onProgress?: (p: ModelLoadProgress) => void,
  options: ConnectOptions = {},
): Promise<ChatGenerator & { readonly info: GeneratorInfo }> {
  throwIfAborted(options.signal);
  const prefix = clientPrefix();
  const loadId = `${prefix}-load`;
  const stopLoad = onAbort(options.signal, () => void service.cancel(loadId));
  let info: GeneratorInfo;
  try {
    info = await service.load(choice, onProgress && proxy(onProgress), loadId);
  } finally {
    stopLoad();
  }
  let calls = 0;
  // Later calls use the settled device and dtype, so they never reload another variant.
  const settled: GeneratorChoice = { model: info.model, device: info.device, dtype: info.dtype };
  return {
    info,
    async generate(
      messages: readonly ChatMessage[],
      options: {
        maxNewTokens: number;
        temperature?: number;
        signal?: AbortSignalLike;
        onText?: (delta: string) => void;
        onToken?: (generated: number) => void;
      },
    ): Promise<GeneratedReply> {
      const requestId = `${prefix}-${++calls}`;
      const { signal, onText, onToken, ...rest } = options;
      const stop = onAbort(signal, () => void service.cancel(requestId));
      try {
        return await service.generate(
          [...messages],
          settled,
          { ...rest, requestId },
          onText && proxy(onText),
          onToken && proxy(onToken),
        );
      } finally {
        stop();
      }
    },
  };
}

/**
 * The native reference for llama.cpp in `npm run bench llm`: the same GGUF file, prompt ids, token count and
 * thread count through native llama.cpp, by node-llama-cpp's prebuilt CPU binaries. Not a dependency of Aerie
 * (its install is large and CI does not need it): install it anywhere and name that folder in
 * `AERIE_NODE_LLAMA_CPP`, e.g.
 *
 *   mkdir -p /tmp/nlc && cd /tmp/nlc && npm init -y && \
 *     npm install --ignore-scripts --omit=optional node-llama-cpp @node-llama-cpp/linux-x64
 *   AERIE_NODE_LLAMA_CPP=/tmp/nlc npm run bench llm
 *
 * Without it the llama.cpp rows say the reference is unavailable and why.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { timeGreedyRuns, type NativeRequest, type NativeRun, type NativeTiming } from './llm-native';

/** The parts of node-llama-cpp this uses (it is not installed with Aerie, so no types come from it). */
interface NodeLlamaCpp {
  getLlama(options: { gpu: false; build: 'never'; logLevel?: string }): Promise<{
    loadModel(options: { modelPath: string }): Promise<LlamaModel>;
  }>;
}
interface LlamaModel {
  createContext(options: { contextSize: number; threads: number; batchSize: number }): Promise<LlamaContext>;
  dispose(): Promise<void>;
}
interface LlamaContext {
  getSequence(): {
    evaluate(tokens: number[], options: { temperature: number }): AsyncIterable<number>;
    clearHistory(): Promise<void>;
  };
  dispose(): Promise<void>;
}

/** Where node-llama-cpp is, or why the reference cannot run. */
export function nodeLlamaCppEntry(): { entry: string } | { reason: string } {
  const folder = process.env.AERIE_NODE_LLAMA_CPP;
  if (!folder) return { reason: 'native llama.cpp: set AERIE_NODE_LLAMA_CPP (bench/llm-native-llama.ts)' };
  const entry = join(folder, 'node_modules', 'node-llama-cpp', 'dist', 'index.js');
  return existsSync(entry) ? { entry } : { reason: `native llama.cpp: no node-llama-cpp in ${folder}` };
}

/**
 * Times `request` on `request.threads` threads (timeGreedyRuns): the prefill until the first token, then the
 * remaining steps.
 */
export async function timeNativeLlama(
  entry: string,
  modelFile: string,
  request: NativeRequest,
): Promise<NativeTiming> {
  const { threads } = request;
  const lib = (await import(pathToFileURL(entry).href)) as NodeLlamaCpp;
  const llama = await lib.getLlama({ gpu: false, build: 'never', logLevel: 'error' });
  const model = await llama.loadModel({ modelPath: modelFile });
  const context = await model.createContext({ contextSize: 2048, threads, batchSize: 512 });
  const sequence = context.getSequence();
  const greedy = async (ids: readonly number[], count: number) => {
    await sequence.clearHistory();
    const out: number[] = [];
    const started = performance.now();
    let firstAt = started;
    for await (const token of sequence.evaluate([...ids], { temperature: 0 })) {
      if (out.length === 0) firstAt = performance.now();
      out.push(token);
      if (out.length >= count) break;
    }
    const run: NativeRun = { prefillMs: firstAt - started, decodeMs: performance.now() - firstAt };
    return { run, ids: out };
  };
  try {
    const timed = await timeGreedyRuns(greedy, request);
    return { ...timed, threads, version: 'node-llama-cpp (native llama.cpp, CPU)' };
  } finally {
    await context.dispose();
    await model.dispose();
  }
}

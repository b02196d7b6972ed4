/**
 * Finds the prompt of the WebGPU-vs-WASM greedy agreement test (e2e/webgpu-agreement.spec.ts) and writes it to
 * tests/fixtures/models/aerie-tiny-qwen2.greedy.json: `npx tsx scripts/models/find-greedy-prompt.ts`.
 *
 * The committed decoder has random weights, so its top two logits are often nearly tied (4e-4 apart on the
 * summary fixture's prompt), and two devices whose logits differ by ~1e-3 then choose different tokens honestly.
 * This tries the app's summary prompt over each of the sample's first lines in turn (fp32 and q4, ONNX Runtime's
 * CPU in Node through transformers.js, as the app loads the model), follows `STEPS` greedy steps, and keeps the
 * prompt whose smallest top-1 margin is largest among those whose margins all reach `REQUIRED_MARGIN`. The unit test
 * tests/models/generate/greedy-margin.test.ts re-derives the margins; the browser spec re-derives them on WASM.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AutoModelForCausalLM, AutoTokenizer, env, type Tensor } from '@huggingface/transformers';
import { summaryMessages } from '../../src/core/chat';
import { greedyPath } from '../../tests/support/greedy-path';

/** Tokens the agreement test compares (the app's warm-up writes 16). */
export const STEPS = 16;
/** Smallest top-1 margin allowed at any step: ten times the ~1e-3 logit differences measured between devices. */
export const REQUIRED_MARGIN = 1e-2;
/** The weights checked: the GPU's fp32 and the q4 it falls back to without `shader-f16`. */
export const DTYPES = ['fp32', 'q4'] as const;
/** Candidates tried: the sample's first lines of some length. */
const CANDIDATES = 60;

const MODELS_DIR = fileURLToPath(new URL('../../public/models/', import.meta.url));
const OUT = new URL('../../tests/fixtures/models/aerie-tiny-qwen2.greedy.json', import.meta.url);
const EOS = 2047;

async function main(): Promise<void> {
  env.localModelPath = MODELS_DIR;
  env.allowLocalModels = true;
  env.allowRemoteModels = false;
  const tokenizer = await AutoTokenizer.from_pretrained('aerie-tiny-qwen2');
  const models = await Promise.all(
    DTYPES.map((dtype) => AutoModelForCausalLM.from_pretrained('aerie-tiny-qwen2', { dtype, device: 'cpu' })),
  );
  const promptOf = (line: string) => {
    const messages = summaryMessages([line]);
    const text = tokenizer.apply_chat_template(messages, { tokenize: false, add_generation_prompt: true });
    const encoded = tokenizer(text as string, { add_special_tokens: false }) as { input_ids: Tensor };
    return { messages, promptIds: Array.from(encoded.input_ids.data as BigInt64Array, Number) };
  };
  const pathsOf = (promptIds: number[]) =>
    Promise.all(models.map((model) => greedyPath(model, promptIds, STEPS, EOS)));
  const sample = readFileSync(new URL('../../tests/fixtures/cinderella.txt', import.meta.url), 'utf8');
  const lines = sample
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 40)
    .slice(0, CANDIDATES);
  let best: { line: number; minMargin: number } | undefined;
  const tried: number[] = [];
  for (const [i, line] of lines.entries()) {
    const paths = await pathsOf(promptOf(line).promptIds);
    const minMargin = Math.min(...paths.flatMap((p) => p.steps.map((s) => s.margin)));
    tried.push(Number(minMargin.toPrecision(3)));
    const whole = paths.every((p) => p.steps.length === STEPS);
    if (whole && minMargin >= REQUIRED_MARGIN && (!best || minMargin > best.minMargin))
      best = { line: i, minMargin };
  }
  if (!best) throw new Error(`no prompt of ${lines.length} has every margin ≥ ${REQUIRED_MARGIN}: ${tried}`);
  const { messages, promptIds } = promptOf(lines[best.line]);
  const paths = await pathsOf(promptIds);
  const fixture = {
    model: 'aerie-tiny-qwen2',
    generatedBy: 'scripts/models/find-greedy-prompt.ts',
    how:
      `The app's summary prompt over each of the sample's first ${lines.length} lines of over 40 characters ` +
      `(tests/fixtures/cinderella.txt), ${STEPS} greedy steps each in Node (onnxruntime-node) in ` +
      `${DTYPES.join(' and ')}: the one whose smallest top-1 margin (of both) is largest, all ≥ ${REQUIRED_MARGIN}.`,
    requiredMargin: REQUIRED_MARGIN,
    candidateMinMargins: tried,
    messages,
    promptIds,
    minMargin: Number(best.minMargin.toPrecision(4)),
    paths: Object.fromEntries(
      DTYPES.map((dtype, d) => [
        dtype,
        {
          greedyIds: paths[d].steps.map((s) => s.token),
          margins: paths[d].steps.map((s) => Number(s.margin.toPrecision(4))),
        },
      ]),
    ),
  };
  writeFileSync(OUT, `${JSON.stringify(fixture)}\n`);
  console.log(
    `line ${best.line}: min margin ${fixture.minMargin}; ${tried.filter((m) => m >= REQUIRED_MARGIN).length} ` +
      `of ${tried.length} candidates reach ${REQUIRED_MARGIN}`,
  );
  await Promise.all(models.map((m) => m.dispose()));
}

await main();

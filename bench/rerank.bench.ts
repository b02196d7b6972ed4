/**
 * `npm run bench rerank`: the reranker's latency per question — the cross-encoder scoring a question against
 * DEFAULT_RERANK_DEPTH leaf-sized passages of a book, through the app's code (src/models/embed/reranker.ts:
 * transformers.js's tokenizer and model in Node, on onnxruntime-node) beside native ONNX Runtime alone
 * (onnxruntime-node's session on the same ONNX file and the same token tensors, batches of the same size): the
 * floor of what the model costs on this CPU, so the ratio is what our path adds.
 *
 * Model: Xenova/ms-marco-MiniLM-L-6-v2's architecture (BERT, 6 layers, hidden 384, 30,522 wordpieces) at random
 * weights, generated into .bench-cache by scripts/models/make_cross_encoder_random.py --minilm (it costs what the
 * real model costs per pair). In the browser, ONNX Runtime Web's WASM runs the same model about 3–5× slower than
 * native on this machine (`npm run bench embed` measures that ratio for MiniLM).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { AutoTokenizer, env } from '@huggingface/transformers';
import { chunkText } from '../src/core/text';
import { DEFAULT_RERANK_DEPTH } from '../src/core/search';
import { configureRuntime, CrossEncoder, RERANK_BATCH_SIZE } from '../src/models/embed';
import type { EmbeddingDtype } from '../src/models/embed';
import { notMeasured, type BenchLine, type BenchRow } from './lines';
import { ROOT, runPython } from './support';

const MODELS = join(ROOT, '.bench-cache', 'models');
const FOLDER = 'ms-marco-minilm-random';
const FILES: Record<EmbeddingDtype, string> = { fp32: 'onnx/model.onnx', q8: 'onnx/model_quantized.onnx' };
const MAKE = join(ROOT, 'scripts', 'models', 'make_cross_encoder_random.py');
const MAKE_TIMEOUT_MS = 15 * 60 * 1000;
/** Questions timed per configuration (the first, untimed, warms the session). */
const QUESTIONS = 12;
const BOOK = 'persuasion';

const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];

/** Passages: the book's leaf-sized chunks, a different run of DEFAULT_RERANK_DEPTH for each question. */
function inputs(): { questions: string[]; passages: string[][] } {
  const book = readFileSync(join(ROOT, 'tests', 'fixtures', 'books', `${BOOK}.txt`), 'utf8');
  const chunks = chunkText(book, { maxTokens: 100 }).map((c) => c.text);
  const gold = readFileSync(join(ROOT, 'tests', 'fixtures', 'gold', `${BOOK}.jsonl`), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => (JSON.parse(l) as { question: string }).question);
  const questions = gold.slice(0, QUESTIONS + 1);
  const passages = questions.map((_, i) =>
    chunks.slice(i * DEFAULT_RERANK_DEPTH, (i + 1) * DEFAULT_RERANK_DEPTH),
  );
  return { questions, passages };
}

function ensureModel(): string | undefined {
  const folder = join(MODELS, FOLDER);
  const complete = () => Object.values(FILES).every((f) => existsSync(join(folder, f)));
  if (complete()) return undefined;
  console.log(`Generating ${folder} (random ms-marco-MiniLM-L-6, fp32 and q8)…`);
  const made = runPython([MAKE, '--minilm', folder], MAKE_TIMEOUT_MS);
  if ('reason' in made) return made.reason;
  return complete() ? undefined : 'no complete model written';
}

async function timeOurs(dtype: EmbeddingDtype, questions: string[], passages: string[][]): Promise<number[]> {
  configureRuntime({ localModelPath: `${MODELS}/` });
  const encoder = await CrossEncoder.load(`local:${FOLDER}`, { dtype });
  const times: number[] = [];
  for (let i = 0; i < questions.length; i++) {
    const start = performance.now();
    await encoder.score(questions[i], passages[i]);
    if (i > 0) times.push(performance.now() - start);
  }
  await encoder.dispose();
  return times;
}

async function timeNative(
  dtype: EmbeddingDtype,
  questions: string[],
  passages: string[][],
): Promise<number[]> {
  env.localModelPath = `${MODELS}/`;
  env.allowLocalModels = true;
  const tokenizer = await AutoTokenizer.from_pretrained(FOLDER);
  const session = await ort.InferenceSession.create(join(MODELS, FOLDER, FILES[dtype]));
  const tensor = (t: { data: unknown; dims: number[] }) =>
    new ort.Tensor('int64', t.data as BigInt64Array, t.dims);
  const times: number[] = [];
  for (let i = 0; i < questions.length; i++) {
    // Tokenised before the clock starts: the reference is the model alone.
    const batches = [];
    for (let start = 0; start < passages[i].length; start += RERANK_BATCH_SIZE) {
      const batch = passages[i].slice(start, start + RERANK_BATCH_SIZE);
      const encoded = tokenizer(
        batch.map(() => questions[i]),
        { text_pair: batch, padding: true, truncation: true },
      );
      batches.push({
        input_ids: tensor(encoded.input_ids),
        attention_mask: tensor(encoded.attention_mask),
        token_type_ids: tensor(encoded.token_type_ids!),
      });
    }
    const start = performance.now();
    for (const feeds of batches) await session.run(feeds);
    if (i > 0) times.push(performance.now() - start);
  }
  await session.release();
  return times;
}

/** Reranking latency per question, ours beside native ONNX Runtime, q8 and fp32. */
export async function benchRerank(): Promise<BenchLine[]> {
  const missing = ensureModel();
  if (missing) {
    return [
      notMeasured(
        'Rerank latency per question, ms-marco-MiniLM-L-6 architecture',
        `${missing}; run: python3 ${MAKE} --minilm ${join(MODELS, FOLDER)}`,
      ),
    ];
  }
  const { questions, passages } = inputs();
  const rows: BenchRow[] = [];
  for (const dtype of ['q8', 'fp32'] as const) {
    const ours = await timeOurs(dtype, questions, passages);
    const native = await timeNative(dtype, questions, passages);
    rows.push({
      name: `Rerank ${DEFAULT_RERANK_DEPTH} passages of ~100 tokens per question, ms-marco-MiniLM-L-6 architecture ${dtype}, median of ${ours.length}`,
      value: median(ours),
      unit: 'ms',
      reference: median(native),
      referenceLabel: 'native onnxruntime-node on the same file and tokens',
      higherIsBetter: false,
      note: `transformers.js (Node) path of the app's reranker; batches of ${RERANK_BATCH_SIZE}`,
    });
  }
  return rows;
}

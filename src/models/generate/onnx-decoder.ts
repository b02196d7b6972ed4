/**
 * The decoding loop of an ONNX causal LM (transformers.js model, ONNX Runtime session), as `DecodeEngine` for
 * the scheduler (decode-scheduler.ts): a prompt is read alone, exactly as `model.generate` reads it (batch of
 * one, logits of its last position only); steps then run for a batch of rows whose caches are gathered into
 * one left-padded cache (kv-cache.ts) with an attention mask that hides the padding. Tokens are chosen as
 * `generate` chooses them: the model's logits processors (e.g. a repetition penalty from its
 * generation_config.json), then the highest logit, or a sample when a temperature is given.
 */
import { Tensor, type GenerationConfig, type PreTrainedModel } from '@huggingface/transformers';
import type { DecodeEngine, DecodeJob, EngineBatch } from './decode-scheduler';
import { gatherRows, KvCacheError, stepAttentionMask, type KvData, type KvTensor } from './kv-cache';

/** A reply the ONNX engine writes. */
export interface OnnxJob extends DecodeJob {
  /** The chat-templated prompt's token ids. */
  readonly promptIds: readonly number[];
  /** Sampling temperature; unset or 0 is greedy decoding. */
  readonly temperature?: number;
}

/** Logits processors as transformers.js builds them for one prompt (`LogitsProcessorList`). */
type Processors = (inputIds: bigint[][], logits: Tensor) => Tensor;

/** The transformers.js internals this loop reuses so it chooses tokens exactly as `generate` does. */
interface GenerationInternals {
  _prepare_generation_config(config: GenerationConfig | null, kwargs: object): GenerationConfig;
  _get_logits_processor(config: GenerationConfig, promptLength: number): Processors;
  sessions: Record<string, OnnxSession | undefined>;
}

/** What this module reads of an ONNX Runtime session. */
interface OnnxSession {
  inputNames: readonly string[];
  outputNames: readonly string[];
  inputMetadata?: readonly {
    name: string;
    isTensor?: boolean;
    type?: string;
    shape?: readonly (number | string)[];
  }[];
}

/** A prompt's cache, shared by the rows forked from it until each joins a batch. */
interface SharedCache {
  tensors: Record<string, Tensor>;
  owners: number;
}

/** One reply being written. */
export interface OnnxRow {
  readonly job: OnnxJob;
  /** Prompt and chosen tokens: the history the logits processors see. */
  readonly ids: bigint[];
  /** The last chosen token: the next step's input. */
  last: number;
  /** Real positions in its cache (prompt and tokens fed). */
  positions: number;
  /** Extra left padding asked for by `fork` (the warm-up's check that padding is masked). */
  readonly padding: number;
  /** Its prompt's cache, until it joins a batch. */
  own?: SharedCache;
  readonly processors: Processors;
  readonly config: GenerationConfig;
}

const PAST = /^past_key_values\.\d+\.(key|value)$/;
const PRESENT = /^present\.\d+\.(key|value)$/;
const BYTES: Record<string, number> = { float32: 4, float16: 2 };
/** Tokens kept for sampling when the model's generation config sets no top_k. */
const DEFAULT_TOP_K = 50;

function int64(values: readonly number[], dims: number[]): Tensor {
  return new Tensor(
    'int64',
    BigInt64Array.from(values, (v) => BigInt(v)),
    dims,
  );
}

function disposeIfOnDevice(tensors: Record<string, Tensor> | undefined): void {
  for (const t of Object.values(tensors ?? {})) {
    if ((t as { location?: string }).location === 'gpu-buffer') t.dispose();
  }
}

function release(cache: SharedCache | undefined): void {
  if (!cache) return;
  cache.owners--;
  if (cache.owners === 0) disposeIfOnDevice(cache.tensors);
}

function cacheTensor(tensor: Tensor): KvTensor {
  const location = (tensor as { location?: string }).location;
  if (location && location !== 'cpu') {
    throw new KvCacheError(
      `A cache on the ${location} cannot be regrouped here; decode one reply at a time.`,
    );
  }
  const [rows, heads, positions, dim] = tensor.dims;
  return { data: tensor.data as unknown as KvData, dims: [rows, heads, positions, dim] };
}

function indexOfMax(values: ArrayLike<number>): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i] > values[best]) best = i;
  return best;
}

/** A sample from the `topK` highest logits' softmax. */
function sample(values: ArrayLike<number>, topK: number): number {
  const order = Array.from({ length: values.length }, (_, i) => i)
    .sort((a, b) => values[b] - values[a])
    .slice(0, Math.max(1, topK));
  const top = values[order[0]];
  const weights = order.map((i) => Math.exp(values[i] - top));
  let pick = Math.random() * weights.reduce((a, b) => a + b, 0);
  for (let i = 0; i < order.length; i++) {
    pick -= weights[i];
    if (pick <= 0) return order[i];
  }
  return order[order.length - 1];
}

/** The present.* outputs of a forward pass, named as the next pass's past_key_values.* inputs. */
function presentsOf(outputs: Record<string, Tensor>): Record<string, Tensor> {
  const past: Record<string, Tensor> = {};
  for (const [name, tensor] of Object.entries(outputs)) {
    if (PRESENT.test(name)) past[name.replace('present.', 'past_key_values.')] = tensor;
  }
  return past;
}

/** The decoder session of a causal LM. */
function sessionOf(model: PreTrainedModel): OnnxSession | undefined {
  const sessions = (model as unknown as GenerationInternals).sessions;
  return sessions.model ?? sessions.decoder_model_merged;
}

/**
 * Whether this loop can decode `model`: a decoder whose only state is a plain key/value cache
 * (`past_key_values.N.key|value` in, `present.N.key|value` out) and that takes an attention mask. Hybrid caches
 * (convolution or recurrent states) keep transformers.js's own `generate`.
 */
export function canDecode(model: PreTrainedModel): boolean {
  const session = sessionOf(model);
  if (!session || (model.config as { is_encoder_decoder?: boolean }).is_encoder_decoder) return false;
  const pastInputs = session.inputNames.filter((n) => n.startsWith('past'));
  const presentOutputs = session.outputNames.filter((n) => n.startsWith('present'));
  return (
    session.inputNames.includes('attention_mask') &&
    session.outputNames.includes('logits') &&
    pastInputs.length > 0 &&
    pastInputs.every((n) => PAST.test(n)) &&
    presentOutputs.length === pastInputs.length &&
    presentOutputs.every((n) => PRESENT.test(n))
  );
}

/** Cache bytes per position of one row: heads × dim × element size, summed over the cache inputs. */
function cacheBytesPerPosition(session: OnnxSession | undefined): number {
  let bytes = 0;
  for (const meta of session?.inputMetadata ?? []) {
    if (!PAST.test(meta.name)) continue;
    const [, heads, , dim] = meta.shape ?? [];
    bytes +=
      (typeof heads === 'number' ? heads : 1) *
      (typeof dim === 'number' ? dim : 1) *
      (BYTES[meta.type ?? 'float32'] ?? 4);
  }
  return bytes;
}

/** The ONNX model as the scheduler's engine. */
export class OnnxDecodeEngine implements DecodeEngine<OnnxJob, OnnxRow> {
  readonly cacheBytesPerPosition: number;
  private readonly eos: Set<number>;
  private readonly internals: GenerationInternals;

  constructor(private readonly model: PreTrainedModel) {
    this.internals = model as unknown as GenerationInternals;
    this.cacheBytesPerPosition = cacheBytesPerPosition(sessionOf(model));
    const config = this.config(undefined, 1);
    const eos = (config as { eos_token_id?: number | number[] | null }).eos_token_id;
    this.eos = new Set([eos ?? []].flat());
  }

  /** The generation config `generate` would use for this request. */
  private config(temperature: number | undefined, maxNewTokens: number): GenerationConfig {
    const sampling =
      temperature !== undefined && temperature > 0 ? { do_sample: true, temperature } : { do_sample: false };
    return this.internals._prepare_generation_config(null, { ...sampling, max_new_tokens: maxNewTokens });
  }

  isEnd(token: number): boolean {
    return this.eos.has(token);
  }

  /** Chooses the next token of `row` from its logits (one row of `logits`, at `offset`). */
  private choose(row: OnnxRow, logits: Float32Array, offset: number, vocab: number): number {
    const own = new Tensor('float32', logits.slice(offset, offset + vocab), [1, vocab]);
    const scores = row.processors([row.ids], own).data as Float32Array;
    const config = row.config as { do_sample?: boolean; top_k?: number };
    const token = config.do_sample ? sample(scores, config.top_k || DEFAULT_TOP_K) : indexOfMax(scores);
    row.ids.push(BigInt(token));
    row.last = token;
    return token;
  }

  /** Takes the last position's logits of each row from a forward pass's output (fp16 logits widened). */
  private logitsOf(outputs: Record<string, Tensor>): { data: Float32Array; vocab: number; stride: number } {
    let logits = outputs.logits;
    if (logits.type !== 'float32') logits = logits.to('float32');
    const [, positions, vocab] = logits.dims;
    return { data: logits.data as Float32Array, vocab, stride: positions * vocab };
  }

  async prefill(job: OnnxJob): Promise<{ row: OnnxRow; token: number }> {
    const n = job.promptIds.length;
    const outputs = (await this.model.forward({
      input_ids: int64(job.promptIds, [1, n]),
      attention_mask: int64(new Array<number>(n).fill(1), [1, n]),
      num_logits_to_keep: int64([1], []),
      past_key_values: null,
    })) as Record<string, Tensor>;
    const config = this.config(job.temperature, job.maxNewTokens);
    const row: OnnxRow = {
      job,
      ids: job.promptIds.map((id) => BigInt(id)),
      last: -1,
      positions: n,
      padding: 0,
      own: { tensors: presentsOf(outputs), owners: 1 },
      processors: this.internals._get_logits_processor(config, n),
      config,
    };
    const { data, vocab, stride } = this.logitsOf(outputs);
    const token = this.choose(row, data, stride - vocab, vocab);
    return { row, token };
  }

  fork(row: OnnxRow, count: number): OnnxRow[] {
    if (!row.own) throw new KvCacheError('Only a row that has not joined a batch can be forked.');
    const own = row.own;
    const copies = Array.from({ length: count }, (_, i) => {
      own.owners++;
      return { ...row, ids: [...row.ids], padding: i, own };
    });
    this.release(row);
    return copies;
  }

  release(row: OnnxRow): void {
    release(row.own);
    row.own = undefined;
  }

  batch(): EngineBatch<OnnxRow> {
    return new OnnxBatch(
      this.model,
      (row, logits, offset, vocab) => this.choose(row, logits, offset, vocab),
      (o) => this.logitsOf(o),
    );
  }
}

/** Rows decoded together over one gathered cache. */
class OnnxBatch implements EngineBatch<OnnxRow> {
  private rows: OnnxRow[] = [];
  private cache: Record<string, Tensor> | undefined;
  /** A row's own cache used as the batch's cache as it is (one row, nothing to gather). */
  private borrowed: SharedCache | undefined;
  private positions = 0;

  constructor(
    private readonly model: PreTrainedModel,
    private readonly choose: (row: OnnxRow, logits: Float32Array, offset: number, vocab: number) => number,
    private readonly logitsOf: (outputs: Record<string, Tensor>) => {
      data: Float32Array;
      vocab: number;
      stride: number;
    },
  ) {}

  /** Replaces the batch's cache, freeing the previous one (or handing a borrowed one back). */
  private replace(cache: Record<string, Tensor> | undefined, borrowed?: SharedCache): void {
    if (this.borrowed) release(this.borrowed);
    else disposeIfOnDevice(this.cache);
    this.cache = cache;
    this.borrowed = borrowed;
  }

  /** Makes `rows` the batch's rows: keeps the cache of rows already in it, adds the others' own caches. */
  private regroup(rows: readonly OnnxRow[]): void {
    const positions = Math.max(...rows.map((r) => r.positions + r.padding));
    const lone = rows[0];
    if (rows.length === 1 && lone.own && lone.positions === positions) {
      const own = lone.own;
      lone.own = undefined;
      this.replace(own.tensors, own);
    } else {
      const names = Object.keys(this.cache ?? rows.find((r) => r.own)!.own!.tensors);
      const gathered: Record<string, Tensor> = {};
      for (const name of names) {
        const sources = rows.map((row) => {
          const at = this.rows.indexOf(row);
          const tensor = at >= 0 ? this.cache![name] : row.own?.tensors[name];
          if (!tensor) throw new KvCacheError('A row joined a batch without its cache.');
          return { cache: cacheTensor(tensor), row: at >= 0 ? at : 0, positions: row.positions };
        });
        const { data, dims } = gatherRows(sources, positions);
        gathered[name] = new Tensor(this.typeOf(name, rows), data as never, [...dims]);
      }
      for (const row of rows) {
        if (this.rows.includes(row)) continue;
        release(row.own);
        row.own = undefined;
      }
      this.replace(gathered);
    }
    this.rows = [...rows];
    this.positions = positions;
  }

  private typeOf(name: string, rows: readonly OnnxRow[]): Tensor['type'] {
    return (this.cache?.[name] ?? rows.find((r) => r.own)!.own!.tensors[name]).type;
  }

  async step(rows: readonly OnnxRow[]): Promise<number[]> {
    if (rows.length !== this.rows.length || rows.some((r, i) => r !== this.rows[i])) this.regroup(rows);
    const count = rows.length;
    const outputs = (await this.model.forward({
      input_ids: int64(
        rows.map((r) => r.last),
        [count, 1],
      ),
      attention_mask: new Tensor(
        'int64',
        stepAttentionMask(
          rows.map((r) => r.positions),
          this.positions,
        ),
        [count, this.positions + 1],
      ),
      num_logits_to_keep: int64([1], []),
      past_key_values: this.cache,
    })) as Record<string, Tensor>;
    this.replace(presentsOf(outputs));
    this.positions++;
    const { data, vocab, stride } = this.logitsOf(outputs);
    return rows.map((row, i) => {
      row.positions++;
      return this.choose(row, data, i * stride + stride - vocab, vocab);
    });
  }

  clear(): void {
    this.replace(undefined);
    this.rows = [];
    this.positions = 0;
  }
}

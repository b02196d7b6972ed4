/**
 * Embedding models Aerie offers. A model is named by a string that is recorded in every tree it builds, so
 * queries are embedded with the same model:
 * - a Hugging Face model id (`Xenova/multi-qa-MiniLM-L6-cos-v1`), downloaded from the hub once and cached;
 * - `local:<folder>` for a model served by the app itself under `/models/<folder>/` (self-hosted, offline);
 * - `openai:<model>` for an OpenAI-compatible `/v1/embeddings` endpoint the user configured.
 */

/** Numeric precision of the ONNX weights. */
export type EmbeddingDtype = 'q8' | 'fp32';

/**
 * The precision a user or request asks for: a weights file, or 'auto', settled when the model loads by the
 * device it runs on (`resolveEmbeddingDtype`). A tree records the settled one.
 */
export type EmbeddingPrecision = EmbeddingDtype | 'auto';

/**
 * The weights 'auto' loads on each device. On the CPU (WASM, or Node's native CPU) 8-bit weights: ONNX Runtime
 * Web's int8 matrix products are 1.5–2× faster than its fp32 ones here (`npm run bench embed` prints both), as
 * WebAssembly SIMD multiplies 8-bit values eight at a time and has no fused float multiply-add, and they are a
 * quarter of the download. On WebGPU full precision: ONNX Runtime's WebGPU backend has no kernels for the
 * dynamic quantisation of q8 models (DynamicQuantizeLinear, MatMulInteger), which would run on the CPU between
 * GPU steps.
 */
export const AUTO_DTYPE: Readonly<Record<'webgpu' | 'wasm' | 'cpu', EmbeddingDtype>> = Object.freeze({
  webgpu: 'fp32',
  wasm: 'q8',
  cpu: 'q8',
});

/** The weights a precision loads on `device` (see AUTO_DTYPE); an explicit dtype is kept. */
export function resolveEmbeddingDtype(
  precision: EmbeddingPrecision | undefined,
  device: 'webgpu' | 'wasm' | 'cpu',
): EmbeddingDtype {
  if (precision === 'q8' || precision === 'fp32') return precision;
  return precision === 'auto' ? AUTO_DTYPE[device] : 'q8';
}

/** One entry of the model picker. */
export interface EmbeddingPreset {
  /** The model string recorded in trees (see the module comment). */
  id: string;
  label: string;
  /** Vector length, shown before download and checked after. */
  dim: number;
  /** Approximate download size of the q8 weights, in MB. */
  sizeMb: number;
  description: string;
}

/** The built-in offline model: GloVe word vectors in BERT form, served by the app (no download). */
export const OFFLINE_MODEL_ID = 'local:aerie-glove-100d';

/** The default: the paper's model family (multi-qa, cosine), about 4.6× faster in WASM than mpnet. */
export const DEFAULT_MODEL_ID = 'Xenova/multi-qa-MiniLM-L6-cos-v1';

/** The presets shown in Settings, default first. */
export const EMBEDDING_PRESETS: readonly EmbeddingPreset[] = [
  {
    id: DEFAULT_MODEL_ID,
    label: 'multi-qa-MiniLM-L6-cos-v1',
    dim: 384,
    sizeMb: 23,
    description: "SBERT for question answering — the paper's model family, fast in the browser (default).",
  },
  {
    id: 'Xenova/multi-qa-mpnet-base-cos-v1',
    label: 'multi-qa-mpnet-base-cos-v1',
    dim: 768,
    sizeMb: 110,
    description: "The paper's exact model. Most accurate, about 4–5× slower.",
  },
  {
    id: 'Xenova/all-MiniLM-L6-v2',
    label: 'all-MiniLM-L6-v2',
    dim: 384,
    sizeMb: 23,
    description: 'General-purpose SBERT, fast.',
  },
  {
    id: OFFLINE_MODEL_ID,
    label: 'Offline GloVe (built in)',
    dim: 100,
    sizeMb: 3,
    description: 'Word vectors served by this app: no download, works offline, weaker than SBERT.',
  },
];

/** Where a model string points. */
export type ModelLocation =
  { kind: 'hub'; repo: string } | { kind: 'local'; folder: string } | { kind: 'endpoint'; model: string };

/** Parses a model string (see the module comment). */
export function locateModel(id: string): ModelLocation {
  if (id.startsWith('local:'))
    return { kind: 'local', folder: id.slice('local:'.length).replace(/^\/+|\/+$/g, '') };
  if (id.startsWith('openai:')) return { kind: 'endpoint', model: id.slice('openai:'.length) };
  return { kind: 'hub', repo: id };
}

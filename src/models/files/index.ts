/**
 * The model files room: model ids and where a model's files come from (model-id, hub), fetching a body of
 * unknown length once (known-length-fetch), per-file load progress (load-progress), and what Settings shows of
 * the browser's model caches (cached-files: which model each cached file belongs to; model-use: when each was
 * last used), and the gate that keeps loads from the app's folder and from the hub apart in one worker
 * (source-gate). No model code: the page imports this door without loading transformers.js or wllama.
 */
export * from './cached-files';
export * from './hub';
export * from './known-length-fetch';
export * from './load-progress';
export * from './model-id';
export * from './model-use';
export * from './source-gate';

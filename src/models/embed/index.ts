/**
 * The embedding room, what the embed worker holds: the sentence embedder on transformers.js (embedder, with the
 * loader the reranker and the generator share), its texts' token ids made once (text-tokens) by our own encoder
 * for BERT-style WordPiece tokenizers (wordpiece) and the model inputs built from them (model-inputs), its
 * presets and dtypes (embedding-presets), the batches of a
 * call (rows) spread over the helper workers (embed-pool, embed-helpers), the known-input GPU check that runs an
 * embedding (gpu-check, against gpu-check-reference), the cross-encoder reranker beside the embedder (reranker, reranker-presets: it loads
 * through the embedder's loader and the embed service hosts it, so a room of its own would import this one and be
 * imported by it), the embed service the worker exposes, and when a warm-up may load a model (warmup).
 *
 * This door loads transformers.js. Code that must stay light (the page, storage, the build worker) imports the
 * light files themselves: embedding-presets, reranker-presets, rows, warmup (.dependency-cruiser.cjs lists them).
 */
export * from './embed-helpers';
export * from './embed-pool';
export * from './embed-service';
export * from './embedder';
export * from './embedding-presets';
export * from './gpu-check';
export * from './gpu-check-reference';
export * from './model-inputs';
export * from './reranker';
export * from './reranker-presets';
export * from './rows';
export * from './text-tokens';
export * from './warmup';
export * from './wordpiece';

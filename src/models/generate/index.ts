/**
 * The generation room, what the generate worker holds: the built-in language model's contract (generator-contract),
 * presets and runtime choice (generator-presets, gguf), the two runtimes (transformers-generator over onnx-decoder,
 * kv-cache and decode-scheduler; llama-cpp-generator on wllama), the generate service the worker exposes, its
 * client for the page and the build worker (generate-client), and the measured speed (generation-speed).
 *
 * llama-cpp-generator is not behind this door: the service imports it (and wllama, 10 MB of WebAssembly) only for
 * a GGUF model, so whoever needs it imports the file.
 *
 * This door loads transformers.js. Code that must stay light (the page, storage, the build worker)
 * imports the light files themselves: generator-presets, gguf, generate-client, generation-speed
 * (.dependency-cruiser.cjs lists them).
 */
export * from './decode-scheduler';
export * from './generate-client';
export * from './generate-service';
export * from './generation-speed';
export * from './generator-contract';
export * from './generator-loader';
export * from './generator-presets';
export * from './gguf';
export * from './kv-cache';
export * from './onnx-decoder';
export * from './transformers-generator';

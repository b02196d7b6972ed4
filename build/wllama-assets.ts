/**
 * Serves llama.cpp's WebAssembly build (@wllama/wllama's `wllama.wasm`, 10 MB) from the app's own origin (never
 * its CDN default): in `vite` dev from node_modules, and in `vite build` as the asset `wllama/wllama.wasm`. The
 * generate worker loads it only when a GGUF model is chosen (src/models/generate/llama-cpp-generator.ts).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

/** URL path of the file under the app's base (src/models/device/browser-runtime.ts points the runtime here). */
export const WLLAMA_WASM_PATH = 'wllama/wllama.wasm';

function wasmFile(): string {
  const require = createRequire(import.meta.url);
  // The package's main entry is esm/index.cjs; its WebAssembly sits beside it in esm/wasm/.
  return path.join(path.dirname(require.resolve('@wllama/wllama')), 'wasm', 'wllama.wasm');
}

/** The Vite plugin. */
export function wllamaAssets(): Plugin {
  const file = wasmFile();
  return {
    name: 'aerie-wllama-assets',
    configureServer(server) {
      server.middlewares.use(`/${WLLAMA_WASM_PATH}`, (req, res, next) => {
        if ((req.url ?? '/').split('?')[0] !== '/') return next();
        res.setHeader('Content-Type', 'application/wasm');
        res.setHeader('Cache-Control', 'public, max-age=3600');
        res.end(readFileSync(file));
      });
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: WLLAMA_WASM_PATH, source: readFileSync(file) });
    },
  };
}

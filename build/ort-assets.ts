/**
 * Serves ONNX Runtime Web's WASM files from the app's own origin (never a CDN): in `vite` dev from
 * node_modules, and in `vite build` as assets under `ort/`. transformers.js 4.3 imports
 * `onnxruntime-web/webgpu`, whose WebGPU support needs the asyncify build; on a machine without WebGPU the
 * embedding worker uses the smaller, faster CPU-only plain build (src/models/device/browser-runtime.ts).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

/** URL prefix under which the files are served; the embedder points `wasmPaths` here. */
export const ORT_URL_PREFIX = '/ort/';

/** The files ORT-web loads at run time: one `.mjs` and `.wasm` pair per build. */
export const ORT_FILES = [
  'ort-wasm-simd-threaded.asyncify.mjs',
  'ort-wasm-simd-threaded.asyncify.wasm',
  'ort-wasm-simd-threaded.mjs',
  'ort-wasm-simd-threaded.wasm',
] as const;

const CONTENT_TYPES: Record<string, string> = { '.mjs': 'text/javascript', '.wasm': 'application/wasm' };

function ortDistDir(): string {
  const require = createRequire(import.meta.url);
  // The package's exports hide package.json; resolve its main entry and step to dist/.
  return path.dirname(require.resolve('onnxruntime-web'));
}

/** The Vite plugin. */
export function ortAssets(): Plugin {
  const dir = ortDistDir();
  return {
    name: 'aerie-ort-assets',
    configureServer(server) {
      server.middlewares.use(ORT_URL_PREFIX, (req, res, next) => {
        const name = (req.url ?? '').replace(/^\//, '').split('?')[0];
        if (!(ORT_FILES as readonly string[]).includes(name)) return next();
        res.setHeader('Content-Type', CONTENT_TYPES[path.extname(name)]);
        res.setHeader('Cache-Control', 'public, max-age=3600');
        res.end(readFileSync(path.join(dir, name)));
      });
    },
    generateBundle(_options, bundle) {
      // onnxruntime-web's `new URL('…asyncify.wasm', import.meta.url)` makes the bundler emit a hashed 27 MB copy
      // that is never loaded (wasmPaths points at ort/): drop it (and any other such copy).
      for (const fileName of Object.keys(bundle)) {
        if (/(^|\/)ort-wasm-simd-threaded[^/]*\.wasm$/.test(fileName) && !fileName.startsWith('ort/'))
          delete bundle[fileName];
      }
      for (const name of ORT_FILES) {
        this.emitFile({ type: 'asset', fileName: `ort/${name}`, source: readFileSync(path.join(dir, name)) });
      }
    },
  };
}

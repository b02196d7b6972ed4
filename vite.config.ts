import { randomBytes } from 'node:crypto';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { ortAssets } from './build/ort-assets.ts';
import { modelFiles } from './build/model-files.ts';
import { wllamaAssets } from './build/wllama-assets.ts';
import { SECURITY_HEADERS } from './build/csp.ts';
import { securityHeaders } from './build/security-plugin.ts';
import { offlineApp, swHeaders } from './build/pwa.ts';
import { transformersChainFix } from './build/transformers-fix.ts';

/**
 * Cross-origin isolation lets ONNX Runtime Web use more than one WASM thread (SharedArrayBuffer). These and the
 * Content-Security-Policy are sent by `vite` and `vite preview` (build/security-plugin.ts) and must be sent by
 * any production host (docs/security.md; the build writes dist/_headers).
 */
export const isolationHeaders = {
  'Cross-Origin-Opener-Policy': SECURITY_HEADERS['Cross-Origin-Opener-Policy'],
  'Cross-Origin-Embedder-Policy': SECURITY_HEADERS['Cross-Origin-Embedder-Policy'],
} as const;

/**
 * Every page and worker entry, pre-bundled before the first page loads. Vite's scanner starts from HTML files
 * only and does not follow `new Worker(new URL(…))`; a worker dependency found later (UMAP in the build worker,
 * transformers.js in the embedding worker, PDF.js in the ingestion worker) makes Vite re-optimise and reload
 * the page, losing a user's first build. `e2e/cold-dev.spec.ts` starts `npm run dev` cold to keep this true.
 */
export const DEV_ENTRIES = ['index.html', 'dev/*.html', 'workers/*.worker.ts'];

/** Class names survive minification: typed errors are told apart by `name` (and `code`) across workers. */
const keepNames = { output: { keepNames: true } };

export default defineConfig(({ command }) => {
  // The dev server injects CSS as <style> elements; they carry this nonce (new each start) so the policy
  // needs no 'unsafe-inline'. The built app loads CSS from files and has no nonce.
  const devStyleNonce = command === 'serve' ? randomBytes(16).toString('base64') : undefined;
  return {
    plugins: [
      react(),
      ortAssets(),
      wllamaAssets(),
      modelFiles(),
      securityHeaders({ devStyleNonce }),
      ...offlineApp(),
      transformersChainFix(),
    ],
    // The headers the service worker adds where a static host sends none (build/pwa.ts, workers/sw.ts).
    define: { __AERIE_SW_HEADERS__: JSON.stringify(swHeaders()) },
    html: devStyleNonce ? { cspNonce: devStyleNonce } : undefined,
    // The cold-start browser test gives the dev server a fresh cache folder instead of deleting the shared one.
    cacheDir: process.env.AERIE_VITE_CACHE_DIR || undefined,
    // The dev server serves transformers.js pre-bundled: its fix applies there too.
    optimizeDeps: { entries: DEV_ENTRIES, rolldownOptions: { plugins: [transformersChainFix()] } },
    // Workers carry PDF.js, ONNX Runtime's JS and the cl100k tables; the page itself stays near 0.5 MB.
    build: { rolldownOptions: keepNames, chunkSizeWarningLimit: 1600 },
    worker: { format: 'es', rolldownOptions: keepNames },
  };
});

import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { ortAssets } from './build/ort-assets.ts';

/**
 * Cross-origin isolation lets ONNX Runtime Web use more than one WASM thread (SharedArrayBuffer).
 * The same headers must be sent by `vite`, `vite preview` and any production host.
 */
export const isolationHeaders = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
} as const;

/** Class names survive minification: typed errors are told apart by `name` (and `code`) across workers. */
const keepNames = { output: { keepNames: true } };

export default defineConfig({
  plugins: [react(), ortAssets()],
  server: { headers: isolationHeaders },
  preview: { headers: isolationHeaders },
  // Workers carry PDF.js, ONNX Runtime's JS and the cl100k tables; the page itself stays near 0.5 MB.
  build: { rolldownOptions: keepNames, chunkSizeWarningLimit: 1600 },
  worker: { format: 'es', rolldownOptions: keepNames },
});

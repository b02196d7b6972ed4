/**
 * Model weights go out as what they are, binary: `application/octet-stream` for `.onnx`, `.onnx_data` and `.gguf` in
 * `vite` and `vite preview`. Without a type, `vite preview` (and many hosts) take a file for text and gzip it
 * on the fly, which drops its `Content-Length`: the server then spends CPU compressing incompressible weights,
 * and the browser cannot know how much is coming. `MODEL_FILE_RULE` is the same rule for the built app's
 * `_headers` (Netlify, Cloudflare Pages).
 */
import type { Connect, Plugin } from 'vite';

/** File names served as binary model weights. */
export const MODEL_FILE = /\.(onnx(_data)?|gguf)$/;

/** The `_headers` rule for static hosts (one block per pattern). */
export const MODEL_FILE_RULE = ['/*.onnx', '/*.onnx_data', '/*.gguf']
  .map((pattern) => `${pattern}\n  Content-Type: application/octet-stream\n`)
  .join('');

/** Sets the binary content type on requests for model files; everything else passes untouched. */
export function modelFileTypes(): Connect.NextHandleFunction {
  return (req, res, next) => {
    const path = (req.url ?? '').split('?')[0];
    if (MODEL_FILE.test(path)) res.setHeader('Content-Type', 'application/octet-stream');
    next();
  };
}

/** The Vite plugin: the middleware in `vite` and `vite preview`, ahead of their static file serving. */
export function modelFiles(): Plugin {
  return {
    name: 'aerie-model-files',
    configureServer(server) {
      server.middlewares.use(modelFileTypes());
    },
    configurePreviewServer(server) {
      server.middlewares.use(modelFileTypes());
    },
  };
}

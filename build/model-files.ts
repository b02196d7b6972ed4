/**
 * Model weights go out as what they are, binary: `application/octet-stream` for `.onnx`, `.onnx_data` and `.gguf` in
 * `vite` and `vite preview`. Without a type, `vite preview` (and many hosts) take a file for text and gzip it
 * on the fly, which drops its `Content-Length`: the server then spends CPU compressing incompressible weights,
 * and the browser cannot know how much is coming. `MODEL_FILE_RULE` is the same rule for the built app's
 * `_headers` (Netlify, Cloudflare Pages).
 *
 * A model file that is not there is a 404 with a sentence (`missingModelFiles`). Vite's servers answer an unknown
 * path with the app's index.html and status 200 (a single-page app's fallback): a model folder without the
 * weights the app asked for (the offline GloVe model ships only its 8-bit file) then handed ONNX Runtime a web
 * page, and the user read "protobuf parsing failed". A static host must do the same: no fallback to index.html
 * for paths under `models/` (docs/security.md).
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
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

/** Where self-hosted models are served, under the app's base URL (public/models/ in the repository). */
export const MODELS_URL_PATH = 'models/';

/** The body of a missing model file's 404: what was asked for and where the app looks. */
export function missingModelText(urlPath: string): string {
  return (
    `No such model file: ${urlPath}. This app serves its own models from ${MODELS_URL_PATH} and this file is ` +
    'not there (a model ships only the weights its folder holds).\n'
  );
}

/**
 * Answers a GET or HEAD for a file under `<base>models/` that does not exist in `root` (the folder the server
 * serves those paths from) with a 404 and `missingModelText`, before the server's fallback to index.html.
 */
export function missingModelFiles(base: string, root: string): Connect.NextHandleFunction {
  const prefix = `${base.replace(/\/?$/, '/')}${MODELS_URL_PATH}`;
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const urlPath = decodeURIComponent((req.url ?? '').split('?')[0]);
    if (!urlPath.startsWith(prefix)) return next();
    const file = path.join(root, urlPath.slice(base.replace(/\/?$/, '/').length));
    // A path that climbs out of the folder is not a model file either.
    const inside = file.startsWith(path.join(root, MODELS_URL_PATH));
    if (inside && existsSync(file) && statSync(file).isFile()) return next();
    res.statusCode = 404;
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.end(req.method === 'HEAD' ? undefined : missingModelText(urlPath));
  };
}

/**
 * The Vite plugin: the middlewares in `vite` (models from `publicDir`) and `vite preview` (from the build's
 * `outDir`), ahead of their static file serving and their index.html fallback.
 */
export function modelFiles(): Plugin {
  return {
    name: 'aerie-model-files',
    configureServer(server) {
      server.middlewares.use(modelFileTypes());
      const { base, publicDir } = server.config;
      if (publicDir) server.middlewares.use(missingModelFiles(base, publicDir));
    },
    configurePreviewServer(server) {
      server.middlewares.use(modelFileTypes());
      const { base, root, build } = server.config;
      server.middlewares.use(missingModelFiles(base, path.resolve(root, build.outDir)));
    },
  };
}

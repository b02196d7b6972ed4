/**
 * Model weights are served as binary by `vite preview` with the app's plugin: whole, uncompressed, with their
 * length (the real preview server on a temporary folder). A JSON file beside them is still compressed, which
 * shows the server does compress what it takes for text. A model file that is not there is a 404 with a
 * sentence, never the app's index.html (which the servers send for any other unknown path), in `vite preview`
 * and in `vite` (the dev server, over the public folder).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, preview, type PreviewServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODEL_FILE_RULE, missingModelText, modelFiles } from '../../build/model-files';

const WEIGHTS = Buffer.alloc(200_000, 7);
let dir = '';
let server: PreviewServer;
let origin = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'aerie-model-files-'));
  const models = join(dir, 'dist', 'models', 'm', 'onnx');
  mkdirSync(models, { recursive: true });
  writeFileSync(join(models, 'model_quantized.onnx'), WEIGHTS);
  writeFileSync(
    join(dir, 'dist', 'models', 'm', 'tokenizer.json'),
    JSON.stringify({ words: 'x'.repeat(5000) }),
  );
  writeFileSync(join(dir, 'dist', 'index.html'), '<!doctype html><title>app</title>');
  server = await preview({
    root: dir,
    configFile: false,
    logLevel: 'silent',
    plugins: [modelFiles()],
    build: { outDir: join(dir, 'dist') },
    preview: { host: '127.0.0.1', port: 0 },
  });
  origin = `http://127.0.0.1:${(server.httpServer.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

describe('model files under vite preview (real server)', () => {
  it('sends .onnx weights as binary, uncompressed and with their length', async () => {
    const response = await fetch(`${origin}/models/m/onnx/model_quantized.onnx`, {
      headers: { 'Accept-Encoding': 'gzip, br' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(response.headers.get('content-length')).toBe(String(WEIGHTS.length));
    expect(Buffer.from(await response.arrayBuffer()).equals(WEIGHTS)).toBe(true);
  });

  it('still compresses text beside them (the premise), and tells static hosts the same rule', async () => {
    const response = await fetch(`${origin}/models/m/tokenizer.json`, {
      headers: { 'Accept-Encoding': 'gzip' },
    });
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(MODEL_FILE_RULE).toContain('/*.onnx\n  Content-Type: application/octet-stream\n');
  });
});

describe('a model file that is not there', () => {
  it('is a 404 with a sentence under vite preview; any other unknown path still gets the app', async () => {
    const missing = await fetch(`${origin}/models/m/onnx/model.onnx`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await missing.text()).toBe(missingModelText('/models/m/onnx/model.onnx'));
    // A path that climbs out of models/ is not served from there either.
    expect((await fetch(`${origin}/models/m/..%2F..%2Findex.html`)).status).toBe(404);
    const page = await fetch(`${origin}/some/page`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>app</title>');
  });

  it('is a 404 with a sentence under the dev server (public/models/)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'aerie-model-files-dev-'));
    mkdirSync(join(root, 'public', 'models', 'm', 'onnx'), { recursive: true });
    writeFileSync(join(root, 'public', 'models', 'm', 'onnx', 'model_quantized.onnx'), WEIGHTS);
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>dev app</title>');
    const dev = await createServer({
      root,
      configFile: false,
      logLevel: 'silent',
      plugins: [modelFiles()],
      optimizeDeps: { noDiscovery: true, include: [] },
      server: { host: '127.0.0.1', port: 0, ws: false },
    });
    await dev.listen();
    try {
      const devOrigin = `http://127.0.0.1:${(dev.httpServer!.address() as AddressInfo).port}`;
      const missing = await fetch(`${devOrigin}/models/m/onnx/model.onnx`);
      expect(missing.status).toBe(404);
      expect(await missing.text()).toBe(missingModelText('/models/m/onnx/model.onnx'));
      const present = await fetch(`${devOrigin}/models/m/onnx/model_quantized.onnx`);
      expect(present.status).toBe(200);
      expect(Buffer.from(await present.arrayBuffer()).equals(WEIGHTS)).toBe(true);
    } finally {
      await dev.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});

/**
 * Model weights are served as binary by `vite preview` with the app's plugin: whole, uncompressed, with their
 * length (the real preview server on a temporary folder). A JSON file beside them is still compressed, which
 * shows the server does compress what it takes for text.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { preview, type PreviewServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODEL_FILE_RULE, modelFiles } from '../../build/model-files';

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

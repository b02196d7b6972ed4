/**
 * knownLengthFetch over real HTTP (a local Node server): a body sent gzipped and chunked (no Content-Length,
 * as `vite preview` and many hosts send files they take for text) reaches transformers.js whole and with its
 * length; a response that states its length, or a failed one, passes through as it was.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knownLengthFetch } from '../../../src/models/files';

const BODY = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7919) % 251));
let server: Server;
let origin = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/gzip') {
      res.writeHead(200, { 'Content-Encoding': 'gzip', 'Content-Type': 'application/octet-stream' });
      const packed = gzipSync(BODY);
      // Several writes: sent chunked, with no Content-Length.
      for (let at = 0; at < packed.length; at += 4096) res.write(packed.subarray(at, at + 4096));
      res.end();
    } else if (req.url === '/plain') {
      res.writeHead(200, { 'Content-Length': String(BODY.length) });
      res.end(BODY);
    } else {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('not here');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('knownLengthFetch (real HTTP, local server)', () => {
  it('gives a compressed, chunked body whole, decoded, with its length stated', async () => {
    const raw = await fetch(`${origin}/gzip`);
    expect(raw.headers.get('content-length')).toBeNull(); // the premise: the length is unknown
    const response = await knownLengthFetch(fetch)(`${origin}/gzip`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe(String(BODY.length));
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(Buffer.from(await response.arrayBuffer()).equals(BODY)).toBe(true);
  });

  it('passes a response that states its length, and a failed one, through unchanged', async () => {
    const seen: Response[] = [];
    const recording = async (input: RequestInfo | URL, init?: RequestInit) => {
      const r = await fetch(input, init);
      seen.push(r);
      return r;
    };
    const wrapped = knownLengthFetch(recording);
    const plain = await wrapped(`${origin}/plain`);
    expect(plain).toBe(seen[0]);
    expect(Buffer.from(await plain.arrayBuffer()).equals(BODY)).toBe(true);
    const missing = await wrapped(`${origin}/missing`);
    expect(missing).toBe(seen[1]);
    expect(missing.status).toBe(404);
  });
});

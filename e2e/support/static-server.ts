/**
 * A plain static file server, as GitHub Pages or an intranet share is: it sends each file with its type and
 * length and nothing else — no Content-Security-Policy, no COOP/COEP, no SPA fallback (a missing file is a 404;
 * `/` and folders serve their index.html). Its one addition is the tests' CSP report address
 * (build/security-plugin.ts `reportEndpoint`), so the suite's CSP guard hears the workers' violations as it
 * does from `vite preview`. The folder it serves can be switched while it runs (a new deployment).
 *
 * Port: `AERIE_E2E_STATIC_PORT`, default 0 (any free port; each test's browser context is new, so nothing
 * depends on the origin staying the same between tests).
 */
import { createReadStream, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { reportEndpoint } from '../../build/security-plugin';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
};

/** A running static server. */
export interface StaticServer {
  origin: string;
  /** Serves `folder` from now on (the next deployment). */
  serve(folder: string): void;
  /** Every path requested, in order (to check what a page fetched from the network). */
  requests: string[];
  close(): Promise<void>;
}

/** Starts the server on `folder` (see the module comment). */
export async function startStaticServer(folder: string): Promise<StaticServer> {
  let root = resolve(folder);
  const requests: string[] = [];
  const reports = reportEndpoint();
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]);
    requests.push(path);
    reports(req, res, () => {
      const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path));
      let size = -1;
      try {
        const stat = file.startsWith(root + sep) || file === root ? statSync(file) : undefined;
        if (stat?.isFile()) size = stat.size;
      } catch {
        // Missing: a 404 below.
      }
      if (size < 0 || (req.method !== 'GET' && req.method !== 'HEAD')) {
        res.writeHead(size < 0 ? 404 : 405, { 'Content-Type': 'text/plain' }).end('Not found');
        return;
      }
      res.writeHead(200, {
        'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
        'Content-Length': size,
      });
      if (req.method === 'HEAD') res.end();
      else createReadStream(file).pipe(res);
    });
  });
  const port = Number(process.env.AERIE_E2E_STATIC_PORT ?? 0);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    serve: (next) => (root = resolve(next)),
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

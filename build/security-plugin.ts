/**
 * Sends Aerie's security headers (CSP, COOP/COEP, nosniff, referrer policy) with every response of `vite` and
 * `vite preview` — pages, modules, worker scripts and WASM alike, since a worker obeys its own response's CSP —
 * and makes the built app carry the same policy: a `<meta>` copy in index.html (for the page, on hosts that
 * send no headers) and a `_headers` file (Netlify, Cloudflare Pages) for every file.
 *
 * It also keeps the dev page free of inline script: @vitejs/plugin-react injects its Fast Refresh preamble as an
 * inline `<script>`; that tag is removed here and each page entry imports `@vitejs/plugin-react/preamble`
 * (the same code as a module) as its first import instead.
 *
 * With `AERIE_CSP_REPORT=1` (the browser tests) the policy asks browsers to POST violations to
 * `CSP_REPORT_PATH`; the server keeps them under the test they came from (the `CSP_RUN_COOKIE` the report
 * carries), `GET …?run=<id>` returns that test's as JSON and `DELETE …?run=<id>` clears them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Connect, Plugin } from 'vite';
import {
  contentSecurityPolicy,
  cspOptionsFromEnv,
  CSP_REPORT_PATH,
  CSP_RUN_COOKIE,
  SECURITY_HEADERS,
  type CspOptions,
} from './csp.ts';
import { MODEL_FILE_RULE } from './model-files.ts';

/** The inline module @vitejs/plugin-react adds to dev pages (it imports its runtime and sets two globals). */
const INLINE_PREAMBLE = /<script type="module">\s*import \{ injectIntoGlobalHook \}[\s\S]*?<\/script>\s*/g;

/** Largest violation report accepted, in bytes (a report is ~1 kB). */
const MAX_REPORT_BYTES = 64 * 1024;

/** Options of `securityHeaders`. */
export interface SecurityPluginOptions {
  /** Nonce for the `<style>` elements the dev server injects (Vite's `html.cspNonce`). */
  devStyleNonce?: string;
  /** Environment to read `AERIE_CSP_*` from. Default `process.env`. */
  env?: Record<string, string | undefined>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_REPORT_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Violation reports by run: the value of the report's `CSP_RUN_COOKIE` ('' for a report without one). */
export type ReportStore = Map<string, unknown[]>;

/** The run a request belongs to: its `CSP_RUN_COOKIE`, or '' without one. */
function runOfCookie(req: IncomingMessage): string {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === CSP_RUN_COOKIE) return decodeURIComponent(value.join('='));
  }
  return '';
}

/**
 * The report endpoint (also the tests' plain static server's): POST files a report under its run (its
 * `CSP_RUN_COOKIE`); GET lists and DELETE clears the reports of the run named by `?run=` ('' without it).
 */
export function reportEndpoint(reports: ReportStore = new Map()): Connect.NextHandleFunction {
  return (req, res: ServerResponse, next) => {
    const url = new URL(req.url ?? '/', 'http://server');
    if (url.pathname !== CSP_REPORT_PATH) return next();
    if (req.method === 'POST') {
      const run = runOfCookie(req);
      readBody(req).then(
        (body) => {
          let report: unknown;
          try {
            report = JSON.parse(body);
          } catch {
            report = { unparsed: body };
          }
          reports.set(run, [...(reports.get(run) ?? []), report]);
          res.statusCode = 204;
          res.end();
        },
        () => {
          res.statusCode = 400;
          res.end();
        },
      );
      return;
    }
    const run = url.searchParams.get('run') ?? '';
    const kept = reports.get(run) ?? [];
    if (req.method === 'DELETE') reports.delete(run);
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify(kept));
  };
}

function headerMiddleware(policy: () => string): Connect.NextHandleFunction {
  return (_req, res, next) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    res.setHeader('Content-Security-Policy', policy());
    next();
  };
}

/** The plugin (see the module comment). */
export function securityHeaders(options: SecurityPluginOptions = {}): Plugin {
  const env = options.env ?? process.env;
  const base: CspOptions = cspOptionsFromEnv(env);
  const reporting = env.AERIE_CSP_REPORT === '1';
  const reports: ReportStore = new Map();
  const reportUri = reporting ? CSP_REPORT_PATH : undefined;
  return {
    name: 'aerie-security-headers',
    configureServer(server) {
      if (reporting) server.middlewares.use(reportEndpoint(reports));
      const policy = contentSecurityPolicy({ ...base, styleNonce: options.devStyleNonce, reportUri });
      server.middlewares.use(headerMiddleware(() => policy));
    },
    configurePreviewServer(server) {
      if (reporting) server.middlewares.use(reportEndpoint(reports));
      const policy = contentSecurityPolicy({ ...base, reportUri });
      server.middlewares.use(headerMiddleware(() => policy));
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (ctx.server) return html.replace(INLINE_PREAMBLE, '');
        // The built page: the same policy as a <meta> (what a meta can carry), before any script or style.
        const meta = contentSecurityPolicy({ ...base, delivery: 'meta' });
        const tag = `<meta http-equiv="Content-Security-Policy" content="${meta}" />`;
        const charset = /<meta charset="[^"]*"\s*\/?>/i;
        return charset.test(html)
          ? html.replace(charset, (m) => `${m}\n    ${tag}`)
          : html.replace(/<head>/i, `<head>\n    ${tag}`);
      },
    },
    generateBundle() {
      const headers = [
        ...Object.entries(SECURITY_HEADERS),
        ['Content-Security-Policy', contentSecurityPolicy(base)],
      ];
      this.emitFile({
        type: 'asset',
        fileName: '_headers',
        source:
          '# Security headers for every file (Netlify and Cloudflare Pages read this file; see docs/security.md).\n' +
          `/*\n${headers.map(([name, value]) => `  ${name}: ${value}`).join('\n')}\n` +
          '# Model weights are binary: hosts must not compress them (their length stays known).\n' +
          MODEL_FILE_RULE,
      });
    },
  };
}

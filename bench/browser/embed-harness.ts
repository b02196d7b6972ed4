/**
 * The Node side of the browser benchmarks: a Vite dev server with the project's vite.config.ts (COOP/COEP
 * headers, ORT-web's files on /ort/) on 127.0.0.1 (a secure context, as WebGPU needs), and headless Chromium
 * (Debian's, with the e2e flags, or the WebGPU project's) that
 * opens a bench page (bench/browser/embed.html by default) and runs configurations through
 * `window.aerieBench.run`.
 *
 * Every request the pages and their workers make is recorded; `assertLocalOnly` fails the benchmark if any
 * left the bench server.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext } from '@playwright/test';
import type { Plugin } from 'vite';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../e2e/support/chromium';
import type { AerieBenchPage, PageRunConfig, PageRunResult } from './embed-page';
import { startViteServer } from '../support';

/** The repository root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Loopback only: the page must not reach anything else. */
/** The page, relative to the server root. */
const PAGE_PATH = '/bench/browser/embed.html';
/** Vite's dependency cache for the bench, apart from the one `npm run dev` uses. */
const VITE_CACHE = join(ROOT, '.bench-cache', 'vite');
/** Longest a single configuration (model load, warm-up, timed passes) may take. */
const RUN_TIMEOUT_MS = 10 * 60 * 1000;
/** Where experiments find ORT-web's other WASM builds (the app serves the asyncify and plain ones, on /ort/). */
export const ORT_BUILDS_PATH = '/ort-builds/';
const ORT_BUILD_FILE = /^ort-wasm-simd-threaded(\.[a-z]+)?\.(mjs|wasm)$/;
const CONTENT_TYPES: Record<string, string> = { '.mjs': 'text/javascript', '.wasm': 'application/wasm' };
/** URL schemes that never leave the page. */
const LOCAL_SCHEMES = ['blob:', 'data:'];

/** A running bench server and browser; `close` stops both. */
export interface BrowserBench<Config = PageRunConfig, Result = PageRunResult> {
  /** Origin of the bench server, e.g. `http://127.0.0.1:41234`. */
  origin: string;
  /**
   * Runs one configuration in a fresh page (fresh workers, fresh WASM instance). `beforeClose` runs once the
   * page has answered and before it closes (e.g. to read the browser's memory while its workers live).
   */
  run(config: Config, hooks?: RunHooks): Promise<Result>;
  /** Every URL the pages and their workers requested so far. */
  requests(): readonly string[];
  /** Throws if any request of any page or worker went anywhere but the bench server. */
  assertLocalOnly(): void;
  /** Number of requests the pages and their workers made so far. */
  requestCount(): number;
  close(): Promise<void>;
}

/** Serves every `ort-wasm-simd-threaded*.{mjs,wasm}` of onnxruntime-web/dist, untransformed, for experiments. */
function ortBuilds(): Plugin {
  const dir = dirname(createRequire(import.meta.url).resolve('onnxruntime-web'));
  return {
    name: 'aerie-bench-ort-builds',
    configureServer(server) {
      server.middlewares.use(ORT_BUILDS_PATH, (req, res, next) => {
        const name = (req.url ?? '').replace(/^\//, '').split('?')[0];
        if (!ORT_BUILD_FILE.test(name)) return next();
        res.setHeader('Content-Type', CONTENT_TYPES[extname(name)]);
        res.end(readFileSync(join(dir, name)));
      });
    },
  };
}

/** What a caller may do around one run. */
export interface RunHooks {
  beforeClose?: () => Promise<void>;
}

/** Which bench page to open, and what its server adds. */
export interface BrowserBenchOptions {
  /** The page, relative to the server root. Default the embedding page. */
  pagePath?: string;
  /** Pages and workers whose imports Vite pre-bundles up front, so no re-optimisation reloads the page. */
  entries?: string[];
  /** Vite's dependency cache (one per bench page, apart from the app's). */
  cacheDir?: string;
  /** Extra Vite plugins (e.g. response headers). */
  plugins?: Plugin[];
  /** Chromium's flags. Default the e2e flags (no GPU); CHROMIUM_WEBGPU_ARGS offers a WebGPU adapter. */
  chromiumArgs?: string[];
}

function startServer(options: BrowserBenchOptions): ReturnType<typeof startViteServer> {
  return startViteServer({
    cacheDir: options.cacheDir ?? VITE_CACHE,
    plugins: [ortBuilds(), ...(options.plugins ?? [])],
    entries: options.entries ?? ['bench/browser/embed.html', 'bench/browser/embed-bench.worker.ts'],
  });
}

async function openPageRun<Config, Result>(
  context: BrowserContext,
  url: string,
  config: Config,
  hooks: RunHooks = {},
): Promise<Result> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  try {
    await page.goto(url);
    await page.waitForFunction(() => 'aerieBench' in globalThis, undefined, { timeout: RUN_TIMEOUT_MS });
    const result = (await page.evaluate(
      (c) => (globalThis as unknown as { aerieBench: AerieBenchPage }).aerieBench.run(c as PageRunConfig),
      config as unknown,
    )) as Result;
    await hooks.beforeClose?.();
    return result;
  } catch (error) {
    const detail = problems.length ? `\n${problems.join('\n')}` : '';
    throw new Error(
      `Browser run failed: ${error instanceof Error ? error.message : String(error)}${detail}`,
      {
        cause: error,
      },
    );
  } finally {
    await page.close();
  }
}

/** Starts the server and the browser; the caller must `close()` the result (also on error). */
export async function startBrowserBench<Config = PageRunConfig, Result = PageRunResult>(
  options: BrowserBenchOptions = {},
): Promise<BrowserBench<Config, Result>> {
  const { server, origin } = await startServer(options);
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: options.chromiumArgs ?? CHROMIUM_ARGS,
    });
    const context = await browser.newContext();
    context.setDefaultTimeout(RUN_TIMEOUT_MS);
    const requests: string[] = [];
    // The context (not the page) sees the workers' requests too.
    context.on('request', (request) => requests.push(request.url()));
    const opened = browser;
    return {
      origin,
      run: (config, hooks) =>
        openPageRun<Config, Result>(context, origin + (options.pagePath ?? PAGE_PATH), config, hooks),
      requests: () => requests,
      assertLocalOnly() {
        const foreign = requests.filter(
          (url) => !url.startsWith(origin + '/') && !LOCAL_SCHEMES.some((s) => url.startsWith(s)),
        );
        if (foreign.length) {
          const list = [...new Set(foreign)].slice(0, 10).join('\n  ');
          throw new Error(
            `The benchmark page made ${foreign.length} request(s) outside ${origin}:\n  ${list}`,
          );
        }
      },
      requestCount: () => requests.length,
      async close() {
        await opened.close().catch(() => undefined);
        await server.close();
      },
    };
  } catch (error) {
    await browser?.close().catch(() => undefined);
    await server.close();
    throw error;
  }
}

/**
 * Plumbing the benchmark sections share: the Python interpreter of the references, a Vite dev server for the
 * browser pages (or a preview server for their production builds), and a seeded shuffle.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer, preview, type Plugin, type PreviewServer, type ViteDevServer } from 'vite';
import type { RandomFn } from '../src/core/random';

/** The repository root. */
export const ROOT = resolve(fileURLToPath(import.meta.url), '..', '..');

/** Where the bench servers listen. */
export const HOST = '127.0.0.1';

/** OpenBLAS settings of this machine's environment that skew numpy (../shared/ENVIRONMENT.md). */
const SKEWING_ENV = ['OPENBLAS_CORETYPE', 'OPENBLAS_L2_SIZE'];

/**
 * Interpreters to try, in order: `AERIE_PYTHON`, the repository's own environment (`.venv/`, made by
 * scripts/models/pyenv.py), then `python3`.
 */
export function pythonCandidates(): string[] {
  const list = [process.env.AERIE_PYTHON, join(ROOT, '.venv', 'bin', 'python'), 'python3'].filter(
    (p): p is string => !!p,
  );
  return list.filter((p) => !p.includes('/') || existsSync(p));
}

/** What a Python run returned: its stdout, or why no interpreter could run it. */
export type PythonRun = { stdout: string } | { reason: string; status?: number | null; python?: string };

/**
 * Runs a Python script with the first interpreter that succeeds, numpy's BLAS left at its fair defaults.
 * @param explain turns a failed run's exit status into a reason (e.g. "no scikit-learn").
 */
export function runPython(
  args: string[],
  timeoutMs: number,
  explain: (status: number | null, python: string, stderr: string) => string | undefined = () => undefined,
): PythonRun {
  const env = { ...process.env };
  for (const name of SKEWING_ENV) delete env[name];
  let failure: PythonRun = { reason: 'no Python interpreter found (set AERIE_PYTHON)' };
  for (const python of pythonCandidates()) {
    const run = spawnSync(python, args, { env, encoding: 'utf8', timeout: timeoutMs, cwd: ROOT });
    if (run.status === 0) return { stdout: run.stdout };
    const why =
      explain(run.status, python, run.stderr) ??
      `${python} ${args[0]} failed: ${run.error?.message ?? run.stderr.trim().split('\n').slice(-2).join(' | ')}`;
    failure = { reason: why, status: run.status, python };
  }
  return failure;
}

/** Options of `startViteServer`. */
export interface BenchServerOptions {
  /** Vite's dependency cache for this bench (kept apart from the app's and other benches'). */
  cacheDir: string;
  /** Pages and workers whose imports are pre-bundled up front, so no re-optimisation reloads a page. */
  entries: string[];
  plugins?: Plugin[];
}

/**
 * Starts a Vite dev server with the project's config on 127.0.0.1 and a free port (fixed for the server's life:
 * IndexedDB belongs to the origin), without file watching or HMR.
 */
export async function startViteServer(
  options: BenchServerOptions,
): Promise<{ server: ViteDevServer; origin: string }> {
  const server = await createServer({
    configFile: join(ROOT, 'vite.config.ts'),
    root: ROOT,
    cacheDir: options.cacheDir,
    logLevel: 'warn',
    clearScreen: false,
    server: { host: HOST, port: 0, strictPort: true, hmr: false, watch: null },
    plugins: options.plugins ?? [],
    optimizeDeps: { entries: options.entries },
  });
  try {
    await server.listen();
    const address = server.httpServer?.address() as AddressInfo | null;
    if (!address) throw new Error('The bench server did not start listening.');
    return { server, origin: `http://${HOST}:${address.port}` };
  } catch (error) {
    await server.close();
    throw error;
  }
}

/**
 * Serves a production build in `outDir` with `vite preview` and the project's config (its CSP and isolation
 * headers) on 127.0.0.1 and a free port.
 */
export async function startPreviewServer(outDir: string): Promise<{ server: PreviewServer; origin: string }> {
  const server = await preview({
    configFile: join(ROOT, 'vite.config.ts'),
    root: ROOT,
    logLevel: 'warn',
    build: { outDir },
    preview: { host: HOST, port: 0, strictPort: false, open: false },
  });
  const address = server.httpServer.address() as AddressInfo;
  return { server, origin: `http://${HOST}:${address.port}` };
}

/** A seeded Fisher–Yates shuffle (a copy). */
export function shuffled<T>(items: readonly T[], random: RandomFn): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

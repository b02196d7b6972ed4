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
 * scripts/python-env.sh), then `python3`.
 */
export function pythonCandidates(): string[] {
  const list = [process.env.AERIE_PYTHON, join(ROOT, '.venv', 'bin', 'python'), 'python3'].filter(
    (p): p is string => !!p,
  );
  return list.filter((p) => !p.includes('/') || existsSync(p));
}

/** What a Python run returned: its stdout, or why no interpreter could run it. */
export type PythonRun = { stdout: string } | { reason: string };

/**
 * Exit status of a bench or model script whose interpreter lacks a package it needs (scripts/models/pyenv.py,
 * scripts/reference/gmm_sweep_timing.py): the next interpreter is tried. Any other failure is the script's own
 * and is reported at once.
 */
export const EXIT_PYTHON_LACKS = 3;

/** What to do when no interpreter has what the references and test models need. */
export const PYTHON_SETUP_HINT = "set up the bench's Python: bash scripts/python-env.sh (README, Benchmarks)";

const shortPath = (path: string): string =>
  path.startsWith(ROOT + '/') ? path.slice(ROOT.length + 1) : path;

/**
 * Runs a Python script with the first interpreter of `pythonCandidates()` that has what it needs, numpy's BLAS
 * left at its fair defaults. An interpreter that lacks a package (exit status EXIT_PYTHON_LACKS) or cannot
 * start makes way for the next; the reason of a failed run names the script, what each interpreter said, and
 * PYTHON_SETUP_HINT.
 * @param explain turns a failed run's exit status into a reason (e.g. "no scikit-learn").
 * @param candidates the interpreters, in order (default `pythonCandidates()`).
 */
export function runPython(
  args: string[],
  timeoutMs: number,
  explain: (status: number | null, python: string, stderr: string) => string | undefined = () => undefined,
  candidates: readonly string[] = pythonCandidates(),
): PythonRun {
  const env = { ...process.env };
  for (const name of SKEWING_ENV) delete env[name];
  const failures: string[] = [];
  for (const python of candidates) {
    const run = spawnSync(python, args, { env, encoding: 'utf8', timeout: timeoutMs, cwd: ROOT });
    if (run.status === 0) return { stdout: run.stdout };
    const lacks = run.status === EXIT_PYTHON_LACKS || (run.error as NodeJS.ErrnoException)?.code === 'ENOENT';
    // A script that lacks a package says what on its last line (scripts/models/pyenv.py); a crash, on its last two.
    const said =
      run.error?.message ??
      (lacks
        ? run.stderr.trim().split('\n').at(-1)
        : `exit status ${run.status}, ${run.stderr.trim().split('\n').slice(-2).join(' | ')}`);
    failures.push(`${shortPath(python)}: ${explain(run.status, python, run.stderr) ?? said}`);
    if (!lacks) break;
  }
  const tried = failures.length ? failures.join('; ') : 'no Python interpreter found';
  return { reason: `${shortPath(args[0])} did not run (${tried}): ${PYTHON_SETUP_HINT}` };
}

/**
 * Why a generated model folder is not usable after its generator ran: the files still missing (e.g. the q8
 * file, which needs ONNX Runtime's Python package) and what to do.
 */
export function incompleteModel(folder: string, files: readonly string[]): string {
  const missing = files.filter((f) => !existsSync(join(folder, f)));
  return `${shortPath(folder)} lacks ${missing.join(', ')} after its generator ran: ${PYTHON_SETUP_HINT}`;
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

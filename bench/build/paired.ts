/**
 * `AERIE_BENCH_VS=<git revision> npm run bench build`: each selected build of this checkout paired with the same
 * build of another revision, run alternately in one browser (A B A B …; `AERIE_BENCH_PAIRS` pairs, default 3), so
 * that a comparison holds while the machine's speed drifts (on the shared 2-core machines here it drifts by
 * ±15% between runs minutes apart). The revision is checked out with `git worktree` into
 * .bench-cache/vs/<commit> (sharing this checkout's node_modules when its package-lock.json is the same, else with its
 * own from `npm ci`) and its bench page built with its own config;
 * it needs the bench page (bench/browser/build.html, which exists since issue #10's first changes).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import type { Browser } from '@playwright/test';
import { preview } from 'vite';
import type { BuildRunResult } from '../browser/build-page';
import type { BenchRow } from '../lines';
import { HOST, ROOT } from '../support';
import { stageEnds } from './stages';

/** Pairs run per configuration unless `AERIE_BENCH_PAIRS` says otherwise. */
const DEFAULT_PAIRS = 3;
const MS_PER_S = 1000;

/** The bundle a configuration runs on: the bench page, or the app itself. */
export type BundleKind = 'bench' | 'app';

/** What a paired run needs from build.bench.ts (passed in: it imports this module). */
export interface PairedBench<Config> {
  configs: Config[];
  browser: Browser;
  /** This checkout's server of the configuration's bundle. */
  origin(config: Config): string;
  kind(config: Config): BundleKind;
  label(config: Config): string;
  text(config: Config): string;
  run(browser: Browser, origin: string, config: Config, text: string): Promise<BuildRunResult>;
  buildBundle(root: string, outDir: string, kind: BundleKind): Promise<void>;
}

/** A checkout of `revision` beside this one (made once), and its full commit id (also the view bench's pairing). */
export function checkout(revision: string): { dir: string; commit: string } {
  const commit = execFileSync('git', ['rev-parse', '--verify', `${revision}^{commit}`], {
    cwd: ROOT,
    encoding: 'utf8',
  }).trim();
  const dir = join(ROOT, '.bench-cache', 'vs', commit.slice(0, 12));
  if (!existsSync(join(dir, 'package.json'))) {
    mkdirSync(join(ROOT, '.bench-cache', 'vs'), { recursive: true });
    execFileSync('git', ['worktree', 'add', '--force', '--detach', dir, commit], {
      cwd: ROOT,
      stdio: 'ignore',
    });
  }
  if (!existsSync(join(dir, 'node_modules'))) {
    // This checkout's packages serve when the revision locked the same ones; otherwise (e.g. a revision from
    // before a dependency was dropped) it gets its own, installed from its own lock file.
    if (sameLockFile(dir)) symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    else {
      console.log(
        `Installing ${revision}'s own packages (its package-lock.json differs from this checkout's)…`,
      );
      execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' });
    }
  }
  return { dir, commit };
}

/** Whether the checkout in `dir` locks the same packages as this one. */
function sameLockFile(dir: string): boolean {
  const lock = (root: string) => readFileSync(join(root, 'package-lock.json'), 'utf8');
  return lock(dir) === lock(ROOT);
}

/**
 * Each stage's seconds, by kind and layer: `model-load`, `chunk`, `embed-leaves`, `cluster 1`, `cluster 2`, …,
 * `summarize 1`, …, and `store` (from the tree complete to stored; in the app, to the tree view's first frame).
 * A bench-page layer's clustering steps (`cluster 1 global-umap`, …) count to their layer.
 */
export function stageSeconds(result: BuildRunResult): Map<string, number> {
  const ends = stageEnds(result);
  const out = new Map<string, number>();
  result.stages.forEach((s, i) => {
    if (s.stage === 'done') return;
    const [kind, layer] = s.stage.split(' ');
    const key = layer && /^\d+$/.test(layer) ? `${kind} ${layer}` : kind;
    out.set(key, (out.get(key) ?? 0) + (ends[i] - s.startMs) / MS_PER_S);
  });
  out.set('store', (result.totalMs - result.doneMs) / MS_PER_S);
  return out;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const list = (values: number[]): string => values.map((v) => v.toFixed(1)).join(', ');

/** Stage order of the table: the build's own order, then anything else (a stage only one side has). */
const STAGE_ORDER = [
  'model-load',
  'llm-load',
  'chunk',
  'embed-leaves',
  'cluster',
  'summarize',
  'embed-summaries',
  'store',
];

function stageRank(key: string): number {
  const [kind, layer] = key.split(' ');
  const at = STAGE_ORDER.indexOf(kind);
  const layerRank = layer ? Number(layer) : 0;
  if (kind === 'store') return 1e6;
  if (at < 0) return 1e5;
  // Layers in order, each layer's cluster → summarize → embed-summaries.
  return at < 4 ? at : 10 + layerRank * 10 + at;
}

/**
 * The stage table of a pairing: each stage's median seconds on both sides and the difference, one line each
 * (what the lead reads to see where the time went), and the line of totals.
 */
export function stageTable(ours: BuildRunResult[], theirs: BuildRunResult[], short: string): string[] {
  const a = ours.map(stageSeconds);
  const b = theirs.map(stageSeconds);
  const keys = [...new Set([...a, ...b].flatMap((m) => [...m.keys()]))].sort(
    (x, y) => stageRank(x) - stageRank(y) || x.localeCompare(y),
  );
  const cell = (maps: Map<string, number>[], key: string) => median(maps.map((m) => m.get(key) ?? 0));
  const lines = [`    ${'stage'.padEnd(18)} ${'this'.padStart(7)} ${short.slice(0, 7).padStart(7)}   change`];
  for (const key of keys) {
    const x = cell(a, key);
    const y = cell(b, key);
    lines.push(
      `    ${key.padEnd(18)} ${x.toFixed(1).padStart(7)} ${y.toFixed(1).padStart(7)}   ${(x - y >= 0 ? '+' : '') + (x - y).toFixed(1)} s`,
    );
  }
  const total = (runs: BuildRunResult[]) => median(runs.map((r) => r.totalMs / MS_PER_S));
  lines.push(
    `    ${'total'.padEnd(18)} ${total(ours).toFixed(1).padStart(7)} ${total(theirs).toFixed(1).padStart(7)}   ${(total(ours) - total(theirs) >= 0 ? '+' : '') + (total(ours) - total(theirs)).toFixed(1)} s`,
  );
  return lines;
}

/**
 * The paired rows: each configuration's median total beside the revision's, the ratio pair by pair, and the
 * stage table (printed, and in the row's note).
 */
export async function pairedBuildRows<Config>(
  revision: string,
  bench: PairedBench<Config>,
): Promise<BenchRow[]> {
  const { dir, commit } = checkout(revision);
  const short = commit.slice(0, 12);
  const kinds = [...new Set(bench.configs.map((c) => bench.kind(c)))];
  const servers = new Map<BundleKind, { close(): Promise<void>; origin: string }>();
  const rows: BenchRow[] = [];
  try {
    for (const kind of kinds) {
      const outDir = join(ROOT, '.bench-cache', 'vs-dist', `${short}-${kind}`);
      console.log(
        `Building ${revision} (${short})'s ${kind === 'app' ? 'app' : 'bench page'} into ${outDir}…`,
      );
      await bench.buildBundle(dir, outDir, kind);
      const server = await preview({
        configFile: join(dir, 'vite.config.ts'),
        root: dir,
        logLevel: 'warn',
        build: { outDir },
        preview: { host: HOST, port: 0, strictPort: false, open: false },
      });
      servers.set(kind, {
        origin: `http://${HOST}:${(server.httpServer.address() as AddressInfo).port}`,
        close: () => new Promise<void>((resolve) => server.httpServer.close(() => resolve())),
      });
    }
    const pairs = Math.max(1, Number(process.env.AERIE_BENCH_PAIRS) || DEFAULT_PAIRS);
    for (const config of bench.configs) {
      const text = bench.text(config);
      const other = servers.get(bench.kind(config))!.origin;
      const ours: BuildRunResult[] = [];
      const theirs: BuildRunResult[] = [];
      const loads: string[] = [];
      for (let p = 0; p < pairs; p++) {
        loads.push(loadavg()[0].toFixed(1));
        ours.push(await bench.run(bench.browser, bench.origin(config), config, text));
        theirs.push(await bench.run(bench.browser, other, config, text));
        const [a, b] = [ours[p].totalMs / MS_PER_S, theirs[p].totalMs / MS_PER_S];
        console.log(
          `  ${bench.label(config)}, pair ${p + 1}: ${a.toFixed(1)} s vs ${b.toFixed(1)} s (${short}), load ${loads[p]}`,
        );
      }
      const totals = (runs: BuildRunResult[]) => runs.map((r) => r.totalMs / MS_PER_S);
      const ratios = ours.map((r, p) => r.totalMs / theirs[p].totalMs);
      const table = stageTable(ours, theirs, short);
      console.log(`  ${bench.label(config)}: median stage seconds\n${table.join('\n')}`);
      rows.push({
        name: `Build ${bench.label(config)}, paired with ${revision}`,
        value: median(totals(ours)),
        unit: 's',
        reference: median(totals(theirs)),
        referenceLabel: `${short} in the same browser, alternating, median of ${pairs}`,
        higherIsBetter: false,
        note:
          `pairs (this vs ${short}): ${list(totals(ours))} vs ${list(totals(theirs))} s; ratio per pair ` +
          `${ratios.map((r) => r.toFixed(2)).join(', ')} (median ${median(ratios).toFixed(2)}); load average ` +
          `${loads.join(', ')} at each pair's start (${cpus().length} CPUs); median stage seconds (this vs ` +
          `${short}): ${table
            .slice(1)
            .map((line) => line.trim().replace(/\s+/g, ' '))
            .join('; ')}`,
      });
    }
  } finally {
    for (const server of servers.values()) await server.close();
  }
  return rows;
}

#!/usr/bin/env node
/**
 * The static checks of `npm test`, several at a time (`npm run checks`): the package.json scripts `typecheck`
 * (its `tsc -p …` commands, each independent of the others, run one by one here), `lint`, `deps` and
 * `format:check`. Each is a single-threaded process, so on a machine of n cores n of them run side by side
 * (at least 2; AERIE_CHECK_JOBS overrides), the longest first. A check's output is printed whole when it ends,
 * under its name; the exit status is 1 if any failed, once all have run, so one run reports every failure.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { delimiter, resolve } from 'node:path';

const { scripts } = JSON.parse(readFileSync('package.json', 'utf8'));
/** CPU seconds each took on 2026-11-29 (2 busy cores), to start the longest first. */
const COST = { 'tsconfig.node.json': 19, lint: 18, 'format:check': 18, 'tsconfig.json': 13 };

const checks = [
  ...scripts.typecheck.split('&&').map((command) => ({
    name: `typecheck ${command.trim().split(' ').at(-1)}`,
    command: command.trim(),
  })),
  ...['lint', 'deps', 'format:check'].map((name) => ({ name, command: scripts[name] })),
];
const cost = (check) => Object.entries(COST).find(([key]) => check.name.endsWith(key))?.[1] ?? 0;
checks.sort((a, b) => cost(b) - cost(a));

const jobs = Number(process.env.AERIE_CHECK_JOBS) || Math.max(2, availableParallelism());
const env = { ...process.env, PATH: [resolve('node_modules/.bin'), process.env.PATH].join(delimiter) };

/** Runs one check with its output captured; resolves to whether it passed. */
function run({ name, command }) {
  return new Promise((done) => {
    const started = Date.now();
    const child = spawn('sh', ['-c', command], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const end = (ok, error) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`${ok ? '✓' : '✗'} ${name} (${seconds} s)\n`);
      if (!ok) process.stdout.write(`$ ${command}\n${output}${error ? `${error.message}\n` : ''}\n`);
      done(ok);
    };
    child.on('error', (error) => end(false, error));
    child.on('close', (code) => end(code === 0));
  });
}

const queue = [...checks];
const passed = [];
await Promise.all(
  Array.from({ length: Math.min(jobs, queue.length) }, async () => {
    while (queue.length > 0) passed.push(await run(queue.shift()));
  }),
);
process.exit(passed.every(Boolean) ? 0 : 1);

/**
 * The README's run command, cold (issue 9): `npm run dev` with an empty Vite cache, as on a fresh clone. The first
 * minute — add a PDF and the sample, build, ask — must never reload the page: a worker dependency Vite had not
 * pre-bundled would make it re-optimise and reload, losing the user's build. The server gets its own empty cache
 * folder (AERIE_VITE_CACHE_DIR) rather than deleting node_modules/.vite, which the suite's other dev server and a
 * developer's own `npm run dev` may be using.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addSample, ask, configure } from './support/app';
import { expect, test } from './support/fixtures';

/** Port of the cold dev server; override with AERIE_E2E_COLD_PORT. */
const PORT = Number(process.env.AERIE_E2E_COLD_PORT ?? 5174);
const ORIGIN = `http://localhost:${PORT}`;
/** How long the cold server may take to answer its first request. */
const START_TIMEOUT_MS = 120_000;
const POLL_MS = 250;

/** What Vite prints when it re-optimises dependencies and reloads the page. */
const RELOAD_LOG = /optimized dependencies changed|reloading|dependenc(y|ies) optimized/i;

let server: ChildProcess | undefined;
let log = '';
let cacheDir = '';

async function waitForServer(): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (server?.exitCode !== null) throw new Error(`npm run dev exited early:\n${log}`);
    try {
      if ((await fetch(ORIGIN)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  throw new Error(`npm run dev did not answer on ${ORIGIN} within ${START_TIMEOUT_MS} ms:\n${log}`);
}

test.beforeAll(async () => {
  cacheDir = mkdtempSync(join(tmpdir(), 'aerie-vite-cold-'));
  server = spawn('npm', ['run', 'dev', '--', '--port', String(PORT), '--strictPort'], {
    env: { ...process.env, AERIE_CSP_REPORT: '1', AERIE_VITE_CACHE_DIR: cacheDir },
    detached: true, // its own process group, so npm, sh and vite all stop together
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  server.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  await waitForServer();
});

test.afterAll(async () => {
  if (server?.pid && server.exitCode === null) {
    const exited = new Promise((r) => server?.once('exit', r));
    process.kill(-server.pid, 'SIGTERM');
    await exited;
  }
  rmSync(cacheDir, { recursive: true, force: true });
});

test('npm run dev, cold: add a PDF and the sample, build, ask — the page never reloads', async ({
  page,
  csp,
}) => {
  await csp.watch(ORIGIN);
  let navigations = 0;
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) navigations++;
  });
  await page.goto(ORIGIN);
  expect(navigations).toBe(1);

  await configure(page); // the offline model: no model hub here
  const documents = page.getByRole('region', { name: 'Documents' });
  // A PDF starts the ingestion worker (PDF.js), the sample the page's own reader.
  await documents.getByLabel('Add documents').setInputFiles('tests/fixtures/ingest/three-pages.pdf');
  await expect(documents.getByText('three-pages.pdf')).toBeVisible();
  await expect(documents.getByRole('listitem').filter({ hasText: 'three-pages.pdf' })).toContainText(
    'Ready',
    { timeout: 60_000 },
  );
  await addSample(page);
  await page.getByRole('button', { name: 'Build tree' }).click();
  const nodes = page.locator('canvas[aria-label="Tree view"][data-frames]');
  await expect
    .poll(
      async () => {
        // A reload loses the build: say so at once instead of waiting for a tree that never comes.
        if (navigations > 1) throw new Error(`The page reloaded itself. Vite said:\n${log}`);
        return nodes.count();
      },
      { timeout: 240_000 },
    )
    .toBeGreaterThan(0);
  await ask(page, 'Who helped Cinderella?');
  await expect(page.locator('[data-node-id][data-mode="collapsed"]').first()).toBeVisible({
    timeout: 60_000,
  });

  expect(navigations, 'navigations of the page after its first load').toBe(1);
  expect(log).not.toMatch(RELOAD_LOG);
  await csp.collect(ORIGIN);
});
